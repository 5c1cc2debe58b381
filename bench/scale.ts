// The cost curve of issue 11: the same measurements on stores of 247, 5,000 and 44,000 water bodies, beside DuckDB.
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatasetName, reservoirDatasets, variableKey } from '../lib/catalogue.js';
import { type Manifest, manifestFiles } from '../lib/store/manifest.js';
import { openStore } from '../lib/store/store.js';
import { vacuumStore } from '../lib/store/vacuum.js';
import { DuckEngine } from './duckdb.js';
import { drive, startServer } from './http.js';
import { type BenchQuery, duckdbSql, jsonLength, streamOurs } from './queries.js';
import { ensureStore, repoRoot, runNode, type StoreScale, scaleStoreDir } from './store.js';
import { median, warmMedian } from './timing.js';

/** Cold and warm times of one query on one store, ours and DuckDB's (ms, medians). */
export interface ScaleQueryRow {
  id: string;
  title: string;
  records: number;
  oursCold: number;
  duckCold: number;
  oursWarm: number;
  duckWarm: number;
}

/** Everything measured on one store. */
export interface ScaleRow {
  reservoirs: number;
  years: number;
  diskBytes: number;
  files: number;
  manifestBytes: number;
  generatedMs: number;
  openMs: number;
  openRssBytes: number;
  queries: ScaleQueryRow[];
  revision: { records: number; ms: number; bytesWritten: number; filesWritten: number; storeBytes: number };
  serverPeakRssBytes: number | null;
}

export interface ScaleOptions {
  coldRuns: number;
  httpSeconds: number; // autocannon time per query on the server (0: no server)
  dirOf?: (scale: StoreScale) => string; // where each store is kept (default under $TMPDIR)
  log: (line: string) => void;
}

/** Measures every scale in turn (stores made once and reused). */
export async function runScale(scales: readonly StoreScale[], options: ScaleOptions): Promise<ScaleRow[]> {
  const { coldRuns, log } = options;
  const rows: ScaleRow[] = [];
  for (const scale of scales) {
    const store = await ensureStore((options.dirOf ?? scaleStoreDir)(scale), scale, log);
    const years = Number(scale.end.slice(0, 4)) - Number(scale.start.slice(0, 4)) + 1;
    log(
      `scale ${scale.reservoirs} x ${years} years: ${store.files} files, ${(store.diskBytes / 2 ** 30).toFixed(2)} GiB, generated in ${(store.generatedMs / 1000).toFixed(0)} s`,
    );
    const opens = [];
    for (let i = 0; i < coldRuns; i++) opens.push(await child<{ ms: number; rssBytes: number }>(['open', store.dir]));
    const queries: ScaleQueryRow[] = [];
    for (const query of scaleQueries(store.manifest)) queries.push(await measureQuery(store.dir, query, coldRuns, log));
    const revision = await reviseLastDays(store.dir, store.manifest, 65, log);
    const http = scaleQueries(store.manifest).filter((q) => q.http);
    const serverPeakRssBytes = options.httpSeconds > 0 ? await serverUnderLoad(store.dir, http, options.httpSeconds, log) : null;
    const manifestBytes = (await readFile(join(store.dir, 'manifest.json'))).byteLength;
    rows.push({
      reservoirs: scale.reservoirs,
      years,
      diskBytes: store.diskBytes,
      files: store.files,
      manifestBytes,
      generatedMs: store.generatedMs,
      openMs: median(opens.map((o) => o.ms)),
      openRssBytes: median(opens.map((o) => o.rssBytes)),
      queries,
      revision,
      serverPeakRssBytes,
    });
    log(`open ${rows.at(-1)!.openMs.toFixed(0)} ms, ${(rows.at(-1)!.openRssBytes / 1e6).toFixed(0)} MB`);
  }
  return rows;
}

/** Q1, Q3 and Q7 of the main bench, on names and dates every scale holds (its last full year), and Q3 on the last date. */
export function scaleQueries(manifest: Manifest): BenchQuery[] {
  const names = manifest.reservoirs.names;
  const one = names.includes('LAKE MEAD') ? 'LAKE MEAD' : names[0]!;
  const year = manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.year;
  const last = manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.end;
  const all = (datasets: DatasetName[]) => datasets.flatMap((d) => Object.keys(reservoirDatasets[d].variables));
  return [
    {
      id: 'Q1',
      title: `one reservoir, NetE + E_volume, ${year}`,
      format: 'json',
      http: true,
      spec: {
        kind: 'reservoir-range',
        names: [one],
        datasets: ['nete-volume-calcs'],
        variables: ['NetE', 'E_volume'],
        start: `${year}-01-01`,
        end: `${year}-12-31`,
      },
    },
    {
      id: 'Q3',
      title: `all reservoirs on ${year}-07-01, rtma + nete-volume-calcs`,
      format: 'json',
      http: true,
      spec: { kind: 'reservoir-date', datasets: ['rtma', 'nete-volume-calcs'], variables: all(['rtma', 'nete-volume-calcs']), date: `${year}-07-01` },
    },
    {
      id: 'Q7',
      title: `every reservoir, NetE, ${year}`,
      format: 'json',
      http: false,
      spec: {
        kind: 'reservoir-range',
        names: [],
        datasets: ['nete-volume-calcs'],
        variables: ['NetE'],
        start: `${year}-01-01`,
        end: `${year}-12-31`,
        everyName: true,
      },
    }, // names filled in from the store (44,000 of them do not fit a command line)
    {
      id: 'Q3L',
      title: `all reservoirs on ${last} (the last date: the date-major copy), rtma + nete-volume-calcs`,
      format: 'json',
      http: true,
      spec: { kind: 'reservoir-date', datasets: ['rtma', 'nete-volume-calcs'], variables: all(['rtma', 'nete-volume-calcs']), date: last },
    },
  ];
}

