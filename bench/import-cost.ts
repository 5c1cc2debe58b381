// What importing the library costs a fresh process (issue 44): `npx tsx bench/import-cost.ts [--runs 5] [ROOT...]`.
// For each entry (dist/lib/index.js, dist/lib/open/store.js) of each checkout (default: this one; give two, each built
// with `npm run build`, to compare them), the modules loaded and their bytes (a load hook counts them, in a run of its
// own) and the median import time of plain `node` processes, the checkouts' runs alternating so that load is shared.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { repoRoot } from './store.js';
import { median } from './timing.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '5' } } });
const roots = positionals.length > 0 ? positionals.map((p) => resolve(p)) : [repoRoot];
const named = (root: string): string => positionals[roots.indexOf(root)] ?? '.'; // as given: the report names no path of the machine
const entries = ['dist/lib/index.js', 'dist/lib/open/store.js'];

// the hook posts every URL loaded to this thread; timing runs go without it (it costs a thread of its own)
const counting = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const { port1, port2 } = new MessageChannel();
const urls = [];
port1.on('message', (u) => urls.push(u));
port1.unref();
const hook = 'let port; export function initialize(d) { port = d.port } export async function load(url, context, next) { const r = await next(url, context); port.postMessage(url); return r }';
register('data:text/javascript,' + encodeURIComponent(hook), { data: { port: port2 }, transferList: [port2] });
await import(process.argv[1]);
await new Promise((r) => setTimeout(r, 50));
const files = urls.filter((u) => u.startsWith('file:'));
const bytes = files.reduce((sum, u) => sum + statSync(fileURLToPath(u)).size, 0);
console.log(JSON.stringify({ modules: files.length, own: files.filter((u) => u.includes('/dist/lib/')).length, bytes,
  arrow: files.some((u) => u.includes('/apache-arrow/')), parquetWasm: files.some((u) => u.includes('/parquet-wasm/')) }));`;
const timing = 'const t = performance.now(); await import(process.argv[1]); console.log(performance.now() - t);';

const node = (script: string, url: string): string => execFileSync(process.execPath, ['--input-type=module', '-e', script, url], { encoding: 'utf8' }).trim();
const times = new Map<string, number[]>();
for (let i = 0; i < Number(values.runs); i++)
  for (const entry of entries)
    for (const root of roots) {
      const key = `${root}\t${entry}`;
      times.set(key, [...(times.get(key) ?? []), Number(node(timing, pathToFileURL(resolve(root, entry)).href))]);
    }
console.log('| checkout | entry | modules (of lib/) | KiB | apache-arrow, parquet-wasm | import, median |');
console.log('|---|---|---:|---:|---|---:|');
for (const entry of entries)
  for (const root of roots) {
    const c = JSON.parse(node(counting, pathToFileURL(resolve(root, entry)).href));
    const loads = [c.arrow && 'apache-arrow', c.parquetWasm && 'parquet-wasm'].filter(Boolean).join(', ') || 'neither';
    const ms = median(times.get(`${root}\t${entry}`)!);
    console.log(`| ${named(root)} | ${entry} | ${c.modules} (${c.own}) | ${(c.bytes / 1024).toFixed(0)} | ${loads} | ${ms.toFixed(1)} ms |`);
  }
