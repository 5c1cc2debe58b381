// The one table: every query on stores of 247, 5,000 and 44,000 water bodies, cold (a fresh process) and warm, beside DuckDB.
import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reservoirDatasets, variableKey } from '../lib/catalogue.js';
import { openStore } from '../lib/open/store.js';
import { type Manifest, manifestFiles } from '../lib/store/manifest.js';
import { vacuumStore } from '../lib/writer/vacuum.js';
import { clickhouseAnswer, clickhouseFile, clickhouseSql } from './clickhouse.js';
import { assertSameAnswer, MismatchError } from './compare.js';
import { DuckEngine } from './duckdb.js';
import { type AnswerHeaders, answerHeaders, checkOverHttp, drive, driveBare, type HttpRow, startServer } from './http.js';
import { profileChild } from './profile.js';
import { answerOurs, type BenchQuery, defineQueries, duckdbSql, lastYearOf, streamOurs, textLength, textOurs } from './queries.js';
import { ensureStore, repoRoot, runNode, type StoreScale, scaleStoreDir } from './store.js';
import { median, warmMedian } from './timing.js';

/** Cold and warm times of one query on one store, ours and DuckDB's (ms, medians). */
export interface ScaleQueryRow {
  id: string;
  title: string;
  format: 'json' | 'csv';
  records: number;
  oursCold: number;
  duckCold: number;
  oursColdCpu: number; // CPU time of the same cold runs (every thread), steadier than wall time on a busy machine
  duckColdCpu: number;
  oursWarm: number;
  duckWarm: number;
  chCold: number; // ClickHouse (chdb over the store's Iceberg tables); NaN: not run
  chColdCpu: number;
  chWarm: number;
  checked: boolean; // the records (or CSV text) compared equal with DuckDB's and ClickHouse's; false: only the record counts (answers too large to hold twice)
  profile: string[] | null; // where a fresh process of ours spends its time, when its cold answer is behind DuckDB's (with `profile`)
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
  http: HttpRow[]; // each HTTP query driven on the server, and `Q1 bare`: a bare node:http server sending Q1's bytes (none: not run)
  serverPeakRssBytes: number | null;
}

export interface ScaleOptions {
  coldRuns: number;
  httpSeconds: number; // autocannon time per query on the server (0: no server)
  dirOf?: (scale: StoreScale) => string; // where each store is kept (default under $TMPDIR)
  queries?: (manifest: Manifest) => BenchQuery[]; // default: tableQueries
  profile?: boolean; // profile one more fresh process of each query whose cold answer is behind DuckDB's
  coldIds?: readonly string[]; // the queries measured cold (default: every one; the smoke run's: one JSON and one CSV answer)
  warmBudgetMs?: number; // time for each query's warm runs, ours and DuckDB's (default 3000; at least three runs each)
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
    for (let i = 0; i < Math.max(1, coldRuns); i++) opens.push(await child<{ ms: number; rssBytes: number }>(['open', store.dir]));
    const queries: ScaleQueryRow[] = [];
    const defined = (options.queries ?? tableQueries)(store.manifest);
    for (const query of defined) {
      const runs = options.coldIds === undefined || options.coldIds.includes(query.id) ? coldRuns : 0;
      queries.push(await measureQuery(store.dir, query, runs, options.profile ?? false, options.warmBudgetMs ?? WARM_BUDGET_MS, log));
    }
    // the server before the revision: the answers it is checked against are of this snapshot
    const http = options.httpSeconds > 0 ? await serverUnderLoad(store.dir, defined, options.httpSeconds, log) : null;
    const revision = await reviseLastDays(store.dir, store.manifest, 65, log);
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
      http: http?.rows ?? [],
      serverPeakRssBytes: http?.peakRssBytes ?? null,
    });
    log(`open ${rows.at(-1)!.openMs.toFixed(0)} ms, ${(rows.at(-1)!.openRssBytes / 1e6).toFixed(0)} MB`);
  }
  return rows;
}

/** The one table's rows: every query of the main bench (Q1..Q7) in the store's last year, and Q3 on its last date (Q3L). */
export function tableQueries(manifest: Manifest): BenchQuery[] {
  return [...defineQueries(manifest, lastYearOf(manifest)), lastDateQuery(manifest)];
}