async function measureQuery(dir: string, query: BenchQuery, coldRuns: number, log: (line: string) => void): Promise<ScaleQueryRow> {
  const sql = duckdbSql(dir, query.spec, 'json');
  const cold = { ours: [] as number[], duck: [] as number[] };
  let records = 0;
  for (let i = 0; i < coldRuns; i++) {
    const ours = await child<{ ms: number; records: number }>(['ours', dir, JSON.stringify(query.spec)]);
    const duck = await child<{ ms: number }>(['duckdb', dir, sql]);
    cold.ours.push(ours.ms);
    cold.duck.push(duck.ms);
    records = ours.records;
  }
  // warm: one process each, the answer made again and again once the first run has filled what can be cached
  const store = await openStore(dir);
  const duck = await DuckEngine.open();
  const path = join(tmpdir(), `evap-bench-scale-${process.pid}.json`);
  const oursWarm = await repeat(async () => void (await jsonLength(streamOurs(store, query.spec).json())));
  const duckWarm = await repeat(() => duck.copyJson(sql, path));
  duck.close();
  await store.close();
  await rm(path, { force: true });
  const row = { id: query.id, title: query.title, records, oursCold: median(cold.ours), duckCold: median(cold.duck), oursWarm, duckWarm };
  log(
    `${query.id}: cold ours ${row.oursCold.toFixed(1)} ms, duckdb ${row.duckCold.toFixed(1)} ms; warm ours ${oursWarm.toFixed(2)} ms, duckdb ${duckWarm.toFixed(1)} ms (${records} records)`,
  );
  return row;
}

/** Median of runs after one unmeasured run, within about three seconds (at least three runs). */
const repeat = (run: () => Promise<void>) => warmMedian(run, 200, 3000);

/**
 * A revision of the last `days` days of every water body (nete-volume-calcs, every variable) through `evap ingest`, as
 * the public service publishes every day; then a vacuum, so the store holds one snapshot's files again.
 */
export async function reviseLastDays(
  dir: string,
  manifest: Manifest,
  days: number,
  log: (line: string) => void,
  { vacuum = true } = {},
): Promise<ScaleRow['revision']> {
  const variables = Object.keys(reservoirDatasets['nete-volume-calcs'].variables);
  const end = Date.parse(`${manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.end}T00:00:00Z`);
  const dates = Array.from({ length: days }, (_, i) => new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const header = [
    'RES_NAME',
    'start_date',
    'end_date',
    ...variables.map((v) => JSON.stringify(variableKey(v, reservoirDatasets['nete-volume-calcs'].variables[v as 'NetE'].unit, 'metric'))),
  ];
  const lines = [header.join(',')];
  manifest.reservoirs.names.forEach((name, n) => {
    const quoted = /[",\n]/.test(name) ? JSON.stringify(name) : name;
    for (const [d, date] of dates.entries()) lines.push(`${quoted},${date},${date},${variables.map((_, v) => ((n + d + v) % 97) / 10).join(',')}`);
  });
  const file = join(dir, '..', `evap-revision-${manifest.reservoirs.names.length}.csv`);
  await writeFile(file, `${lines.join('\n')}\n`);
  const before = new Set(manifestFiles(manifest).map((f) => f.path));
  const began = performance.now();
  await runNode(['--import', 'tsx', join(repoRoot, 'cli', 'evap.ts'), 'ingest', file, '--store', dir]);
  const ms = performance.now() - began;
  const reopened = await openStore(dir);
  const after = reopened.manifest;
  await reopened.close();
  const written = manifestFiles(after).filter((f) => !before.has(f.path));
  if (vacuum) await vacuumStore(dir, { minAgeMs: 0 });
  const storeBytes = manifestFiles(after).reduce((n, f) => n + f.bytes, 0);
  const revision = { records: lines.length - 1, ms, bytesWritten: written.reduce((n, f) => n + f.bytes, 0), filesWritten: written.length, storeBytes };
  log(
    `revision of ${days} days x ${manifest.reservoirs.names.length} reservoirs: ${(ms / 1000).toFixed(1)} s, ${written.length} files, ${(revision.bytesWritten / 2 ** 20).toFixed(1)} MiB written of ${(storeBytes / 2 ** 20).toFixed(0)} MiB`,
  );
  return revision;
}

/** The server's peak RSS after autocannon drives each HTTP query for some seconds. */
async function serverUnderLoad(dir: string, queries: BenchQuery[], seconds: number, log: (line: string) => void): Promise<number | null> {
  const server = await startServer(dir);
  try {
    for (const q of queries) {
      const row = await drive(server, q, 16, seconds);
      log(`${q.id} http: ${row.requestsPerSecond.toFixed(0)} req/s, ${row.errors} errors`);
    }
    return server.peakRssBytes();
  } finally {
    await server.stop();
  }
}

function child<T>(args: string[]): Promise<T> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'scale-child.ts'), ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
    proc.on('exit', (code) =>
      code === 0 ? done(JSON.parse(out.trim().split('\n').pop()!) as T) : fail(new Error(`${args[0]} exited with ${code}: ${err.trim().slice(-2000)}`)),
    );
  });
}
