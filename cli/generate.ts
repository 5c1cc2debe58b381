// npm run generate -- --out DIR [--reservoirs N] [--stations N] [--start DATE] [--end DATE] [--seed N] [--force | --if-missing]
import { generateStore } from '../lib/generate.js';
import { MANIFEST_FILE, manifestFiles } from '../lib/manifest.js';
import { openStorage } from '../lib/storage.js';
import { intFlag, readArgs, stringFlag } from './args.js';
import { progressBar } from './progress.js';

const usage =
  'npm run generate -- --out DIR [--reservoirs 67] [--stations 27] [--start 2019-01-01] [--end 2021-12-31] [--station-start DATE] [--station-end DATE] [--seed 20240501] [--force | --if-missing]';
const { values } = readArgs(
  process.argv.slice(2),
  {
    out: { type: 'string' },
    reservoirs: { type: 'string' },
    stations: { type: 'string' },
    start: { type: 'string', default: '2019-01-01' },
    end: { type: 'string', default: '2021-12-31' },
    'station-start': { type: 'string' },
    'station-end': { type: 'string' },
    seed: { type: 'string' },
    force: { type: 'boolean', default: false },
    'if-missing': { type: 'boolean', default: false },
  },
  usage,
);
const out = stringFlag(values, 'out');
if (!out) {
  process.stderr.write(`--out is required\nusage: ${usage}\n`);
  process.exit(2);
}
const exists = await openStorage(out).exists(MANIFEST_FILE); // --out may be a folder or s3://bucket/prefix
if (exists && values['if-missing']) process.exit(0); // npm ci's prepare: keep the demo store
if (exists && !values.force) {
  process.stderr.write(`${out} already holds a store; pass --force to publish a new snapshot over it\n`);
  process.exit(2);
}
const began = performance.now();
const bar = progressBar('generate');
try {
  const manifest = await generateStore(out, {
    reservoirs: intFlag(values.reservoirs, 'reservoirs', 67),
    stations: intFlag(values.stations, 'stations', 27),
    start: stringFlag(values, 'start')!,
    end: stringFlag(values, 'end')!,
    stationStart: stringFlag(values, 'station-start'),
    stationEnd: stringFlag(values, 'station-end'),
    seed: intFlag(values.seed, 'seed', 20240501),
    onProgress: bar.update,
  });
  bar.stop();
  const files = manifestFiles(manifest);
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  process.stderr.write(
    `wrote snapshot ${manifest.snapshot}: ${manifest.reservoirs.names.length} reservoirs, ${manifest.stations.names.length} stations, ${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - began) / 1000).toFixed(1)} s\n`,
  );
} catch (error) {
  bar.stop();
  process.stderr.write(`generate failed: ${(error as Error).message}\n`);
  process.exit(1);
}
