// One cold answer in a fresh process: `node --import tsx bench/cold-child.ts <ours|duckdb> <store> <job JSON>`.
// Prints one JSON line: the time from before opening (store or DuckDB instance) to the first answer, and its digest.
import { createHash } from 'node:crypto';
import { libraryModule } from './built.js';
import type { QuerySpec } from './queries.js';

interface ColdJob {
  spec: QuerySpec;
  sql: string;
  format: 'json' | 'csv';
}

const [engine, dir, jobText] = process.argv.slice(2);
const job = JSON.parse(jobText!) as ColdJob;
let began: number;
let text: string;
if (engine === 'ours') {
  const { openStore } = (await import(libraryModule('open/store.js'))) as typeof import('../lib/open/store.js'); // the build, when current (built.ts)
  const { answerOurs, serialize } = await import('./queries.js');
  began = performance.now();
  const store = await openStore(dir);
  const answer = await answerOurs(store, job.spec);
  const firstMs = performance.now() - began;
  text = serialize(job.format, answer);
  report(firstMs);
} else {
  const { DuckEngine } = await import('./duckdb.js');
  began = performance.now();
  const duck = await DuckEngine.open();
  const answer = await duck.answer(job.sql, job.format);
  const firstMs = performance.now() - began;
  text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  duck.close();
  report(firstMs);
}

function report(firstMs: number): void {
  const hash = createHash('sha256').update(text).digest('hex');
  process.stdout.write(`${JSON.stringify({ firstMs, digest: hash, uptimeMs: process.uptime() * 1000 })}\n`);
}
