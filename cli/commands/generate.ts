// evap generate: a synthetic store of any size from the seeded model (the demo store and the benchmarks' stores).

import { BY_DATE_DAYS } from '../../lib/store/by-date.js';
import { openStorage } from '../../lib/store/location.js';
import { MANIFEST_FILE, manifestFiles } from '../../lib/store/manifest.js';
import { demoOptions } from '../../lib/synthetic/demo.js';
import { generateStore } from '../../lib/synthetic/generate.js';
import { intFlag, readArgs, requiredFlag, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { pathIn, storageIn } from '../paths.js';
import { progressBar } from '../progress.js';
import { warnIfTablesBehind } from '../tables-behind.js';

export const usage = `evap generate --out DIR [--reservoirs 67] [--stations 27] [--start 2019-01-01] [--end 2021-12-31] [options]
  Generates a store from the seeded physical model (synthetic values); past 67 reservoirs and 27 stations the
  reference list is extended with generated names. Memory stays bounded; time grows with reservoirs x days.
  --station-start DATE, --station-end DATE   the stations' span (default --start, --end)
  --seed N                the seed (default ${demoOptions.seed}): it fixes every value
  --workers N             threads simulating and writing the reservoirs at once (default 1); the rows are the same
  --by-date-days N        the days of every reservoir kept date-major for answers on one date (default ${BY_DATE_DAYS}, in
                          whole months; 0: none); the store keeps the setting for later commits (docs/store.md)
  --force                 publish a new snapshot over a store already in DIR
  --if-missing            do nothing when DIR already holds a store`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, {
    out: { type: 'string' },
    reservoirs: { type: 'string' },
    stations: { type: 'string' },
    start: { type: 'string' },
    end: { type: 'string' },
    'station-start': { type: 'string' },
    'station-end': { type: 'string' },
    seed: { type: 'string' },
    workers: { type: 'string' },
    'by-date-days': { type: 'string' },
    force: { type: 'boolean' },
    'if-missing': { type: 'boolean' },
  });
  const out = requiredFlag(values, 'out');
  if (await openStorage(pathIn(io, out), io.env).exists(MANIFEST_FILE)) {
    // --out may be a folder or s3://bucket/prefix
    if (values['if-missing']) return 0;
    if (!values.force) throw new UsageError(`${out} already holds a store; pass --force to publish a new snapshot over it`);
  }
  const began = performance.now();
  const bar = progressBar('generate', io.stderr);
  let manifest;
  try {
    manifest = await generateStore(pathIn(io, out), {
      reservoirs: intFlag(values.reservoirs, 'reservoirs', demoOptions.reservoirs),
      stations: intFlag(values.stations, 'stations', demoOptions.stations),
      start: stringFlag(values, 'start') ?? demoOptions.start,
      end: stringFlag(values, 'end') ?? demoOptions.end,
      stationStart: stringFlag(values, 'station-start'),
      stationEnd: stringFlag(values, 'station-end'),
      seed: intFlag(values.seed, 'seed', demoOptions.seed),
      workers: intFlag(values.workers, 'workers', 1),
      byDateDays: values['by-date-days'] === undefined ? undefined : intFlag(values['by-date-days'], 'by-date-days', BY_DATE_DAYS),
      onProgress: bar.update,
    });
  } finally {
    bar.stop();
  }
  const files = manifestFiles(manifest);
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  io.stderr.write(
    `wrote snapshot ${manifest.snapshot}: ${manifest.reservoirs.names.length} reservoirs, ${manifest.stations.names.length} stations, ${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - began) / 1000).toFixed(1)} s\n`,
  );
  await warnIfTablesBehind(io, storageIn(io, out), out);
  return 0;
}
