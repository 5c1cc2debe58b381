// One fresh process's fixed cost, split: `node --import tsx bench/open-cost-child.ts <store> [spec [json|csv]]`. Prints
// {startMs, importMs, openMs, answerMs, cpuMs, openBytes, openReads, answerBytes, answerReads, length}: node's start-up up to
// this file (performance.now() at its first line), the library's import, openStore, and (given a query's spec) the
// answer's JSON text. With EVAP_BENCH_PROFILE=<file>, a CPU profile of the import, the open and the answer.

import { startProfile } from './profile-session.js';

const startMs = performance.now();
const [dir, spec, format = 'json'] = process.argv.slice(2) as [string, string | undefined, 'json' | 'csv' | undefined];
const { streamOurs, textLength } = await import('./queries.js'); // the bench's own, untimed
const { libraryModule } = await import('./built.js');
const stop = await startProfile();
let at = performance.now();
const lap = () => {
  const ms = performance.now() - at;
  at = performance.now();
  return ms;
};
const { openStore } = (await import(libraryModule('open/store.js'))) as typeof import('../lib/open/store.js'); // the build, when current
const importMs = lap();
const cpu = process.cpuUsage();
const store = await openStore(dir);
const openMs = lap();
const opened = store.readStats();
let answerMs = 0;
let length = 0;
if (spec) {
  const counted = await textLength(streamOurs(store, JSON.parse(spec))[format](), format);
  answerMs = lap() - counted.countMs; // without the bench's own count of the records
  length = counted.length;
}
const { user, system } = process.cpuUsage(cpu);
const cpuMs = (user + system) / 1000; // open and answer, every thread (the count of the records included)
const answered = store.readStats();
await stop?.();
const out = {
  startMs,
  importMs,
  openMs,
  answerMs,
  cpuMs,
  openBytes: opened.bytesRead,
  openReads: opened.reads,
  answerBytes: answered.bytesRead - opened.bytesRead,
  answerReads: answered.reads - opened.reads,
  length,
};
process.stdout.write(`${JSON.stringify(out)}\n`);
await store.close();
