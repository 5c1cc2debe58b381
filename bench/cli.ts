// `evap query` from a fresh process against a fresh node process answering the same query with DuckDB:
// process time from spawn to exit, the CSV checked equal. `npx tsx bench/cli.ts [--store DIR] [--runs 7]`.
// Needs the build (npm run build): the CLI runs as a user runs it, from dist/, with no loader.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { duckdbSetup, duckdbSql, type QuerySpec } from './queries.js';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { store: { type: 'string' }, runs: { type: 'string', default: '7' } } });
const store = resolve(values.store ?? join(root, 'data'));
const runs = Number(values.runs);
if (!existsSync(join(root, 'dist/cli/evap.js'))) throw new Error('build first: npm run build');

// the issue's example: two reservoirs, one dataset, two variables, a year
const spec: QuerySpec = {
  kind: 'reservoir-range',
  names: ['LAKE MEAD', 'LAKE POWELL'],
  datasets: ['nete-volume-calcs'],
  variables: ['NetE', 'E_volume'],
  start: '2020-01-01',
  end: '2020-12-31',
};
const ours = [
  'dist/cli/evap.js',
  'query',
  '--store',
  store,
  '--names',
  spec.names.join(','),
  '--datasets',
  'nete-volume-calcs',
  '--variables',
  'NetE,E_volume',
  '--start',
  spec.start,
  '--end',
  spec.end,
  '--format',
  'csv',
];
// DuckDB's side: open an in-memory instance, run the same query over the same files, print CSV (its own writer)
const duckScript = `
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync, rmSync } from 'node:fs';
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
for (const sql of ${JSON.stringify(duckdbSetup)}) await connection.run(sql);
const path = ${JSON.stringify(join(tmpdir(), `evap-bench-cli-${process.pid}.csv`))};
await connection.run(\`copy (${duckdbSql(store, spec, 'csv').replaceAll('`', '\\`')}) to '\${path}' (format csv, header true)\`);
process.stdout.write(readFileSync(path, 'utf8'));
rmSync(path);
`;
const duck = ['--input-type=module', '-e', duckScript];
const bare = ['-e', ''];

function time(args: string[]): Promise<{ ms: number; out: string }> {
  return new Promise((done, fail) => {
    const began = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', (code) =>
      code === 0 ? done({ ms: performance.now() - began, out }) : fail(new Error(`${args.slice(0, 2).join(' ')} exited with ${code}`)),
    );
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const times = { ours: [] as number[], duckdb: [] as number[], node: [] as number[] };
for (let i = 0; i < runs; i++) {
  const a = await time(ours);
  const b = await time(duck);
  const c = await time(bare);
  if (a.out !== b.out) throw new Error(`the answers differ:\n${a.out.slice(0, 300)}\n---\n${b.out.slice(0, 300)}`);
  times.ours.push(a.ms);
  times.duckdb.push(b.ms);
  times.node.push(c.ms);
}
const [o, d, n] = [median(times.ours), median(times.duckdb), median(times.node)];
console.log(
  `evap query, first answer from a fresh process (median of ${runs}, ${times.ours.length} equal CSV answers of ${spec.names.join(' + ')} over ${spec.start.slice(0, 4)}):`,
);
console.log(
  `  evap query ${o.toFixed(0)} ms, node + @duckdb/node-api ${d.toFixed(0)} ms, bare node ${n.toFixed(0)} ms; ratio ${(o / d).toFixed(2)} (target at most 2)`,
);
