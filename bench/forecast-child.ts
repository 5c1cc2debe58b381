// One cold forecast answer in a fresh process: `node --import tsx bench/forecast-child.ts <ours|duckdb|clickhouse> <store> <query>`.
// Prints one JSON line: the time from before opening (the store, or a DuckDB instance) to the answer; chdb's engine
// starts with its first query, which the time includes (its module is loaded before the clock, as DuckDB's is).
import { dirname, resolve } from 'node:path';
import { libraryModule } from './built.js';
import { type ForecastQueryName, forecastQueries } from './forecast-queries.js';

const [engine, given, name] = process.argv.slice(2) as ['ours' | 'duckdb' | 'clickhouse', string, ForecastQueryName];
const dir = resolve(given);
const q = (await forecastQueries(dir)).queries[name]; // before the clock: the SQL names the file the manifest gives
let began: number;
if (engine === 'ours') {
  // the build when it is current, as the warm cells and `import('evap')` run (bench/built.ts): through tsx, the modules
  // a store loads on demand (the lead path's) are compiled after the clock starts
  const { openStore } = (await import(libraryModule('open/store.js'))) as typeof import('../lib/open/store.js');
  began = performance.now();
  const store = await openStore(dir);
  await (store as unknown as Record<string, (o: object) => Promise<unknown[]>>)[q.ours.method]!.call(store, q.ours.options);
} else if (engine === 'clickhouse') {
  const { query } = await import('chdb');
  process.chdir(dirname(dir)); // chdb reads files under its working directory alone
  began = performance.now();
  query(q.clickhouse, 'JSONEachRow');
} else {
  const { DuckEngine } = await import('./duckdb.js');
  began = performance.now();
  const duck = await DuckEngine.open();
  await duck.records(q.sql);
}
process.stdout.write(`${JSON.stringify({ firstMs: performance.now() - began })}\n`);
process.exit(0);
