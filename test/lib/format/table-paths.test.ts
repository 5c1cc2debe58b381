// Every way to an answer's Arrow table is one: the store's *Table methods, the stream's table() (which the server's
// Parquet and Arrow answers are made of) give the same schema, metadata and values, and those values are the JSON
// answer (made by another path, frame-text.ts) as apache-arrow reads the IPC bytes back and DuckDB reads the Parquet file.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { type Schema, type Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableToParquet } from '../../../lib/format/answer-table.js';
import { tableToParquetOffThread } from '../../../lib/format/parquet-threads.js';
import type { RecordStream } from '../../../lib/format/stream.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { tableRecords, tempDir } from '../../helpers.js';

let store: EvapStore;
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
let dir: string;
beforeAll(async () => {
  store = await openStore(); // the demo store
  duck = await (await DuckDBInstance.create(':memory:')).connect();
  dir = await tempDir();
});
afterAll(() => duck.closeSync());

// everything a reader sees of a schema: each field's name, type, nullability and metadata (the unit), and the schema's (the provenance)
const described = (schema: Schema) => ({
  fields: schema.fields.map((f) => ({ name: f.name, type: String(f.type), nullable: f.nullable, metadata: Object.fromEntries(f.metadata) })),
  metadata: Object.fromEntries(schema.metadata),
});

async function jsonAnswer(stream: RecordStream): Promise<Record<string, unknown>[]> {
  let text = '';
  for await (const chunk of stream.json()) text += chunk;
  return JSON.parse(text) as Record<string, unknown>[];
}

// the table's rows as DuckDB reads the Parquet file (written as the server writes it, unless `write` is given), DuckDB's
// type of each column, and the file's key-value metadata but the Arrow schema parquet-wasm adds
async function duckRead(
  table: Table,
  name: string,
  write: (table: Table) => Uint8Array | Promise<Uint8Array> = tableToParquetOffThread,
): Promise<{ rows: Record<string, unknown>[]; types: Record<string, string>; metadata: Record<string, string> }> {
  const file = join(dir, `${name}.parquet`);
  await writeFile(file, await write(table));
  const read = await duck.runAndReadAll(`select * from read_parquet('${file}')`);
  const types = Object.fromEntries(read.columnNames().map((c, i) => [c, String(read.columnType(i))]));
  // DuckDB's JSON form gives doubles as text
  const rows = read
    .getRowObjectsJson()
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, types[k] === 'DOUBLE' && typeof v === 'string' ? Number(v) : v])));
  const pairs = await duck.runAndReadAll(
    `select decode(key) as key, decode(value) as value from parquet_kv_metadata('${file}') where decode(key) <> 'ARROW:schema'`,
  );
  const metadata = Object.fromEntries(pairs.getRowObjectsJson().map((r) => [r.key as string, r.value as string]));
  return { rows, types, metadata };
}

const reservoirs = { names: ['LAKE MEAD', 'LAKE POWELL'], variables: ['NetE', 'E_volume'], start: '2020-06-01', end: '2020-07-10', alsoReturn: ['qflag'] };
const stations = { names: ['ABERDEEN_STATION', 'AMERICAN FALLS_STATION'], start: '2020-12-20', end: '2021-01-10', alsoReturn: ['LAT'] };
const none = { names: ['LAKE MEAD'], start: '1900-01-01', end: '1900-01-05' }; // before the data: no records

describe("an answer's Arrow table", () => {
  it.each([
    ['reservoirs over a range, with day flags', () => store.reservoirTimeseriesTable(reservoirs), () => store.streamReservoirTimeseries(reservoirs)],
    ['stations over a range, with a numeric attribute', () => store.stationTimeseriesTable(stations), () => store.streamStationTimeseries(stations)],
    ['an empty answer', () => store.reservoirTimeseriesTable(none), () => store.streamReservoirTimeseries(none)],
  ] as const)(
    '%s: the store method and the stream give one schema and the JSON answer, read back by apache-arrow and DuckDB',
    async (name, fromStore, stream) => {
      const [stored, streamed, expected] = await Promise.all([fromStore(), stream().table(), jsonAnswer(stream())]);
      expect(described(stored.schema)).toEqual(described(streamed.schema));
      expect(Object.keys(Object.fromEntries(stored.schema.metadata))).toContain('evap.data'); // the provenance, in both
      expect(stored.schema.fields.map((f) => f.name)).toEqual(stream().columns); // every column, an empty answer's too
      for (const table of [stored, streamed]) expect(tableRecords(tableFromIPC(tableToIPC(table, 'stream')))).toEqual(expected);
      const { rows, types } = await duckRead(streamed, name.replace(/\W+/g, '-'));
      expect(rows).toEqual(expected);
      // names and flags text, dates DATE, measurements DOUBLE
      expect(types[stored.schema.fields[0]!.name]).toBe('VARCHAR');
      expect(types.start_date).toBe('DATE');
      for (const [column, type] of Object.entries(types)) if (column.includes(' (')) expect(type, column).toBe('DOUBLE');
      if (name.includes('flags')) expect(types.qflag).toBe('VARCHAR');
      if (name.includes('attribute')) expect(types.LAT).toBe('DOUBLE');
    },
  );

  it('as of a snapshot: the store method reads the snapshot as its view does', async () => {
    const [{ time }] = await store.listSnapshots();
    const stored = await store.reservoirTimeseriesTable({ ...reservoirs, asOf: time });
    const view = await store.asOf(time);
    try {
      const viewed = await view.streamReservoirTimeseries(reservoirs).table();
      expect(described(stored.schema)).toEqual(described(viewed.schema));
      expect(tableRecords(stored)).toEqual(await jsonAnswer(view.streamReservoirTimeseries(reservoirs)));
    } finally {
      await view.close();
    }
  });

  it('aggregates (the stream alone): counts INTEGER, and the JSON answer as DuckDB reads it', async () => {
    const monthly = store.streamReservoirAggregates({ names: ['LAKE MEAD'], start: '2019-01-01', end: '2020-12-31', interval: 'monthly' });
    const { rows, types } = await duckRead(await monthly.table(), 'monthly');
    expect(rows).toEqual(await jsonAnswer(monthly));
    expect(types.n_days).toBe('INTEGER');
    expect(types.end_date).toBe('DATE');
  });

  it('is one Parquet file, written on the event loop (the CLI) or on a worker thread (the server), as DuckDB reads it', async () => {
    const table = await store.streamReservoirTimeseries(reservoirs).table();
    const [onLoop, offThread] = await Promise.all([duckRead(table, 'on-loop', tableToParquet), duckRead(table, 'off-thread')]);
    expect(onLoop).toEqual(offThread); // the bytes differ: parquet-wasm writes the key-value pairs in a hash map's order
    expect(offThread.metadata).toEqual(Object.fromEntries(table.schema.metadata));
  });
});
