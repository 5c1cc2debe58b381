// Cold answers with and without the file indexes and the date-major copies, beside DuckDB: `npm run bench:cold`
// [-- --scales 247,5000,44000 --runs 5]. For each scale, the bench store (made once) and a twin of it written as before
// (hard links of the same files, a manifest naming no index and no copy) answer Q1 and Q3 in fresh processes and warm;
// a fresh `evap query` is timed from spawn to its first row; a revision shows the bytes the copy adds.
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { type Manifest, manifestFiles } from '../lib/store/manifest.js';
import { DuckEngine } from './duckdb.js';
import { type BenchQuery, duckdbSql, jsonLength, streamOurs } from './queries.js';
import { child, reviseLastDays, scaleQueries } from './scale.js';
import { curveScales, ensureStore, repoRoot, scaleStoreDir } from './store.js';
import { median, warmMedian } from './timing.js';

const { values } = parseArgs({ options: { scales: { type: 'string', default: '247,5000' }, runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
const scales = values.scales!.split(',').map((n) => curveScales.find((s) => s.reservoirs === Number(n))!);
const log = (line: string) => process.stderr.write(`${line}\n`);
const lines: string[] = [
  `Node ${process.version}; compile cache ${'enableCompileCache' in (await import('node:module')).default ? 'available (enabled by the CLI)' : 'not in this Node: the CLI’s call is a no-op'}`,
  '',
  '| store | query | records | before cold | after cold | DuckDB cold | DuckDB/after cold | before warm | after warm | DuckDB warm | DuckDB/after warm |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
const starts: string[] = ['| store | `evap query` before: first row | after: first row | before: exit | after: exit |', '|---|---:|---:|---:|---:|'];
const revisions: string[] = [
  "| store | revision files | revision bytes | of which date-major copy | the copy's months it made again |",
  '|---|---:|---:|---:|---:|',
];

for (const scale of scales) {
  const store = await ensureStore(scaleStoreDir(scale), scale, log);
  const plain = await twin(store.dir, store.manifest, 'plain', true);
  const queries = scaleQueries(store.manifest).filter((q) => q.id !== 'Q7');
  for (const query of queries) {
    const sql = duckdbSql(store.dir, query.spec, 'json');
    const cold = { after: [] as number[], before: [] as number[], duck: [] as number[] };
    let records = 0;
    for (let i = 0; i < runs; i++) {
      const after = await child<{ ms: number; length: number; records: number }>(['ours', store.dir, JSON.stringify(query.spec)]);
      const before = await child<{ ms: number; length: number; records: number }>(['ours', plain, JSON.stringify(query.spec)]);
      const duck = await child<{ ms: number }>(['duckdb', store.dir, sql]);
      if (after.length !== before.length || after.records !== before.records) throw new Error(`${query.id}: the answers with and without the index differ`);
      cold.after.push(after.ms);
      cold.before.push(before.ms);
      cold.duck.push(duck.ms);
      records = after.records;
    }
    const warm = { after: await warmOurs(store.dir, query), before: await warmOurs(plain, query), duck: await warmDuck(sql) };
    const [ca, cb, cd] = [median(cold.after), median(cold.before), median(cold.duck)];
    lines.push(
      `| ${scale.reservoirs} | ${query.id} ${query.title} | ${records} | ${ms(cb)} | ${ms(ca)} | ${ms(cd)} | **${(cd / ca).toFixed(1)}×** | ${ms(warm.before)} | ${ms(warm.after)} | ${ms(warm.duck)} | **${(warm.duck / warm.after).toFixed(1)}×** |`,
    );
    log(lines.at(-1)!);
  }
  const q1 = queries[0]!.spec as Extract<BenchQuery['spec'], { kind: 'reservoir-range' }>;
  const cli = [
    'query',
    '--store',
    '',
    '--names',
    q1.names[0]!,
    '--datasets',
    q1.datasets.join(','),
    '--variables',
    q1.variables.join(','),
    '--start',
    q1.start,
    '--end',
    q1.end,
  ];
  const fresh = { after: [] as { first: number; exit: number }[], before: [] as { first: number; exit: number }[] };
  for (let i = 0; i < runs; i++) {
    fresh.after.push(await firstRow(cli.map((a, k) => (k === 2 ? store.dir : a))));
    fresh.before.push(await firstRow(cli.map((a, k) => (k === 2 ? plain : a))));
  }
  const m = (list: { first: number; exit: number }[], key: 'first' | 'exit') => ms(median(list.map((x) => x[key])));
  starts.push(`| ${scale.reservoirs} | ${m(fresh.before, 'first')} | ${m(fresh.after, 'first')} | ${m(fresh.before, 'exit')} | ${m(fresh.after, 'exit')} |`);
  log(starts.at(-1)!);
  // a revision on a scratch twin (hard links: the bench store is left as it was)
  const scratch = await twin(store.dir, store.manifest, 'revise', false);
  const revision = await reviseLastDays(scratch, store.manifest, 65, log, { vacuum: false });
  const after = JSON.parse(await readFile(join(scratch, 'manifest.json'), 'utf8')) as Manifest;
  // the copy's months this revision made again (the others are the snapshot before's files, kept)
  const kept = new Set((store.manifest.datasets['nete-volume-calcs']!.byDate ?? []).map((f) => f.path));
  const remade = (after.datasets['nete-volume-calcs']!.byDate ?? []).filter((f) => !kept.has(f.path));
  const copyBytes = remade.reduce((n, f) => n + f.bytes + (f.index?.bytes ?? 0), 0);
  const months = remade.map((f) => f.month ?? `${f.start}..${f.end}`);
  revisions.push(
    `| ${scale.reservoirs} | ${revision.filesWritten} | ${mib(revision.bytesWritten)} | ${mib(copyBytes)} (${((100 * copyBytes) / revision.bytesWritten).toFixed(0)}%) | ${remade.length > 0 ? `${remade.reduce((n, f) => n + f.rows, 0)} rows, ${months.join(', ')}` : 'none'} |`,
  );
  log(revisions.at(-1)!);
  await rm(scratch, { recursive: true, force: true });
}
process.stdout.write(`${[...lines, '', ...starts, '', ...revisions].join('\n')}\n`);

/** The same files under another folder (hard links), with a manifest naming no index and no copy when `asBefore`. */
async function twin(dir: string, manifest: Manifest, name: string, asBefore: boolean): Promise<string> {
  const to = join(tmpdir(), `evap-bench-${name}-${manifest.reservoirs.names.length}`);
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  for (const folder of ['reservoirs', 'stations']) await cp(join(dir, folder), join(to, folder), { recursive: true, force: true, verbatimSymlinks: true });
  const m = structuredClone(manifest);
  if (asBefore) {
    for (const d of Object.values(m.datasets)) {
      delete d.byDate;
      for (const p of d.partitions) for (const f of p.files) delete f.index;
    }
    for (const p of Object.values(m.stations.partitions)) delete p.index;
    delete m.stations.byDate;
  }
  await mkdir(join(to, 'snapshots'), { recursive: true });
  const text = JSON.stringify(m);
  await writeFile(join(to, 'snapshots', `${String(m.sequence).padStart(10, '0')}.json`), text);
  await writeFile(join(to, 'manifest.json'), text);
  if (manifestFiles(m).length === 0) throw new Error(`${dir}: an empty store`);
  return to;
}

async function warmOurs(dir: string, query: BenchQuery): Promise<number> {
  const store = await openStore(dir);
  const time = await repeat(async () => void (await jsonLength(streamOurs(store, query.spec).json())));
  await store.close();
  return time;
}

async function warmDuck(sql: string): Promise<number> {
  const duck = await DuckEngine.open();
  const path = join(tmpdir(), `evap-bench-cold-${process.pid}.json`);
  const time = await repeat(() => duck.copyJson(sql, path));
  duck.close();
  await rm(path, { force: true });
  return time;
}

const repeat = (run: () => Promise<unknown>) => warmMedian(run, 100, 2000);

// a fresh `evap query` from the built CLI: spawn to its first byte of output, and to its exit
function firstRow(args: string[]): Promise<{ first: number; exit: number }> {
  const began = performance.now();
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, [join(repoRoot, 'dist', 'cli', 'evap.js'), ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let first = 0;
    let err = '';
    proc.stdout.on('data', () => (first ||= performance.now() - began));
    proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
    proc.on('exit', (code) =>
      code === 0 && first > 0 ? done({ first, exit: performance.now() - began }) : fail(new Error(`evap ${args.join(' ')}: ${code} ${err}`)),
    );
  });
}

function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : value >= 1 ? `${value.toFixed(1)} ms` : `${value.toFixed(2)} ms`;
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
