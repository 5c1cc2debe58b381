// The model: the DLEM kernel's throughput in water-body-days per second on one core, how it grows with water bodies
// and years; the what-if path for one reservoir-year against the stored daily answer, warm (in process) and cold
// (a fresh process); and a whole-store recompute as a new snapshot.
//   npm run bench:model -- [--reservoirs 1500] [--years 2] [--recompute] [--dir DIR]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { allocateOutputs, runDlem } from '../lib/model/dlem.js';
import { openStore } from '../lib/open/store.js';
import { generateStore } from '../lib/synthetic/generate.js';
import { median, timeRepeated } from './timing.js';

const { values } = parseArgs({
  options: {
    reservoirs: { type: 'string', default: '1500' },
    years: { type: 'string', default: '2' },
    recompute: { type: 'boolean', default: false },
    dir: { type: 'string' },
    child: { type: 'string' },
  },
});

// a synthetic block of forcing: plausible values varying by body and day, so no branch is always taken
function block(bodies: number, days: number) {
  const cells = bodies * days;
  const f = (fn: (b: number, t: number) => number) => Float64Array.from({ length: cells }, (_, i) => fn(Math.floor(i / days), i % days));
  const season = (t: number) => Math.sin((2 * Math.PI * (t - 110)) / 365);
  return {
    lakes: {
      lat: Float64Array.from({ length: bodies }, (_, b) => 25 + (b % 25)),
      elev: Float64Array.from({ length: bodies }, (_, b) => (b * 37) % 2500),
      fetch: Float64Array.from({ length: bodies * 12 }, (_, i) => 500 + ((i * 7919) % 40_000)),
    },
    forcing: {
      srad: f((b, t) => 200 + 110 * season(t + 30) + ((b * 13 + t * 7) % 40)),
      ta: f((b, t) => 14 + 12 * season(t) + ((b + t) % 5)),
      vpd: f((b, t) => 1.2 + 0.9 * season(t) + ((b * 3 + t) % 7) / 10),
      u2: f((b, t) => 1 + ((b + 3 * t) % 50) / 10),
      th: f((b, t) => (b * 31 + t * 47) % 360),
      depth: f((b) => 1 + (b % 40)),
    },
    months: Uint8Array.from({ length: days }, (_, t) => 1 + Math.floor((t % 365) / 30.42)),
  };
}

async function kernelRate(bodies: number, days: number): Promise<number> {
  const { lakes, forcing, months } = block(bodies, days);
  const out = allocateOutputs(bodies * days);
  const water = new Float64Array(bodies).fill(10);
  const time = await timeRepeated(() => runDlem(lakes, forcing, months, water, out, bodies, days), { minRuns: 5, maxRuns: 20, budgetMs: 2000 });
  return (bodies * days) / (time.medianMs / 1000);
}

if (values.child) {
  // a fresh process: open the store, answer once, print the milliseconds
  const [kind, dir] = values.child.split(':') as [string, string];
  const began = performance.now();
  const store = await openStore(dir);
  const query = { names: ['LAKE MEAD'], datasets: ['lem', 'nete-volume-calcs'], start: '2021-01-01', end: '2021-12-31' };
  const answer = kind === 'model' ? store.streamReservoirModel(query) : store.streamReservoirTimeseries(query);
  for await (const _ of answer.json());
  process.stdout.write(`${performance.now() - began}\n`);
  await store.close();
  process.exit(0);
}

console.log('kernel throughput, water-body-days per second on one core (median):');
for (const [bodies, days] of [
  [1, 730],
  [100, 730],
  [1000, 730],
  [10_000, 730],
  [1000, 3650],
]) {
  console.log(`  ${String(bodies).padStart(6)} bodies x ${String(days).padStart(4)} days: ${((await kernelRate(bodies!, days!)) / 1e6).toFixed(2)} M/s`);
}

const reservoirs = Number(values.reservoirs);
const years = Number(values.years);
const dir = values.dir ?? join(tmpdir(), `evap-bench-model-${reservoirs}-${years}`);
if (!existsSync(join(dir, 'manifest.json'))) {
  const began = performance.now();
  await generateStore(dir, { reservoirs, stations: 0, start: `${2022 - years}-01-01`, end: '2021-12-31', seed: 1 });
  console.log(`generated ${reservoirs} reservoirs x ${years} years in ${((performance.now() - began) / 1000).toFixed(1)} s: ${dir}`);
}

const store = await openStore(dir);
const query = { names: ['LAKE MEAD'], datasets: ['lem', 'nete-volume-calcs'], start: '2021-01-01', end: '2021-12-31' };
const drain = async (answer: AsyncIterable<string>) => {
  for await (const _ of answer);
};
const budget = { minRuns: 15, maxRuns: 60, budgetMs: 3000 };
const model = (await timeRepeated(() => drain(store.streamReservoirModel(query).json()), budget)).medianMs;
const stored = (await timeRepeated(() => drain(store.streamReservoirTimeseries(query).json()), budget)).medianMs;
console.log(`what-if, one reservoir-year, warm (median): ${model.toFixed(1)} ms; the stored answer ${stored.toFixed(1)} ms: ${(model / stored).toFixed(2)}x`);
const cold = (kind: string) =>
  median(
    Array.from({ length: 5 }, () => Number(execFileSync(process.execPath, ['--import', 'tsx', 'bench/model.ts', '--child', `${kind}:${dir}`]).toString())),
  );
const [coldModel, coldStored] = [cold('model'), cold('stored')];
console.log(
  `what-if, one reservoir-year, cold (fresh process, median of 5): ${coldModel.toFixed(0)} ms; stored ${coldStored.toFixed(0)} ms: ${(coldModel / coldStored).toFixed(2)}x`,
);
await store.close();

if (values.recompute) {
  const copy = `${dir}-recompute`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(dir, copy, { recursive: true });
  const target = await openStore(copy);
  const began = performance.now();
  const summary = await target.recomputeModel({});
  const seconds = (performance.now() - began) / 1000;
  console.log(
    `recompute ${reservoirs} reservoirs x ${summary.days} days as a new snapshot: ${seconds.toFixed(1)} s (${((reservoirs * summary.days) / seconds / 1e6).toFixed(2)} M reservoir-days/s), ${summary.changed} of ${summary.values} values changed, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
  await target.close();
  rmSync(copy, { recursive: true, force: true });
}
