// One measurement in a fresh process, for the one table: `node --import tsx bench/scale-child.ts <mode> <store> [job] [format]`.
//   open                    open the store; prints {ms, rssBytes}
//   ours <spec> [json|csv]  open the store and make the answer's text (JSON by default); prints {ms, cpuMs, length, records}
//   duckdb <sql> [json|csv] open DuckDB and write the same answer to a file (a JSON array, or CSV); prints {ms, cpuMs, length, records}
//   clickhouse <sql> [json|csv] ClickHouse (chdb) over the store's Iceberg tables writes the answer to a file (FORMAT
//                           JSON, or CSV with a header), as DuckDB does; prints {ms, cpuMs, length, records}
// Each mode imports only what it uses (the library or DuckDB), before the clock starts: what is timed is opening and
// answering, as in bench/cold-child.ts. With EVAP_BENCH_PROFILE=<file>, a CPU profile of the timed part is written there.
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { libraryModule } from './built.js';
import { startProfile } from './profile-session.js';
import type { QuerySpec } from './queries.js';

const [mode, dir, job, format = 'json'] = process.argv.slice(2) as [string, string, string | undefined, 'json' | 'csv' | undefined];
if (mode === 'open' || mode === 'ours') {
  const { openStore } = (await import(libraryModule('open/store.js'))) as typeof import('../lib/open/store.js'); // the build, when current (built.ts)
  const { streamOurs, textLength } = await import('./queries.js');
  const profiler = await startProfile();
  const cpu = process.cpuUsage();
  const began = performance.now();
  const store = await openStore(dir);
  if (mode === 'open') print({ ms: performance.now() - began, rssBytes: process.memoryUsage().rss });
  else {
    const { length, records, countMs } = await textLength(streamOurs(store, JSON.parse(job!) as QuerySpec)[format](), format);
    // the answer's time without the bench's own count of its records (the main thread's, so CPU time as well)
    const ms = performance.now() - began - countMs;
    const cpuMs = cpuSince(cpu) - countMs;
    await profiler?.();
    print({ ms, cpuMs, length, records });
  }
} else if (mode === 'clickhouse') {
  const { clickhouseRecords, clickhouseFile } = await import('./clickhouse.js'); // chdb's library loaded, its engine not yet started
  const path = join(tmpdir(), `evap-scale-ch-${process.pid}.${format}`);
  const cpu = process.cpuUsage();
  const began = performance.now();
  clickhouseFile(dir, job!, format, path);
  const ms = performance.now() - began;
  const cpuMs = cpuSince(cpu);
  const { size } = await stat(path);
  const records = await clickhouseRecords(path, format);
  await rm(path, { force: true });
  print({ ms, cpuMs, length: size, records });
} else {
  const { DuckEngine } = await import('./duckdb.js');
  const cpu = process.cpuUsage();
  const began = performance.now();
  const duck = await DuckEngine.open();
  const path = join(tmpdir(), `evap-scale-${process.pid}.${format}`);
  const records = format === 'csv' ? await duck.copyCsv(job!, path) : await duck.copyJson(job!, path);
  const ms = performance.now() - began;
  const cpuMs = cpuSince(cpu);
  const { size } = await stat(path);
  await rm(path, { force: true });
  duck.close();
  print({ ms, cpuMs, length: size, records });
}

// CPU time of the process since `from` (every thread: zlib's pool, DuckDB's workers), in ms: steadier than wall time on a busy machine
function cpuSince(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
}

function print(value: object): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
