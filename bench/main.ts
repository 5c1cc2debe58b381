// The whole bench as one function: store, in-process warm and cold, HTTP, then RESULTS.md.
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { openStore } from '../lib/store/store.js';
import { type ColdRow, runCold } from './cold.js';
import { DuckEngine } from './duckdb.js';
import { checkOverHttp, drive, driveBare, type HttpRow, startServer } from './http.js';
import { runWarm } from './inprocess.js';
import { defineQueries } from './queries.js';
import { type BenchResults, renderResults } from './report.js';
import { runScale, type ScaleRow } from './scale.js';
import { renderChart, renderScale } from './scale-report.js';
import { ensureStore, fullScale, type StoreScale, smokeScale } from './store.js';

export interface BenchOptions {
  smoke: boolean;
  store: string;
  results: string | null; // where RESULTS.md goes; null: nowhere
  http: boolean;
  httpDurationS: number;
  connections: number;
  coldRuns: number;
  scales: readonly StoreScale[]; // the scale curve's stores (none: skip it)
  command: string;
  log: (line: string) => void;
}

/** Runs everything; throws MismatchError when the engines disagree on any query. */
export async function runBench(options: BenchOptions): Promise<BenchResults & { scale: ScaleRow[] }> {
  const began = performance.now();
  const loadBefore = loadavg();
  const { log } = options;
  const store = await ensureStore(options.store, options.smoke ? smokeScale : fullScale, log);
  log(
    `store ${store.dir}: ${(store.diskBytes / 2 ** 20).toFixed(0)} MiB on disk in ${store.files} Parquet files; generated in ${(store.generatedMs / 1000).toFixed(1)} s${store.reused ? ' (reused)' : ''}`,
  );
  const queries = defineQueries(store.manifest);

  const opened = await openStore(store.dir);
  const duck = await DuckEngine.open();
  const repeat = options.smoke ? { minRuns: 1, maxRuns: 1, budgetMs: 0 } : { minRuns: 5, maxRuns: 400, budgetMs: 1500 };
  let warm;
  try {
    warm = await runWarm(opened, duck, queries, repeat, log);
  } finally {
    duck.close();
    await opened.close(); // its lease would keep the snapshot that the scale run's revision replaces
  }

  const cold: ColdRow[] = [];
  for (const q of queries.filter((q) => q.id === 'Q1')) {
    const row = await runCold(store.dir, q, warm.find((w) => w.id === q.id)!.digest, options.coldRuns);
    log(`${q.id} cold: ours ${row.ours.firstMs.toFixed(0)} ms, duckdb ${row.duckdb.firstMs.toFixed(0)} ms (first answer, median of ${row.ours.runs})`);
    cold.push(row);
  }

  const http: HttpRow[] = [];
  let serverPeakRssBytes: number | null = null;
  if (options.http) {
    const server = await startServer(store.dir);
    try {
      for (const q of queries) await checkOverHttp(server, q, warm.find((w) => w.id === q.id)!.text);
      for (const q of queries.filter((q) => q.http)) {
        await drive(server, q, options.connections, 1); // warm-up, not counted
        const row = await drive(server, q, options.connections, options.httpDurationS);
        log(`${q.id} http: ${row.requestsPerSecond.toFixed(0)} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, ${row.errors} errors`);
        http.push(row);
        if (q.id === 'Q1') http.push(await driveBare(warm.find((w) => w.id === q.id)!.text, q, options.connections, options.httpDurationS, log));
      }
      for (const q of queries) await checkOverHttp(server, q, warm.find((w) => w.id === q.id)!.text); // every query once more under a filled cache
      serverPeakRssBytes = server.peakRssBytes();
      if (serverPeakRssBytes !== null) log(`server peak RSS ${(serverPeakRssBytes / 1e6).toFixed(0)} MB`);
    } finally {
      await server.stop();
    }
  }

  const results: BenchResults = {
    date: new Date().toISOString(),
    command: options.command,
    smoke: options.smoke,
    store,
    warm,
    cold,
    http,
    httpDurationS: options.httpDurationS,
    connections: options.connections,
    serverPeakRssBytes,
    totalSeconds: (performance.now() - began) / 1000,
    loadBefore,
  };
  const scale = options.scales.length > 0 ? await runScale(options.scales, { coldRuns: options.coldRuns, httpSeconds: options.http ? 5 : 0, log }) : [];
  if (options.results) {
    const chart = join(dirname(options.results), 'scale.svg');
    if (scale.length > 0) await writeFile(chart, renderChart(scale));
    await writeFile(options.results, renderResults(results) + (scale.length > 0 ? `\n${renderScale(scale, basename(chart))}` : ''));
  }
  return { ...results, scale };
}
