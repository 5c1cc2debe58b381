// `npx tsx bench/warm.ts [--out FILE]`: only the in-process warm timings of Q1-Q7 (the full bench's store), for before/after comparisons.
import { writeFileSync } from 'node:fs';
import { openStore } from '../lib/open/store.js';
import { DuckEngine } from './duckdb.js';
import { runWarm } from './inprocess.js';
import { defineQueries } from './queries.js';
import { defaultStoreDir, ensureStore, fullScale } from './store.js';

const log = (line: string) => process.stderr.write(`${line}\n`);
const store = await ensureStore(defaultStoreDir(false), fullScale, log);
const opened = await openStore(store.dir);
const duck = await DuckEngine.open();
try {
  const rows = await runWarm(opened, duck, defineQueries(store.manifest), { minRuns: 5, maxRuns: 400, budgetMs: 1500 }, log);
  const out = process.argv[process.argv.indexOf('--out') + 1];
  if (process.argv.includes('--out') && out)
    writeFileSync(out, JSON.stringify(rows.map((r) => ({ id: r.id, ours: r.ours.medianMs, endToEnd: r.endToEnd.medianMs }))));
} finally {
  duck.close();
  await opened.close();
}