/** Q1, Q3 and Q7 of the main bench, on names and dates every scale holds (its last full year), and Q3 on the last date. */
export function scaleQueries(manifest: Manifest): BenchQuery[] {
  const main = defineQueries(manifest, lastYearOf(manifest)).filter((q) => ['Q1', 'Q3', 'Q7'].includes(q.id));
  return [...main, lastDateQuery(manifest)];
}

// Q3 on the store's last date, which the date-major copy holds
function lastDateQuery(manifest: Manifest): BenchQuery {
  const q3 = defineQueries(manifest, lastYearOf(manifest)).find((q) => q.id === 'Q3')!;
  if (q3.spec.kind !== 'reservoir-date') throw new Error('Q3 asks one date');
  const last = manifest.datasets['nete-volume-calcs']!.partitions.at(-1)!.end;
  return {
    ...q3,
    id: 'Q3L',
    title: `all reservoirs on ${last} (the last date: the date-major copy), rtma + nete-volume-calcs`,
    spec: { ...q3.spec, date: last },
  };
}

export async function measureQuery(
  dir: string,
  query: BenchQuery,
  coldRuns: number,
  profile: boolean,
  warmBudgetMs: number,
  log: (line: string) => void,
): Promise<ScaleQueryRow> {
  const repeat = (run: () => Promise<unknown>) => warmMedian(run, 200, warmBudgetMs);
  const { format } = query;
  const sql = duckdbSql(dir, query.spec, format);
  const chSql = clickhouseSql(dir, query.spec);
  const cold = { ours: [] as number[], duck: [] as number[], ch: [] as number[], oursCpu: [] as number[], duckCpu: [] as number[], chCpu: [] as number[] };
  const ours = ['ours', dir, JSON.stringify(query.spec), format];
  let records = -1;
  for (let i = 0; i < coldRuns; i++) {
    const o = await child<{ ms: number; cpuMs: number; records: number }>(ours);
    const d = await child<{ ms: number; cpuMs: number; records: number }>(['duckdb', dir, sql, format]);
    const c = await child<{ ms: number; cpuMs: number; records: number }>(['clickhouse', dir, chSql, format]);
    if (o.records !== d.records) throw new MismatchError(`${query.id} cold: ${o.records} records from the library, ${d.records} from DuckDB`);
    if (o.records !== c.records) throw new MismatchError(`${query.id} cold: ${o.records} records from the library, ${c.records} from ClickHouse`);
    cold.ch.push(c.ms);
    cold.chCpu.push(c.cpuMs);
    cold.ours.push(o.ms);
    cold.duck.push(d.ms);
    cold.oursCpu.push(o.cpuMs);
    cold.duckCpu.push(d.cpuMs);
    records = o.records;
  }
  // warm: one process each, the answer made again and again once the first run has filled what can be cached
  const store = await openStore(dir);
  const duck = await DuckEngine.open();
  const path = join(tmpdir(), `evap-bench-scale-${process.pid}.${format}`);
  let checked = false;
  let oursWarm: number;
  let duckWarm: number;
  let chWarm: number;
  try {
    const counted = await textLength(streamOurs(store, query.spec)[format](), format);
    if (records >= 0 && counted.records !== records) throw new MismatchError(`${query.id}: ${counted.records} records warm, ${records} cold`);
    records = counted.records;
    if (records <= CHECKED_RECORDS) {
      // the same records (or CSV text) as DuckDB's, as the main bench checks them
      const answer = (await answerOurs(store, query.spec)).records;
      assertSameAnswer(query.id, format === 'csv' ? await textOurs(store, query.spec, 'csv') : answer, await duck.answer(sql, format));
      // ClickHouse's records (its CSV writer quotes text, so a CSV answer is compared as records)
      assertSameAnswer(`${query.id} (ClickHouse)`, answer, clickhouseAnswer(dir, chSql));
      checked = true;
    }
    // the text made and let go, as DuckDB's COPY makes its file: its records were counted once above, not in every
    // timed run (a scan of the text for "start_date" was a quarter of warm Q3 at 44,000)
    oursWarm = await repeat(async () => void (await drain(streamOurs(store, query.spec)[format]())));
    duckWarm = await repeat(() => (format === 'csv' ? duck.copyCsv(sql, path) : duck.copyJson(sql, path)));
    chWarm = await repeat(async () => clickhouseFile(dir, chSql, format, path));
  } finally {
    duck.close();
    await store.close();
    await rm(path, { force: true });
  }
  const oursCold = coldRuns > 0 ? median(cold.ours) : Number.NaN;
  const duckCold = coldRuns > 0 ? median(cold.duck) : Number.NaN;
  const [oursColdCpu, duckColdCpu] = coldRuns > 0 ? [median(cold.oursCpu), median(cold.duckCpu)] : [Number.NaN, Number.NaN];
  const [chCold, chColdCpu] = coldRuns > 0 ? [median(cold.ch), median(cold.chCpu)] : [Number.NaN, Number.NaN];
  const behind = oursCold > duckCold || oursCold > chCold;
  const row = {
    id: query.id,
    title: query.title,
    format,
    records,
    oursCold,
    duckCold,
    oursColdCpu,
    duckColdCpu,
    oursWarm,
    duckWarm,
    chCold,
    chColdCpu,
    chWarm,
    checked,
    profile: profile && behind ? await profileChild(ours) : null,
  };
  log(
    `${query.id}: ${coldRuns > 0 ? `cold ours ${row.oursCold.toFixed(1)} ms, duckdb ${row.duckCold.toFixed(1)} ms, clickhouse ${chCold.toFixed(1)} ms` : 'cold not run'}; warm ours ${oursWarm.toFixed(2)} ms, duckdb ${duckWarm.toFixed(1)} ms, clickhouse ${chWarm.toFixed(1)} ms (${records} records${checked ? ', equal to DuckDB and ClickHouse' : ''})`,
  );
  for (const line of row.profile ?? []) log(`  ${line}`);
  return row;
}

