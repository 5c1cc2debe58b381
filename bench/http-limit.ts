// `npx tsx bench/http-limit.ts [--store DIR] [--duration S] [--rounds N] [--against DIR]`: HTTP Q1 (in the store's
// last year, as the one table asks it) against the socket's limit, a bare node:http server sending the same bytes,
// with the same client (autocannon, 16 connections) in the same run, in rounds that alternate the servers so that a
// loaded machine weighs on each alike. Rows: the server with its cache of answers (a dashboard polling one query),
// without it (--answer-cache-mib 0: every answer made again), and, with --against, another checkout's server with and
// without its cache (before and after a change). Each row also gives the server's CPU time per request (from /proc,
// over the measured run): on a loaded machine a server gets a share of a core, so requests/s follow that cost, which
// the load weighs on less.
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { answerHeaders, checkOverHttp, cpuSecondsOf, drive, type HttpRow, type ServerProcess, startBareServer, startServer } from './http.js';
import { defineQueries, lastYearOf, textOurs } from './queries.js';
import { repoRoot } from './store.js';
import { median } from './timing.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string', default: resolve(repoRoot, 'data') },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '16' },
    against: { type: 'string' },
  },
});
const store = await openStore(values.store);
const q1 = defineQueries(store.manifest, lastYearOf(store.manifest)).find((q) => q.id === 'Q1')!; // as the one table asks it, at any scale
const body = await textOurs(store, q1.spec, 'json'); // what the server must send, byte for byte
await store.close();

// the headers the server sends with it, for the bare server to send the same head as well as the same body
const probe = await startServer(values.store);
const headers = await answerHeaders(probe, q1).finally(() => probe.stop());

const servers: [string, () => Promise<ServerProcess>][] = [
  ['bare node:http, same bytes', () => startBareServer(body, headers)],
  ['evap, answer cache on (default)', () => startServer(values.store!)],
  ['evap, --answer-cache-mib 0', () => startServer(values.store!, ['--answer-cache-mib', '0'])],
];
if (values.against) {
  const root = resolve(values.against);
  servers.push([`evap at ${values.against}`, () => startServer(values.store!, [], root)]);
  servers.push([`evap at ${values.against}, --answer-cache-mib 0`, () => startServer(values.store!, ['--answer-cache-mib', '0'], root)]);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const loadBefore = load();
const rows = new Map<string, (HttpRow & { cpuUs: number | null })[]>(servers.map(([name]) => [name, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [name, start] of servers) {
    const server = await start();
    try {
      if (!name.startsWith('bare')) await checkOverHttp(server, q1, body);
      let cpuBefore: number | null = null;
      const measured = await drive(server, q1, Number(values.connections), Number(values.duration), () => (cpuBefore = cpuSecondsOf(server.pid)));
      const cpuAfter = cpuSecondsOf(server.pid);
      const cpuUs = cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) / measured.requests) * 1e6;
      const row = { ...measured, cpuUs };
      rows.get(name)!.push(row);
      const cpu = cpuUs === null ? '' : `, ${cpuUs.toFixed(0)} us of CPU a request`;
      console.error(`round ${round + 1}: ${name}: ${row.requestsPerSecond.toFixed(0)} req/s, p50 ${row.p50Ms} ms${cpu}, ${row.errors} errors`);
    } finally {
      await server.stop();
    }
  }
}
const bare = median(rows.get(servers[0]![0])!.map((r) => r.requestsPerSecond));
console.log(`Q1 (${q1.title}), ${body.length} bytes of JSON, ${values.connections} connections, ${values.duration} s x ${values.rounds} rounds`);
console.log(`load average (1 / 5 / 15 min) ${loadBefore} before the run, ${load()} after it`);
console.log('| server | requests/s (median of rounds) | of the bare server | server CPU a request (median) | errors |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, list] of rows) {
  const rps = median(list.map((r) => r.requestsPerSecond));
  const cpus = list.flatMap((r) => (r.cpuUs === null ? [] : [r.cpuUs]));
  const cpu = cpus.length > 0 ? `${median(cpus).toFixed(0)} µs` : 'n/a';
  console.log(`| ${name} | ${rps.toFixed(0)} | ${(rps / bare).toFixed(2)}x | ${cpu} | ${list.reduce((n, r) => n + r.errors, 0)} |`);
}
