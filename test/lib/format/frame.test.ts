// The JSON text made straight from the columns is exactly JSON.stringify of the records, for any query.
// A block's frame (blockFrame) against a plain loop: its records, JSON and CSV of any plan, and with per-day flags every
// record of the block made without flags, then each day's flag texts (from the public FAQ's lists) put in place of the
// name's attributes, or those attributes where a day has none.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { reservoirVariables, stationVariableNames } from '../../../lib/catalogue.js';
import type { FlagColumn } from '../../../lib/flags.js';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { type Block, blockFrame, type DayFlags } from '../../../lib/format/frame.js';
import { frameRecords } from '../../../lib/format/frame-records.js';
import { frameText } from '../../../lib/format/frame-text.js';
import type { RecordStream } from '../../../lib/format/stream.js';
import type { ResolvedVariable } from '../../../lib/format/variable.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { withKeys } from '../../../lib/query/plan.js';
import type { WireRecord, WireValue } from '../../../lib/types.js';
import { convert, roundValue } from '../../../lib/units.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir } from '../../helpers.js';

let store: EvapStore;
let reservoirs: string[];
let stations: string[];
beforeAll(async () => {
  store = await openStore();
  reservoirs = await store.listReservoirNames();
  stations = await store.listStationNames();
});

async function text(stream: RecordStream): Promise<string> {
  let out = '';
  for await (const chunk of stream.json()) out += chunk;
  return out;
}

async function csv(stream: RecordStream): Promise<string> {
  let out = '';
  for await (const chunk of stream.csv()) out += chunk;
  return out;
}

async function records(stream: RecordStream): Promise<string> {
  const all = [];
  for await (const batch of stream.batches) all.push(...batch);
  return JSON.stringify(all);
}

async function recordsAsCsv(stream: RecordStream): Promise<string> {
  const all = [];
  for await (const batch of stream.batches) all.push(...batch);
  return recordsToCsv(all, stream.columns);
}

const day2019 = Date.UTC(2019, 0, 1) / 864e5;
const date = (offset: number) => new Date((day2019 + offset) * 864e5).toISOString().slice(0, 10);

describe('RecordStream.json and RecordStream.csv', () => {
  it('write the text of JSON.stringify(records) and recordsToCsv(records) for reservoir queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(['LAKE ALICE', 'LAKE MEAD', 'RUEDI RESERVOIR', 'LAKE POWELL'], { minLength: 1 }),
        fc.subarray(
          reservoirVariables.map((v) => v.name),
          { minLength: 1, maxLength: 6 },
        ),
        fc.constantFrom('metric', 'english' as const),
        fc.subarray(['qflag', 'LAT', 'STATE', 'RES_NAME']),
        fc.integer({ min: -30, max: 1100 }),
        fc.integer({ min: 0, max: 400 }),
        async (names, variables, units, alsoReturn, from, length) => {
          const query = { names, variables, units, alsoReturn, start: date(from), end: date(from + length) };
          const onDate = { variables, units, alsoReturn, date: date(from) };
          return (
            (await text(store.streamReservoirTimeseries(query))) === (await records(store.streamReservoirTimeseries(query))) &&
            (await csv(store.streamReservoirTimeseries(query))) === (await recordsAsCsv(store.streamReservoirTimeseries(query))) &&
            (await csv(store.streamReservoirTimeseriesOnDate(onDate))) === (await recordsAsCsv(store.streamReservoirTimeseriesOnDate(onDate))) &&
            (await text(store.streamReservoirTimeseriesOnDate(onDate))) === (await records(store.streamReservoirTimeseriesOnDate(onDate)))
          );
        },
      ),
      { numRuns: 40 },
    );
    expect(reservoirs.length).toBeGreaterThan(4);
  });

  it('write the same texts for station queries, gaps and unmeasured variables included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(stations, { minLength: 1, maxLength: 4 }),
        fc.option(fc.subarray(stationVariableNames, { minLength: 1, maxLength: 8 }), { nil: undefined }),
        fc.constantFrom('metric', 'english' as const),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 100 }),
        async (names, variables, units, from, length) => {
          const query = { names, variables, units, alsoReturn: ['STATION_TYPE'], start: date(from), end: date(from + length) };
          const onDate = { variables, units, date: date(from) };
          return (
            (await text(store.streamStationTimeseries(query))) === (await records(store.streamStationTimeseries(query))) &&
            (await csv(store.streamStationTimeseries(query))) === (await recordsAsCsv(store.streamStationTimeseries(query))) &&
            (await text(store.streamStationTimeseriesOnDate(onDate))) === (await records(store.streamStationTimeseriesOnDate(onDate)))
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it('keeps the order objects would give when an attribute name is an array index', async () => {
    const dir = await tempDir();
    const writer = createStoreWriter(dir);
    await writer.writeReservoirMetadata([{ RES_NAME: 'X', '7': 'seven', 'ünï "code"': 'u' }]);
    await writer.writeStationMetadata([]);
    await writer.writeReservoirPartition('nete-volume-calcs', 2020, {
      names: ['X', 'X'],
      days: Int32Array.of(day('2020-01-01'), day('2020-01-02')),
      values: { NetE: Float64Array.of(-0.00001, NaN) },
    });
    await writer.commit();
    const tiny = await openStore(dir);
    const query = { names: ['X'], datasets: ['nete-volume-calcs'], start: '2020-01-01', end: '2020-01-02', alsoReturn: ['7', 'ünï "code"'] };
    const expected = await records(tiny.streamReservoirTimeseries(query));
    expect(expected.startsWith('[{"7":"seven",')).toBe(true);
    expect(await text(tiny.streamReservoirTimeseries(query))).toBe(expected);
    expect(await csv(tiny.streamReservoirTimeseries(query))).toBe(await recordsAsCsv(tiny.streamReservoirTimeseries(query)));
    expect(await text(tiny.streamReservoirTimeseries({ ...query, alsoReturn: ['ünï "code"'] }))).toBe(
      await records(tiny.streamReservoirTimeseries({ ...query, alsoReturn: ['ünï "code"'] })),
    );
  });
});