async function drain(chunks: AsyncIterable<string>): Promise<number> {
  let length = 0;
  for await (const chunk of chunks) length += chunk.length;
  return length;
}

/** Answers of at most this many records are compared with DuckDB's record by record (Q7 at 5,000 and 44,000 is millions). */
const CHECKED_RECORDS = 200_000;

/** Each query's warm runs: the median of runs after one unmeasured run, within about three seconds (at least three, at most 200). */
const WARM_BUDGET_MS = 3000;

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
    // values of this snapshot's number: each run revises the days to new values (the same values again change no row)
    const shift = manifest.sequence;
    for (const [d, date] of dates.entries()) lines.push(`${quoted},${date},${date},${variables.map((_, v) => ((n + d + v + shift) % 97) / 10).join(',')}`);
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

/**
 * The server under autocannon: each HTTP query for some seconds (its body checked equal to the library's text first),
 * then a bare node:http server sending Q1's bytes and headers with the same client (row `Q1 bare`); and the server's peak RSS.
 */
async function serverUnderLoad(
  dir: string,
  queries: BenchQuery[],
  seconds: number,
  log: (line: string) => void,
): Promise<{ rows: HttpRow[]; peakRssBytes: number | null }> {
  const driven = queries.filter((q) => q.http);
  const opened = await openStore(dir);
  const texts = new Map<string, string>();
  for (const q of driven) texts.set(q.id, await textOurs(opened, q.spec, q.format));
  await opened.close();
  const server = await startServer(dir);
  const rows: HttpRow[] = [];
  let peakRssBytes: number | null;
  const q1 = driven.find((q) => q.id === 'Q1');
  let q1Headers: AnswerHeaders | undefined;
  try {
    for (const q of driven) {
      await checkOverHttp(server, q, texts.get(q.id)!);
      const row = await drive(server, q, 16, seconds);
      log(`${q.id} http: ${row.requestsPerSecond.toFixed(0)} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, ${row.errors} errors`);
      rows.push(row);
    }
    for (const q of driven) await checkOverHttp(server, q, texts.get(q.id)!); // once more, under a filled cache
    if (q1) q1Headers = await answerHeaders(server, q1);
    peakRssBytes = server.peakRssBytes();
  } finally {
    await server.stop();
  }
  if (q1) rows.splice(1, 0, await driveBare(texts.get('Q1')!, q1Headers!, q1, 16, seconds, log));
  return { rows, peakRssBytes };
}

export function child<T>(args: string[], script = 'scale-child.ts'): Promise<T> {
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', script), ...args], {
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
