// The whole bench as one function: the one table (every query at every scale, cold and warm, beside DuckDB; HTTP with
// the bare server's row), the main store's in-process details, then RESULTS.md.
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { openStore } from '../lib/open/store.js';
import { DuckEngine } from './duckdb.js';
import { runWarm } from './inprocess.js';
import { defineQueries } from './queries.js';
import { type BenchResults, renderResults } from './report.js';
import { runScale, type ScaleRow } from './scale.js';
import { renderChart, renderHttp, renderStores, renderTable, scaleTargets, type TableColumn } from './scale-report.js';
import { ensureStore, fullScale, type StoreScale, scaleStoreDir, smokeScale } from './store.js';

export interface BenchOptions {
  smoke: boolean;
  store: string; // the main store (247 water bodies, or the smoke run's tiny one)
  results: string | null; // where RESULTS.md goes; null: nowhere
  http: boolean;
  httpDurationS: number;
  connections: number;
  coldRuns: number;
  scales: readonly StoreScale[]; // the scales measured for the one table (the main store's among them, or none)
  columns?: readonly StoreScale[]; // the table's columns (default: the scales); one not measured shows "not run"
  profile?: boolean; // a CPU profile of each cold answer behind DuckDB's, under the table
  command: string;
  log: (line: string) => void;
}

/** Runs everything; throws MismatchError when the engines disagree on any query. */
export async function runBench(options: BenchOptions): Promise<BenchResults & { scale: ScaleRow[] }> {
  const began = performance.now();
  const loadBefore = loadavg();
  const { log } = options;
  const mainScale = options.smoke ? smokeScale : fullScale;
  const store = await ensureStore(options.store, mainScale, log);
  log(
    `store ${store.dir}: ${(store.diskBytes / 2 ** 20).toFixed(0)} MiB on disk in ${store.files} Parquet files; generated in ${(store.generatedMs / 1000).toFixed(1)} s${store.reused ? ' (reused)' : ''}`,
  );

  // in process on the main store: the records against DuckDB's records, and the text against its serialization floor
  const opened = await openStore(store.dir);
  const duck = await DuckEngine.open();
  const repeat = options.smoke ? { minRuns: 1, maxRuns: 1, budgetMs: 0 } : { minRuns: 5, maxRuns: 400, budgetMs: 1500 };
  let warm;
  try {
    warm = await runWarm(opened, duck, defineQueries(store.manifest), repeat, log);
  } finally {
    duck.close();
    await opened.close(); // its lease would keep the snapshot that the scale run's revision replaces
  }

  // the one table: every scale in turn (the main store where it is one of them), then its revision
  const scale =
    options.scales.length > 0
      ? await runScale(options.scales, {
          coldRuns: options.coldRuns,
          httpSeconds: options.http ? options.httpDurationS : 0,
          dirOf: (s) => (s === mainScale ? options.store : scaleStoreDir(s)),
          profile: options.profile ?? false,
          coldIds: options.smoke ? ['Q1', 'Q4'] : undefined, // one JSON and one CSV answer: the smoke run stays short
          warmBudgetMs: options.smoke ? 0 : undefined, // the smoke run: three warm runs of each, not three seconds
          log,
        })
      : [];

  const results: BenchResults = {
    date: new Date().toISOString(),
    command: options.command,
    smoke: options.smoke,
    store,
    warm,
    cold: [],
    http: [],
    httpDurationS: options.httpDurationS,
    connections: options.connections,
    serverPeakRssBytes: null,
    totalSeconds: (performance.now() - began) / 1000,
    loadBefore,
    table: scale.length > 0 ? renderOneTable(scale, options) : undefined,
  };
  if (options.results) {
    const chart = join(dirname(options.results), 'scale.svg');
    if (scale.length > 0 && !options.smoke) await writeFile(chart, renderChart(scale));
    const kept = await keptSections(options.results);
    await writeFile(options.results, `${renderResults(results)}${scale.length > 0 ? `\n${renderStores(scale, basename(chart))}` : ''}\n${kept}`);
  }
  return { ...results, scale };
}

// the table, the HTTP table and the targets, as RESULTS.md has them first
function renderOneTable(scale: ScaleRow[], options: BenchOptions): string {
  const columns: TableColumn[] = (options.columns ?? options.scales).map((s) => ({
    reservoirs: s.reservoirs,
    years: Number(s.end.slice(0, 4)) - Number(s.start.slice(0, 4)) + 1,
  }));
  const targets = scaleTargets(scale);
  const missed = targets.filter((t) => !t.met);
  return [
    '## Every query at every scale, beside DuckDB and ClickHouse',
    '',
    `Cells: ours / DuckDB's / ClickHouse's, then **DuckDB/ours** · **ClickHouse/ours** (above 1: ours is faster), marked **missed** under the target. Cold: a fresh process per run opens the store (or a DuckDB instance) and makes the whole answer's text (ours: JSON or CSV straight from the columns, as the server sends it; DuckDB: \`COPY ... TO\` a JSON array or CSV file of the same SQL over the same Parquet files), after its imports; median of ${options.coldRuns}; files in the OS page cache; in brackets the CPU time of the same runs (every thread: zlib's, the garbage collector's, DuckDB's workers), which a busy machine stretches far less than wall time. Warm: the same answer again in one process, median of repeated runs after one, each engine's runs after a full garbage collection (the bench's own garbage, such as the records just compared, is nobody's cost). Each store's last full year; Q3L is Q3 on the store's last date (within the date-major copy).`,
    '',
    renderTable(scale, columns).trimEnd(),
    '',
    renderHttp(scale, columns, options.httpDurationS, options.connections).trimEnd(),
    '',
    `Targets met: ${targets.length - missed.length} of ${targets.length}.${missed.length > 0 ? ` Missed: ${missed.map((t) => `${t.target} (${t.figure})`).join('; ')}.` : ''}`,
    '',
  ].join('\n');
}

/** The line after which RESULTS.md holds other benches' sections (bench:floor, bench:cold), which this bench keeps. */
export const KEPT_SECTIONS = "<!-- Below: other benches' sections (npm run bench:floor, npm run bench:cold), kept as they are by npm run bench -->";

// the marker and what follows it in the results file as it is (the marker alone when there is none yet)
async function keptSections(path: string): Promise<string> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch {
    // no file yet
  }
  const at = text.indexOf(KEPT_SECTIONS);
  return at >= 0 ? text.slice(at) : `${KEPT_SECTIONS}\n`;
}
