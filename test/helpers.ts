// Test factories: temporary folders and a tiny hand-made store whose every value is known.
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, inject, onTestFinished } from 'vitest';
import { parseDay } from '../lib/dates.js';
import type { Manifest } from '../lib/store/manifest.js';
import type { MetadataRow, WireRecord } from '../lib/types.js';
import { createStoreWriter } from '../lib/writer/write.js';

/**
 * Runs `clean` after the test running now, or after the test file when called outside a test (at the file's top level,
 * in a hook). Registered at once: vitest takes onTestFinished only inside a test, and ignores an afterAll registered
 * there or after an await (thousands of folders were left behind a run), and a helper module shared by the files of
 * one process (isolate: false) must register for each file, not once.
 */
export function cleanUp(clean: () => unknown): void {
  try {
    onTestFinished(async () => void (await clean()));
  } catch {
    afterAll(async () => void (await clean()));
  }
}

/** A fresh temporary folder, removed after the test that made it, or after the test file when made in a hook. */
export function tempDir(prefix = 'evap-test-'): Promise<string> {
  const made = mkdtemp(join(tmpdir(), prefix));
  cleanUp(async () => rm(await made, { recursive: true, force: true }));
  return made;
}

/** The epoch day of a YYYY-MM-DD date. */
export const day = (text: string): number => parseDay(text, 'date');

/** Consecutive epoch days from `start`, `count` of them. */
export function daysFrom(start: string, count: number): Int32Array {
  return Int32Array.from({ length: count }, (_, i) => day(start) + i);
}

export const tinyReservoirs: MetadataRow[] = [
  { RES_NAME: 'ALPHA LAKE', STATE: 'CO', LAT: 40, LON: -105, Shape_Area: 1_000_000, qflag: 'O' },
  { RES_NAME: 'BETA RESERVOIR', STATE: 'UT', LAT: 39, LON: -111, Shape_Area: 2_000_000, qflag: 'S' },
];
export const tinyStations: MetadataRow[] = [{ STA_NAME: 'ALPHA_STATION', LAT: 40.01, LON: -105.01, RES_NAME: 'ALPHA LAKE', qflag: 'O' }];

/**
 * Writes a tiny store: two reservoirs over 2020-12-30..2021-01-02 in nete-volume-calcs, where
 * NetE = reservoir number + day index / 10 (ALPHA = 1, BETA = 2), E_volume = 1000 x NetE, and BETA's
 * 2021-01-01 NetE is a gap; one station with ATemp = day index.
 */
export async function writeTinyStore(dir: string | import('../lib/store/storage.js').Storage, rowGroupSize = 3): Promise<void> {
  const writer = createStoreWriter(dir, { rowGroupSize });
  await writer.writeReservoirMetadata(tinyReservoirs);
  await writer.writeStationMetadata(tinyStations);
  for (const [year, start, count, offset] of [
    [2020, '2020-12-30', 2, 0],
    [2021, '2021-01-01', 2, 2],
  ] as const) {
    const names = ['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR'].filter((_, i) => i % 2 < count);
    const days = Int32Array.from(names, (_, i) => day(start) + (i % count));
    const nete = Float64Array.from(names, (n, i) => (n === 'ALPHA LAKE' ? 1 : 2) + (offset + (i % count)) / 10);
    if (year === 2021) nete[2] = NaN;
    await writer.writeReservoirPartition('nete-volume-calcs', year, { names, days, values: { NetE: nete, E_volume: nete.map((v) => v * 1000) } });
  }
  await writer.writeStationPartition('ALPHA_STATION', { days: daysFrom('2020-12-30', 4), values: { ATemp: Float64Array.from([0, 1, 2, 3]) } });
  await writer.commit();
}

/**
 * How each variable aggregates, written out by hand from docs/aggregates.md (not read from the catalogue, whose
 * `aggregate` field the aggregate tests check): daily depths and volumes are summed, directions take the circular
 * mean, every other variable the mean.
 */
export const summedVariables: ReadonlySet<string> = new Set([
  'pr',
  'etr',
  'eto',
  'E_hs',
  'E_nhs',
  'NetE',
  'E_volume',
  'NetE_volume',
  'ETo',
  'ETr',
  'evap_1',
  'evap_2',
  'evap_3',
  'evap_4',
  'evap_5',
]);
export const directionVariables: ReadonlySet<string> = new Set(['th', 'WD']);

/** The days of the small store: 2020-12-25..2021-01-05 (two years of partitions). */
export const smallStoreRange = { start: '2020-12-25', end: '2021-01-05' };

/** A small generated store: 4 reservoirs and 3 stations over smallStoreRange. */
export async function writeSmallStore(dir: string): Promise<void> {
  const { generateStore } = await import('../lib/synthetic/generate.js');
  await generateStore(dir, { reservoirs: 4, stations: 3, ...smallStoreRange, seed: 7 });
}