// a block's records made by a plain loop: name, dates, each value converted and rounded, the attributes, then the day
// flags (a flag among the attributes keeps its place)
function plainRecords(
  variables: readonly ResolvedVariable[],
  name: string,
  block: Block,
  extra: WireRecord,
  from: number,
  to: number,
  flags: DayFlags = new Map(),
): WireRecord[] {
  const out: WireRecord[] = [];
  for (let i = from; i < to; i++) {
    const date = new Date(Number(block.days[i]) * 864e5).toISOString().slice(0, 10);
    const entries: [string, WireValue][] = [
      ['RES_NAME', name],
      ['start_date', date],
      ['end_date', date],
      ...variables.map((v, j): [string, WireValue] => {
        const x = block.columns[j] ? convert(block.columns[j]![i]!, v) : NaN;
        return [v.key, x !== x ? null : roundValue(x)];
      }),
      ...Object.keys(extra)
        .filter((k) => k !== 'RES_NAME')
        .map((k): [string, WireValue] => [k, extra[k]!]),
    ];
    const record: WireRecord = {};
    for (const [k, value] of entries) Object.defineProperty(record, k, { value, enumerable: true, writable: true, configurable: true }); // "__proto__" as a key
    for (const [column, codes] of flags) {
      const code = codes?.[i];
      record[column] = (code === undefined || Number.isNaN(code) ? undefined : TEXTS[column][code]) ?? extra[column] ?? null;
    }
    out.push(record);
  }
  return out;
}

const TEXTS: Record<FlagColumn, string[]> = { qflag: ['O', 'M', 'S', 'R'], status: ['Early', 'Provisional', 'Final'] };

