// `npx tsx bench/workers.ts [--duration S] [--store DIR]`: HTTP requests/s of the documented queries Q1, Q2, Q3 and Q5
// with --workers 1 and --workers 2 (autocannon, 16 connections, in a process of its own), and the CPU the server's
// processes took meanwhile (the rest of the machine's went to the load generator and whatever else ran).
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { drive, startServer } from './http.js';
import { defineQueries } from './queries.js';
import { repoRoot } from './store.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, store: { type: 'string' } } });
const store = values.store ?? join(repoRoot, 'data');
const opened = await openStore(store);
const queries = defineQueries(opened.manifest).filter((q) => q.http);
await opened.close();

// CPU seconds (user + system) of a process and its children, from /proc (Linux)
function cpuSeconds(pid: number): number {
  const ticks = (p: number) => {
    const fields = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  };
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...children].reduce((sum, p) => sum + ticks(p), 0) / 100;
}

console.log(
  `${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} before the run; store ${store === join(repoRoot, 'data') ? 'the demo store' : store}`,
);
console.log('| query | workers | requests/s | p50 ms | p99 ms | errors | server CPU (cores) |');
console.log('|---|---|---|---|---|---|---|');
for (const workers of [1, 2]) {
  const server = await startServer(store, ['--workers', String(workers)]);
  try {
    for (const query of queries) {
      const before = cpuSeconds(server.pid);
      const row = await drive(server, query, 16, Number(values.duration));
      const cores = (cpuSeconds(server.pid) - before) / (row.durationS + 2); // drive() warms up for 2 s first
      console.log(
        `| ${query.id} ${query.title} | ${workers} | ${row.requestsPerSecond.toFixed(0)} | ${row.p50Ms} | ${row.p99Ms} | ${row.errors} | ${cores.toFixed(2)} |`,
      );
    }
  } finally {
    await server.stop();
  }
}
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} after the run`,
);
