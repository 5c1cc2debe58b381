// recordStream: one query run per output, and every output of a real answer the same records as its records().
// JSON array chunks against JSON.parse: whatever the batches, the chunks joined are the JSON array of every object in order.
import { tableFromIPC } from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../lib/errors.js';
import { tableToArrowStream } from '../../../lib/format/answer-table.js';
import type { OutputKind } from '../../../lib/format/stream.js';
import { jsonArrayChunks, type RecordStream, recordStream } from '../../../lib/format/stream.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import type { WireRecord } from '../../../lib/types.js';
import { tableRecords } from '../../helpers.js';

// A query run of two batches in each output kind, counting the runs.
function fakeRun() {
  const runs: OutputKind[] = [];
  const batches: Record<OutputKind, unknown[][]> = {
    records: [[{ a: 1 }, { a: 2 }], [{ a: 3 }]],
    json: [['{"a":1}', '{"a":2}'], [], ['{"a":3}']],
    csv: [['1\n', '2\n'], ['3\n']],
  };
  async function* run(kind: OutputKind) {
    runs.push(kind);
    yield* batches[kind];
  }
  return { runs, run };
}

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

describe('recordStream', () => {
  it('gives the records, a table, a JSON array and CSV with the header, each from a run of its own', async () => {
    const { runs, run } = fakeRun();
    const stream = recordStream(['a'], run);
    expect(stream.columns).toEqual(['a']);
    expect(await stream.records()).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect((await stream.table()).getChild('a')!.toArray()).toEqual(Float64Array.of(1, 2, 3));
    expect(await text(stream.json())).toBe('[{"a":1},{"a":2},{"a":3}]');
    expect(await text(stream.csv())).toBe('a\n1\n2\n3\n');
    expect(runs).toEqual(['records', 'records', 'json', 'csv']);
  });

  it('runs the query afresh on each output and not before', async () => {
    const { runs, run } = fakeRun();
    const stream = recordStream(['a'], run);
    expect(runs).toEqual([]);
    await stream.records();
    for await (const _ of stream.batches);
    expect(runs).toEqual(['records', 'records']);
  });

  it('answers an empty JSON array, a lone header and an empty table with the columns for no records', async () => {
    const stream = recordStream(['a', 'b'], async function* () {});
    expect(await text(stream.json())).toBe('[]');
    expect(await text(stream.csv())).toBe('a,b\n');
    expect(await stream.records()).toEqual([]);
    const table = await stream.table();
    expect([table.numRows, table.schema.fields.map((f) => f.name)]).toEqual([0, ['a', 'b']]);
  });

  it('refuses a table over the bound of values (records x columns), naming output_format', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ a: i, b: `${i}` }));
    const stream = recordStream(['a', 'b'], async function* () {
      yield rows.slice(0, 5);
      yield rows.slice(5);
    });
    expect((await stream.table(20)).numRows).toBe(10); // 10 records x 2 columns: just within
    const refused = await stream.table(19).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidParameterError);
    expect((refused as InvalidParameterError).parameter).toBe('output_format');
  });

  it('refuses a table whose bound on records could exceed the values before reading any batch', async () => {
    let read = 0;
    const run = async function* () {
      read++;
      yield [{ a: 1, b: '1' }];
    };
    const bounded = (maxRecords: number) => recordStream(['a', 'b'], run, 0, maxRecords);
    expect((await bounded(10).table(20)).numRows).toBe(1); // 10 records x 2 columns at most: within
    expect(read).toBe(1);
    const refused = await bounded(11)
      .table(20)
      .catch((error: unknown) => error);
    expect((refused as InvalidParameterError).parameter).toBe('output_format');
    expect(read).toBe(1); // refused on its bound alone, though its one record would fit
  });
});

