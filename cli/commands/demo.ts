// evap demo: the demo store (67 reservoirs 2019-2021, 27 stations from 2010; synthetic values) written into a folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { demoDatabaseNames, demoOptions, makeDemoStore, makeTexasDemoStore, TEXAS_DEMO_FOLDER, texasDemoOptions } from '../../lib/synthetic/demo.js';
import { choiceFlag, readArgs, requiredFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { pathIn } from '../paths.js';
import { progressBar } from '../progress.js';
import { warnIfTablesBehind } from '../tables-behind.js';

export const usage = `evap demo --out DIR [--database usbr|twdb] [--force | --if-missing]
  Writes the demo store into DIR: the ${demoOptions.reservoirs} reference reservoirs from ${demoOptions.start} to ${demoOptions.end} and
  ${demoOptions.stations} stations from ${demoOptions.stationStart}, made by the seeded model (synthetic values, not OperEvap data).
  Then: evap serve --store DIR, evap query --store DIR, or openStore(DIR) in a script.
  --database twdb         the Texas-like demo database instead: ${texasDemoOptions.reservoirs} real Texas reservoir names from ${texasDemoOptions.start}
                          to ${texasDemoOptions.end}, no stations (npm ci puts it in data/${TEXAS_DEMO_FOLDER}; a server given no store serves
                          both, Reclamation at / and /usbr, Texas at /twdb)
  --force                 publish a new snapshot over a store already in DIR
  --if-missing            do nothing when DIR already holds a store`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, {
    out: { type: 'string' },
    database: { type: 'string' },
    force: { type: 'boolean' },
    'if-missing': { type: 'boolean' },
  });
  const database = choiceFlag(values, 'database', demoDatabaseNames, 'usbr');
  const out = requiredFlag(values, 'out');
  const dir = pathIn(io, out);
  if (existsSync(join(dir, 'manifest.json'))) {
    if (values['if-missing']) return 0;
    if (!values.force) throw new UsageError(`${out} already holds a store; pass --force to publish a new snapshot over it`);
  }
  const began = performance.now();
  const bar = progressBar('demo', io.stderr);
  try {
    await (database === 'twdb' ? makeTexasDemoStore : makeDemoStore)(dir, bar.update);
  } finally {
    bar.stop();
  }
  io.stderr.write(`wrote the ${database === 'twdb' ? 'Texas-like ' : ''}demo store into ${out} in ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
  await warnIfTablesBehind(io, dir, out);
  return 0;
}
