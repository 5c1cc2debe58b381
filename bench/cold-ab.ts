// Cold answers of two checkouts of this repository side by side, and DuckDB's, on one store: each query's fresh-process
// child (bench/scale-child.ts, as the one table runs it) alternately from checkout A, from checkout B and DuckDB, so the
// load of a shared machine falls on all three alike; medians of wall and CPU time (CPU is steadier under load).
//   npx tsx bench/cold-ab.ts --store DIR --before CHECKOUT [--after CHECKOUT] [--runs 5] [--queries Q3,Q4] [--no-duckdb]
// A checkout is a folder holding the repository's files with node_modules (e.g. `git archive main | tar -x -C DIR` and
// a link to this one's node_modules); --after defaults to this one. The answers' lengths must agree or the run fails.
import { execFile } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { duckdbSql } from './queries.js';
import { tableQueries } from './scale.js';
import { repoRoot } from './store.js';
import { median } from './timing.js';

const { values } = parseArgs({
  options: {
    store: { type: 'string' },
    before: { type: 'string' },
    after: { type: 'string', default: repoRoot },
    runs: { type: 'string', default: '5' },
    queries: { type: 'string' },
    'no-duckdb': { type: 'boolean', default: false },
  },
});
if (!values.store || !values.before) throw new Error('usage: --store DIR --before CHECKOUT [--after CHECKOUT] [--runs N] [--queries Q1,Q3]');
const store = await openStore(values.store);
const wanted = values.queries?.split(',');
const queries = tableQueries(store.manifest).filter((q) => !wanted || wanted.includes(q.id));
await store.close();

interface Run {
  ms: number;
  cpuMs: number;
  length: number;
}
const child = async (checkout: string, args: string[]): Promise<Run> => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', `${checkout}/bench/scale-child.ts`, ...args], {
    cwd: checkout,
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Run;
};
const cell = (runs: Run[]) => (runs.length === 0 ? '–' : `${median(runs.map((r) => r.ms)).toFixed(1)} / ${median(runs.map((r) => r.cpuMs)).toFixed(1)} ms`);

console.log(`| query | before: wall / CPU | after: wall / CPU | DuckDB: wall / CPU | DuckDB/after CPU |\n|---|---:|---:|---:|---:|`);
for (const query of queries) {
  const ours = ['ours', values.store, JSON.stringify(query.spec), query.format];
  const runs = { before: [] as Run[], after: [] as Run[], duck: [] as Run[] };
  for (let i = 0; i < Number(values.runs); i++) {
    runs.before.push(await child(values.before, ours));
    runs.after.push(await child(values.after, ours));
    if (!values['no-duckdb'])
      runs.duck.push(await child(values.after, ['duckdb', values.store, duckdbSql(values.store, query.spec, query.format), query.format]));
  }
  if (runs.before[0]!.length !== runs.after[0]!.length)
    throw new Error(`${query.id}: the answers' lengths differ (${runs.before[0]!.length} and ${runs.after[0]!.length})`);
  const ratio = runs.duck.length ? `${(median(runs.duck.map((r) => r.cpuMs)) / median(runs.after.map((r) => r.cpuMs))).toFixed(2)}×` : '–';
  console.log(`| ${query.id} ${query.title} | ${cell(runs.before)} | ${cell(runs.after)} | ${cell(runs.duck)} | ${ratio} |`);
}
