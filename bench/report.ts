// bench/RESULTS.md: the machine, the commands, the tables and the targets of issue 5, from one run.

import { readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { libraryFormText } from './built.js';
import type { ColdRow } from './cold.js';
import type { HttpRow } from './http.js';
import { ms, type WarmRow } from './inprocess.js';
import type { BenchStore } from './store.js';

export interface BenchResults {
  date: string;
  command: string;
  smoke: boolean;
  store: BenchStore;
  warm: WarmRow[];
  cold: ColdRow[];
  http: HttpRow[];
  httpDurationS: number;
  connections: number;
  serverPeakRssBytes: number | null;
  totalSeconds: number;
  loadBefore: number[]; // 1, 5 and 15 minute load averages when the run began (other work on the machine skews timings)
  table?: string; // the one table of every query at every scale (Markdown), shown first
}

/** CPU model, cores, RAM, OS and node version. */
export function machine(): string {
  let model = cpus()[0]?.model ?? 'unknown CPU';
  try {
    model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? model;
  } catch {
    // not Linux: os.cpus() it is
  }
  return `${model}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${process.platform} ${process.arch}, node ${process.version}`;
}

interface Target {
  what: string;
  met: boolean;
  figure: string;
}

/** Each target of issue 5 with the figure that decides it. */
export function targets(r: BenchResults): Target[] {
  const out: Target[] = [];
  const warmFloor: Record<string, number> = { Q1: 20, Q2: 20, Q5: 20, Q3: 5, Q6: 5, Q7: 5, Q4: 3 };
  for (const w of r.warm) {
    const ratio = w.duckdb.medianMs / w.ours.medianMs;
    out.push({ what: `${w.id} warm: at least ${warmFloor[w.id]}x faster than DuckDB`, met: ratio >= warmFloor[w.id]!, figure: `x${ratio.toFixed(1)}` });
  }
  for (const c of r.cold) {
    out.push({
      what: `${c.id} cold: open + first answer faster than DuckDB's first answer`,
      met: c.ours.firstMs < c.duckdb.firstMs,
      figure: `${ms(c.ours.firstMs)} vs ${ms(c.duckdb.firstMs)}`,
    });
  }
  for (const w of r.warm) {
    const ratio = w.endToEnd.medianMs / w.floor.medianMs;
    out.push({ what: `${w.id} end to end at most 2x the serialization floor`, met: ratio <= 2, figure: `x${ratio.toFixed(2)}` });
  }
  if (r.http.length > 0) {
    const errors = r.http.reduce((n, h) => n + h.errors, 0);
    out.push({ what: 'HTTP: zero errors', met: errors === 0, figure: `${errors} errors` });
    const q1 = r.http.find((h) => h.id === 'Q1');
    if (q1) out.push({ what: 'HTTP: Q1 at least 3,000 requests/s', met: q1.requestsPerSecond >= 3000, figure: `${q1.requestsPerSecond.toFixed(0)} req/s` });
    const bare = r.http.find((h) => h.id === 'Q1 bare');
    if (q1 && bare) {
      const ratio = q1.requestsPerSecond / bare.requestsPerSecond;
      out.push({ what: 'HTTP: Q1 at least 0.9x a bare node:http server sending the same bytes', met: ratio >= 0.9, figure: `${ratio.toFixed(2)}x` });
    }
    if (r.serverPeakRssBytes !== null) {
      out.push({
        what: 'HTTP: server peak RSS under 600 MB with every query run',
        met: r.serverPeakRssBytes < 600e6,
        figure: `${(r.serverPeakRssBytes / 1e6).toFixed(0)} MB`,
      });
    }
  }
  return out;
}

/** The Markdown of RESULTS.md. */
export function renderResults(r: BenchResults): string {
  const s = r.store;
  const lines: string[] = [];
  lines.push(`# Benchmark results${r.smoke ? ' (smoke run: tiny store, one iteration; not figures)' : ''}`, '');
  lines.push(`Written by \`${r.command}\` on ${r.date} in ${r.totalSeconds.toFixed(0)} s.`, '');
  lines.push(`- Machine: ${machine()}`);
  lines.push(
    `- Load average (1/5/15 min) at the start: ${r.loadBefore.map((l) => l.toFixed(2)).join(' / ')}; at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}`,
  );
  lines.push(
    `- Store: ${s.dir.replace(tmpdir(), '$TMPDIR')} — ${s.manifest.reservoirs.names.length} reservoirs × ${Object.keys(s.manifest.datasets).length} datasets, ${s.manifest.stations.names.length} stations; ${s.files} Parquet files, ${(s.diskBytes / 2 ** 20).toFixed(0)} MiB on disk, row groups of ${s.manifest.rowGroupSize} rows; generated in ${(s.generatedMs / 1000).toFixed(0)} s${s.reused ? ' (reused)' : ''}`,
  );
  lines.push(
    `- Library measured: ${libraryFormText()}`,
    `- DuckDB: @duckdb/node-api, in-memory instance, default settings, \`read_parquet\` with \`hive_partitioning\` over the same files (year pruned through the partition column)`,
  );
  if (r.table) lines.push('', r.table.trimEnd());
  lines.push('', `## In-process on the ${s.manifest.reservoirs.names.length}-reservoir store, warm (median of repeated runs, caches filled)`, '');
  lines.push(
    'Ours: the library call producing the records (Q4: the CSV text). DuckDB: the same SQL answer as JS records (`getRowObjectsJson`; Q4: `COPY ... TO` CSV read back). End to end: the text of the answer as the server makes it (JSON or CSV straight from the columns with `RecordStream.json()` / `csv()`, checked equal to `JSON.stringify` / `recordsToCsv` of the records). Floor: only `JSON.stringify` / `recordsToCsv` of the records already built.',
    '',
  );
  lines.push('| query | records | answer | ours | DuckDB | DuckDB/ours | end to end | floor | e2e/floor | runs |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const w of r.warm) {
    lines.push(
      `| ${w.id} ${w.title} | ${w.records} | ${kib(w.bytes)} | ${ms(w.ours.medianMs)} | ${ms(w.duckdb.medianMs)} | **${(w.duckdb.medianMs / w.ours.medianMs).toFixed(1)}×** | ${ms(w.endToEnd.medianMs)} | ${ms(w.floor.medianMs)} | **${(w.endToEnd.medianMs / w.floor.medianMs).toFixed(2)}×** | ${w.ours.runs}/${w.duckdb.runs} |`,
    );
  }
  if (r.cold.length > 0) {
    lines.push('', '## Cold (a fresh process per run, files in the OS page cache)', '');
    lines.push(
      'First answer: from before `openStore` (or `DuckDBInstance.create`) to the first answer, after the imports. Process: spawn to exit, node and tsx start-up included.',
      '',
    );
    lines.push('| query | ours first answer | DuckDB first answer | DuckDB/ours | ours process | DuckDB process | runs |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const c of r.cold) {
      lines.push(
        `| ${c.id} | ${ms(c.ours.firstMs)} | ${ms(c.duckdb.firstMs)} | **${(c.duckdb.firstMs / c.ours.firstMs).toFixed(1)}×** | ${ms(c.ours.processMs)} | ${ms(c.duckdb.processMs)} | ${c.ours.runs} |`,
      );
    }
  }
  if (r.http.length > 0) {
    lines.push('', `## HTTP (autocannon, ${r.connections} connections, ${r.httpDurationS} s per query, JSON without gzip)`, '');
    lines.push('| query | requests/s | p50 | p99 | requests | errors |');
    lines.push('|---|---:|---:|---:|---:|---:|');
    for (const h of r.http) lines.push(`| ${h.id} | ${h.requestsPerSecond.toFixed(0)} | ${h.p50Ms} ms | ${h.p99Ms} ms | ${h.requests} | ${h.errors} |`);
    lines.push(
      '',
      "`Q1 bare`: a bare node:http server (bench/bare-server.ts) sending Q1's answer, prebuilt, to every request: the socket's limit, driven by the same client in the same run. The server answers a repeated query from its cache of recent answers (`--answer-cache-mib`); `npx tsx bench/http-limit.ts` also measures it without.",
    );
    lines.push(
      '',
      `Server peak RSS (VmHWM) after all of the above and one request of every other query: ${r.serverPeakRssBytes === null ? 'n/a' : `${(r.serverPeakRssBytes / 1e6).toFixed(0)} MB`}.`,
    );
  }
  lines.push('', '## Targets of issue 5', '');
  lines.push('| target | figure | met |', '|---|---:|:---:|');
  for (const t of targets(r)) lines.push(`| ${t.what} | ${t.figure} | ${t.met ? 'yes' : '**no**'} |`);
  lines.push('', '## Commands', '');
  lines.push(
    '```sh',
    'npm ci',
    'npm run bench                          # 247, 5,000 and 44,000 water bodies; stores made once under $TMPDIR',
    'npm run bench -- --scales 247,5000     # only these scales (the others: "not run")',
    'npm run bench -- --store DIR           # the 247 store in another folder',
    'npm run bench -- --smoke               # tiny store, one cold run, no HTTP',
    '```',
    '',
  );
  lines.push(
    "Every query's records are checked equal between the library and DuckDB (same keys, 4-decimal values, order; Q4 the same CSV text), in process and in the one table, and over HTTP (the body equal to the library's text); any difference fails the run.",
    '',
  );
  return lines.join('\n');
}

const kib = (bytes: number) => (bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`);
