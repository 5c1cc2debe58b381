// OGC items pages of a daily collection (nete-volume-calcs, limit=10) through the handler, cold (a fresh process per
// run: open the store, answer one page) and warm (repeated in one process), at the first page, the middle and the
// last, with the rows the store decoded for the page: a page should cost a page, whatever the store's size.
//   npx tsx bench/ogc-items.ts -- [--reservoirs 247] [--runs 5] [--dir DIR]
// The store is generated once (2022 to 2025, as the scale curve's 5,000 water bodies) and reused.
//
// Last results (2 cores; median ms; rows decoded: a row per column chunk's row, store.readStats().rowsDecoded):
//   247 reservoirs, 360,867 rows (a file a year), 5 runs   5,000 reservoirs, 7,305,000 rows (files a month), 3 runs
//   page    cold ms  rows decoded  warm ms                  cold ms  rows decoded  warm ms
//   first      73.7        40,960      4.4                    146.3        40,960     13.6
//   middle     75.0        90,112      5.0                    537.6     1,073,152    124.7
//   last       73.6        90,327      3.1                    535.6       542,392     88.1
//   before (the whole answer read for any page), 247: first 330 ms cold / 31.4 warm, middle 317 / 30.1, last 330 / 32.5
// Past the first page the cost grows with the files in the range (one or two row groups' dates and names each, to
// count where the page starts), and the warm time with the row groups (statistics compared per probe).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../lib/open/store.js';
import { generateStore } from '../lib/synthetic/generate.js';
import { createHandler, fetchFrom } from '../server/app.js';
import { KeyRing } from '../server/keys/auth.js';
import { repoRoot } from './store.js';
import { median, warmMedian } from './timing.js';

const { values } = parseArgs({
  options: {
    reservoirs: { type: 'string', default: '247' },
    runs: { type: 'string', default: '5' },
    dir: { type: 'string' },
    child: { type: 'string' }, // a cold run: the path to ask
  },
});
const reservoirs = Number(values.reservoirs);
const dir = values.dir ?? join(tmpdir(), `evap-bench-ogc-${reservoirs}`);
const KEY = 'bench';

// one page through the handler: its time and the rows the store decoded for it
async function answer(path: string, store?: Awaited<ReturnType<typeof openStore>>) {
  const opened = store ?? (await openStore(dir));
  const fetch = fetchFrom(createHandler({ store: opened, keys: KeyRing.fromKeys([KEY]) }));
  const before = (opened.readStats() as { rowsDecoded?: number }).rowsDecoded ?? Number.NaN;
  const began = performance.now();
  const response = await fetch(path, { headers: { 'api-key': KEY } });
  const body = (await response.json()) as { numberMatched: number; numberReturned: number };
  const ms = performance.now() - began;
  if (response.status !== 200 || body.numberReturned !== 10) throw new Error(`${path}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  const rows = ((opened.readStats() as { rowsDecoded?: number }).rowsDecoded ?? Number.NaN) - before;
  return { ms, rows, matched: body.numberMatched, store: opened };
}

if (values.child !== undefined) {
  const began = performance.now();
  const { rows, matched } = await answer(values.child);
  process.stdout.write(JSON.stringify({ firstMs: performance.now() - began, rows, matched }));
  process.exit(0);
}

if (!existsSync(join(dir, 'manifest.json'))) {
  const began = performance.now();
  await generateStore(dir, { reservoirs, stations: 0, start: '2022-01-01', end: '2025-12-31', seed: 7, byDateDays: 0, workers: 2 });
  console.log(`generated ${reservoirs} reservoirs, 2022-2025, into ${dir} in ${((performance.now() - began) / 1000).toFixed(1)} s`);
}

function cold(path: string): Promise<{ firstMs: number; rows: number; matched: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ogc-items.ts', '--dir', dir, '--child', path], { cwd: repoRoot });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('exit', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`cold run exited with ${code}: ${err.slice(-500)}`))));
  });
}

const base = '/ogc/collections/nete-volume-calcs/items?limit=10';
const { matched, store } = await answer(base);
const pages = { first: base, middle: `${base}&offset=${Math.floor(matched / 2)}`, last: `${base}&offset=${matched - 10}` };
console.log(`${reservoirs} reservoirs, ${matched} rows matched; median of ${values.runs} runs`);
console.log('page    cold ms  cold rows decoded  warm ms');
for (const [name, path] of Object.entries(pages)) {
  const runs = [];
  for (let i = 0; i < Number(values.runs); i++) runs.push(await cold(path));
  const warm = await warmMedian(() => answer(path, store), 50, 3000);
  const [coldMs, rows] = [median(runs.map((r) => r.firstMs)), median(runs.map((r) => r.rows))];
  console.log(`${name.padEnd(7)} ${coldMs.toFixed(1).padStart(7)}  ${String(rows).padStart(17)}  ${warm.toFixed(2).padStart(7)}`);
}
await store.close();