/**
 * Writes the small store into `dir` as a copy of one written once per run (into the run's cache folder,
 * test/support/cache-folder.ts), its Iceberg tables derived for `dir`: the same store files, snapshot id and creation
 * time at each call, for less CPU than writeSmallStore. For a test whose store is a fixture to read, serve or write on, not one that needs a
 * snapshot of its own (say, one compared with another small store's).
 */
export async function copySmallStore(dir: string): Promise<void> {
  const made = join(inject('cacheFolder'), 'small-store');
  if (!existsSync(join(made, 'manifest.json'))) {
    // written aside and renamed: another test process may be making it at the same time, and the first rename wins
    const aside = await mkdtemp(`${made}-`);
    await writeSmallStore(aside);
    await rename(aside, made).catch(() => rm(aside, { recursive: true, force: true }));
  }
  // the Iceberg tables name their store's absolute location: derived again for the copy's, as the writer derives them
  await cp(made, dir, { recursive: true, filter: (path) => path !== join(made, 'tables') });
  const { publishTables } = await import('../lib/tables/publish.js');
  await publishTables(dir);
}

/** Every reservoir and station record of the store in `dir` over the small store's days: what a copy must answer as its source. */
export async function smallStoreAnswers(dir: string, names: readonly string[]): Promise<WireRecord[]> {
  const { openStore } = await import('../lib/open/store.js');
  const store = await openStore(dir);
  return [
    ...(await store.reservoirTimeseries({ names: [...names], ...smallStoreRange })),
    ...(await store.stationTimeseries({ names: store.manifest.stations.names, ...smallStoreRange })),
  ];
}

/** The small generated store, written to a temporary folder and opened. */
export interface OpenSmallStore {
  dir: string;
  store: import('../lib/open/store.js').EvapStore;
  names: string[]; // its reservoirs
  stations: string[];
}

/** `copy`: a copy of the run's one small store (copySmallStore), not a store of its own. */
export async function openSmallStore({ copy = false } = {}): Promise<OpenSmallStore> {
  const { openStore } = await import('../lib/open/store.js');
  const dir = await tempDir();
  await (copy ? copySmallStore : writeSmallStore)(dir);
  const store = await openStore(dir);
  return { dir, store, names: store.manifest.reservoirs.names, stations: store.manifest.stations.names };
}

/** The small store served on loopback: what the ingest, mirror and CLI tests compare against. */
export interface SmallStore extends OpenSmallStore {
  server: { url: string; key: string };
  api(path: string): Promise<string>; // the server's answer to a GET with the key, checked to be a 200
}

export async function serveSmallStore(options: { copy?: boolean } = {}): Promise<SmallStore> {
  const { startTestServer } = await import('./server/harness.js');
  const small = await openSmallStore(options);
  const server = await startTestServer({ store: small.store });
  const api = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: { 'api-key': server.key } });
    expect(response.status, path).toBe(200);
    return response.text();
  };
  return { ...small, server, api };
}

/** Any text, weighted towards what Number() also reads as an integer (hex, exponents, signs, blanks, fractions) and long digit runs. */
export const integerLike = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.stringMatching(/^[0-9]{1,20}$/),
  fc.stringMatching(/^[-+ \t]?(0[xXbBoO])?[0-9a-fA-F]{0,6}(\.[0-9]*)?([eE][-+]?[0-9]{1,3})?[ \t\n]?$/),
  fc.constantFrom('0x10', '1e3', ' 5 ', '5.0', '+5', '-0', '5_000', '１２', 'Infinity', '', '9007199254740991', '9007199254740992'),
);

/** An Arrow table's rows as the JSON answer's records: Date32 days (read as epoch milliseconds) back to YYYY-MM-DD. */
export function tableRecords(table: import('apache-arrow').Table): Record<string, unknown>[] {
  const dates = table.schema.fields.filter((f) => String(f.type) === 'Date32<DAY>').map((f) => f.name);
  return table.toArray().map((row) => {
    const record: Record<string, unknown> = { ...row.toJSON() };
    for (const d of dates) record[d] = record[d] === null ? null : new Date(record[d] as number).toISOString().slice(0, 10);
    return record;
  });
}

/** Makes the store at `dir` one written before file indexes and date-major copies: its manifest and snapshots name none. */
export async function dropIndexes(dir: string): Promise<void> {
  const snapshots = (await readdir(join(dir, 'snapshots')).catch(() => [])).map((f) => join('snapshots', f));
  for (const path of ['manifest.json', ...snapshots]) {
    const manifest = JSON.parse(await readFile(join(dir, path), 'utf8')) as Manifest;
    for (const d of Object.values(manifest.datasets)) {
      for (const p of d.partitions) for (const f of p.files) delete f.index;
      delete d.byDate;
    }
    for (const p of Object.values(manifest.stations.partitions)) delete p.index;
    delete manifest.stations.byDate;
    await writeFile(join(dir, path), JSON.stringify(manifest));
  }
}
