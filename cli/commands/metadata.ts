// evap metadata: reservoir or station metadata, as GET /metadata/reservoirs and /metadata/stations answer it.
import { ALL_NAMES } from '../../lib/catalogue.js';
import { intFlag, listFlag, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { chooseFormat, formatUsage, writeRecords } from '../output.js';
import { rankRows } from '../rank.js';
import { openSource, sourceFlags, sourceUsage } from '../source.js';

export const usage = `evap metadata [reservoirs|stations] [--names "A,B"] [--sort FIELD [--top N]] [options]
  One row per name with every stored attribute (LAT, LON, Shape_Area, ...); default names as the API's.
  --sort FIELD            rows sorted by that field, smallest first (numbers as numbers); every name unless --names
  --top N                 with --sort: the N largest, largest first
  e.g. evap metadata --sort CAPACITY_M3 --top 5     (the five largest reservoirs)
${formatUsage}
${sourceUsage}`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    ...sourceFlags,
    names: { type: 'string' },
    format: { type: 'string' },
    out: { type: 'string' },
    sort: { type: 'string' },
    top: { type: 'string' },
  });
  const kind = positionals[0] ?? 'reservoirs';
  if (kind !== 'reservoirs' && kind !== 'stations') throw new UsageError(`metadata of reservoirs or stations, not ${JSON.stringify(kind)}`);
  const out = stringFlag(values, 'out');
  const format = chooseFormat(io, stringFlag(values, 'format'), out);
  const sort = stringFlag(values, 'sort');
  const top = values.top === undefined ? undefined : intFlag(values.top, 'top', 0);
  if (top !== undefined && sort === undefined) throw new UsageError('--top N needs --sort FIELD: the field to rank by, e.g. --sort CAPACITY_M3');
  const { source, close } = await openSource(values, io);
  try {
    // a ranking is over every name unless some are given (the API's default two would rank nothing)
    const every = async () => (kind === 'reservoirs' ? [ALL_NAMES] : await source.listStationNames());
    const names = listFlag(values, 'names') ?? (sort === undefined ? undefined : await every());
    const found = await (kind === 'reservoirs' ? source.reservoirMetadata(names) : source.stationMetadata(names));
    const records = sort === undefined ? found : rankRows(found, sort, top);
    await writeRecords(io, records, Object.keys(records[0] ?? {}), format, out);
  } finally {
    await close();
  }
  return 0;
}
