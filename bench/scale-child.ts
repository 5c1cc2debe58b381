// One measurement in a fresh process, for the scale curve: `node --import tsx bench/scale-child.ts <mode> <store> [job]`.
//   open             open the store; prints {ms, rssBytes}
//   ours <spec>      open the store and make the answer's JSON text; prints {ms, length, records}
//   duckdb <sql>     open DuckDB and write the same answer as a JSON array file; prints {ms, length}
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QuerySpec } from './queries.js';

const [mode, dir, job] = process.argv.slice(2);
// imports first, outside the timing (as bench/cold-child.ts): what is timed is opening and answering
const { openStore } = await import('../lib/store/store.js');
const { jsonLength, streamOurs } = await import('./queries.js');
const { DuckEngine } = await import('./duckdb.js');
const began = performance.now();
if (mode === 'open') {
  await openStore(dir);
  const ms = performance.now() - began;
  print({ ms, rssBytes: process.memoryUsage().rss });
} else if (mode === 'ours') {
  const store = await openStore(dir);
  const { length, records } = await jsonLength(streamOurs(store, JSON.parse(job!) as QuerySpec).json());
  print({ ms: performance.now() - began, length, records });
} else {
  const duck = await DuckEngine.open();
  const path = join(tmpdir(), `evap-scale-${process.pid}.json`);
  await duck.copyJson(job!, path);
  const ms = performance.now() - began;
  const { size } = await stat(path);
  await rm(path, { force: true });
  duck.close();
  print({ ms, length: size });
}

function print(value: object): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