describe('blockFrame', () => {
  const variable = fc.constantFrom(...reservoirVariables).map((v) => ({ name: v.name, dataset: v.dataset, unit: v.spec.unit }));
  const plan = fc.record({
    variables: fc.uniqueArray(variable, { minLength: 1, maxLength: 6, selector: (v) => v.name }),
    system: fc.constantFrom('metric' as const, 'english' as const),
    extra: fc.dictionary(
      fc.constantFrom('qflag', 'STATE', '1', '__proto__', 'a "quoted", key'),
      fc.oneof(fc.string({ maxLength: 8 }), fc.double({ noNaN: true, min: -1e6, max: 1e6 }), fc.constant(null)),
    ),
    rows: fc.array(fc.array(fc.oneof(fc.double({ min: -1e7, max: 1e7 }), fc.constant(NaN), fc.constant(-0)), { minLength: 6, maxLength: 6 }), {
      minLength: 1,
      maxLength: 20,
    }),
    held: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    name: fc.constantFrom('LAKE MEAD', 'O"NEIL, LAKE', '__proto__'),
    cut: fc.tuple(fc.nat(), fc.nat()),
  });

  it('gives the records of a plain loop, generated or not, and their JSON and CSV text, for any plan', () => {
    fc.assert(
      fc.property(plan, ({ variables, system, extra, rows, held, name, cut }) => {
        const resolved = withKeys(variables, system);
        const days = Int32Array.from(rows, (_, i) => day('2020-02-27') + i);
        const block = { days, columns: resolved.map((_, j) => (held[j] ? Float64Array.from(rows, (r) => r[j]!) : undefined)) };
        const extraRecord = Object.fromEntries(Object.entries(extra));
        const from = cut[0] % rows.length;
        const to = from + (cut[1] % (rows.length - from + 1));
        const frame = blockFrame('RES_NAME', resolved, name, block, extraRecord, from, to);
        const expected = plainRecords(resolved, name, block, extraRecord, from, to);
        for (const codegen of [true, false]) {
          const records = frameRecords(frame, 0, frame.rows, codegen);
          expect(records).toStrictEqual(expected);
          expect(records.map((r) => Object.keys(r).join())).toEqual(expected.map((r) => Object.keys(r).join()));
        }
        const header = ['RES_NAME', 'start_date', 'end_date', ...resolved.map((v) => v.key), ...Object.keys(extraRecord).filter((k) => k !== 'RES_NAME')];
        expect(frameText(frame, 'json', header).join(',')).toBe(JSON.stringify(expected).slice(1, -1));
        expect(frameText(frame, 'csv', header).join('')).toBe(recordsToCsv(expected, header, false));
      }),
      { numRuns: 300 },
    );
  });

  it('converts with the catalogue factor: one acre-foot of E_volume is 1233.48 m3', () => {
    const resolved = withKeys([{ name: 'E_volume', dataset: 'nete-volume-calcs', unit: 'm3' }], 'english');
    const frame = blockFrame('RES_NAME', resolved, 'X', { days: [day('2020-01-01')], columns: [Float64Array.of(1233.48 * 3)] }, {}, 0, 1);
    expect(frameRecords(frame)[0]![resolved[0]!.key]).toBe(3);
  });
});

const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'english');

const codes = (column: FlagColumn, length: number) =>
  fc.array(fc.oneof(fc.integer({ min: 0, max: TEXTS[column].length - 1 }), fc.constant(NaN)), { minLength: length, maxLength: length });
const attribute = fc.option(fc.constantFrom('O', 'S', 'Final'), { nil: undefined });

const flagsCase = fc.integer({ min: 1, max: 25 }).chain((length) =>
  fc.record({
    values: fc.array(fc.oneof(fc.double({ min: -100, max: 100, noNaN: true }), fc.constant(NaN)), { minLength: length, maxLength: length }),
    qflag: fc.option(codes('qflag', length), { nil: undefined }), // undefined: the files hold no qflag column
    status: fc.option(codes('status', length), { nil: undefined }),
    columns: fc.subarray(['qflag', 'status'] as FlagColumn[]),
    metadataQflag: attribute,
    range: fc.tuple(fc.integer({ min: 0, max: length }), fc.integer({ min: 0, max: length })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
  }),
);

describe('blockFrame with day flags', () => {
  it("gives each record its own day's flags, else the name's attribute, else null", () => {
    fc.assert(
      fc.property(flagsCase, ({ values, qflag, status, columns, metadataQflag, range: [from, to] }) => {
        const block = { days: Int32Array.from(values, (_, i) => day('2020-12-20') + i), columns: [Float64Array.from(values)] };
        const extra: WireRecord = { STATE: 'CO', ...(metadataQflag === undefined ? {} : { qflag: metadataQflag }) };
        const dayCodes = { qflag, status };
        const flags = new Map(columns.map((c) => [c, dayCodes[c]] as const));
        const expected = plainRecords(variables, 'X', block, extra, from, to, flags);
        const frame = blockFrame('RES_NAME', variables, 'X', block, extra, from, to, flags);
        expect(frameRecords(frame)).toEqual(expected);
        const header = Object.keys(expected[0] ?? {});
        const csv = expected
          .map(
            (r) =>
              `${Object.values(r)
                .map((v) => (v === null ? '' : String(v)))
                .join(',')}\n`,
          )
          .join('');
        expect(frameText(frame, 'csv', header).join('')).toBe(csv);
        expect(frameText(frame, 'json', header).join(',')).toBe(JSON.stringify(expected).slice(1, -1));
      }),
      { numRuns: 300 },
    );
  });
});