// Real answers of the demo store (Parquet read and emitted by generated code), each output checked against records()
// by a reader of its own: JSON.parse, csv-parse, apache-arrow reading the table's IPC bytes back.
describe('the outputs of real answers', () => {
  let store: EvapStore;
  beforeAll(async () => {
    store = await openStore();
  });

  const answers: Record<string, () => RecordStream> = {
    'reservoirs over a range, with day flags': () =>
      store.streamReservoirTimeseries({
        names: ['LAKE ALICE', 'LAKE MEAD'],
        datasets: ['nete-volume-calcs', 'lem'],
        start: '2019-12-20',
        end: '2020-02-10',
        alsoReturn: ['qflag', 'status'],
      }),
    'reservoirs over a range in english units': () =>
      store.streamReservoirTimeseries({ names: ['LAKE ESTES'], start: '2020-01-01', end: '2020-01-15', units: 'english' }),
    'every reservoir on a date': () => store.streamReservoirTimeseriesOnDate({ datasets: ['rtma'], date: '2020-06-01' }),
    'stations over a range': () => store.streamStationTimeseries({ start: '2021-01-01', end: '2021-01-20', alsoReturn: ['status'] }),
    'every station on a date': () => store.streamStationTimeseriesOnDate({ date: '2021-03-01' }),
    'monthly aggregates': () =>
      store.streamReservoirAggregates({ names: ['LAKE MEAD'], datasets: ['nete-volume-calcs'], start: '2019-01-01', end: '2020-12-31', interval: 'monthly' }),
    'normals by day of the year': () => store.streamStationNormals({ names: ['BLW_STATION'], variables: ['ATemp'], period: 'day' }),
    'a range without data': () => store.streamReservoirTimeseries({ names: ['LAKE ALICE'], start: '1900-01-01', end: '1900-01-31' }),
  };

  for (const [what, ask] of Object.entries(answers)) {
    it(`${what}: json(), csv() and table() hold the records of records()`, async () => {
      const records = await ask().records();
      const columns = ask().columns;
      if (what !== 'a range without data') expect(records.length).toBeGreaterThan(0);
      for (const r of records) expect(Object.keys(r)).toEqual(columns);

      expect(JSON.parse(await text(ask().json()))).toEqual(records);

      const [header, ...rows] = parse(await text(ask().csv()), { relax_column_count: false }) as string[][];
      expect(header).toEqual(columns);
      const asText = (v: WireRecord[string]) => (v === null ? '' : String(v));
      expect(rows).toEqual(records.map((r) => columns.map((c) => asText(r[c]!))));

      const table = tableFromIPC(tableToArrowStream(await ask().table())); // read back from bytes, not the object made
      expect(table.schema.fields.map((f) => f.name)).toEqual(columns);
      expect(tableRecords(table)).toEqual(records);
    });
  }
});

async function* from<T>(batches: T[]): AsyncGenerator<T> {
  for (const b of batches) yield b;
}
async function chunksOf(batches: string[][]): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of jsonArrayChunks(from(batches))) out.push(chunk);
  return out;
}

const record = fc.dictionary(
  fc.string({ maxLength: 5 }),
  fc.oneof(fc.string({ maxLength: 5 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
  { maxKeys: 4 },
);
// a batch element is the text of one or more objects separated by commas, or '' (a block that made no record)
const element = fc.oneof(fc.array(record, { minLength: 1, maxLength: 3 }), fc.constant([]));

describe('jsonArrayChunks', () => {
  it('makes the JSON array of every object of every batch, in order, one chunk a non-empty batch of small texts and a comma between', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(element, { maxLength: 4 }), { maxLength: 6 }), async (batches) => {
        const texts = batches.map((batch) => batch.map((objects) => objects.map((o) => JSON.stringify(o)).join(',')));
        const chunks = await chunksOf(texts);
        const objects = batches.flat(2);
        // parsed as JSON makes them (-0 is written 0: comparing with the objects themselves failed whenever a -0 was drawn)
        expect(JSON.parse(chunks.join(''))).toEqual(JSON.parse(JSON.stringify(objects)));
        expect(chunks.join('')).toBe(JSON.stringify(objects));
        const filled = texts.filter((batch) => batch.some((t) => t !== '')).length;
        expect(chunks.length).toBe(2 + Math.max(0, 2 * filled - 1));
        // the comma between batches is a chunk of its own, never joined to a batch's text (a string the socket flattens)
        expect(chunks.slice(1, -1).filter((c, i) => (i % 2 === 1 ? c !== ',' : c.startsWith(',')))).toEqual([]);
      }),
    );
  });

  it('answers [] for no batches and for batches of nothing', async () => {
    expect((await chunksOf([])).join('')).toBe('[]');
    expect((await chunksOf([[], [''], ['', '']])).join('')).toBe('[]');
  });
});
