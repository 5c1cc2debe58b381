// evap metadata: reservoir or station metadata, as GET /metadata/reservoirs and /metadata/stations answer it.
import { listFlag, readArgs, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { chooseFormat, formatUsage, writeRecords } from '../output.js';
import { openSource, sourceFlags, sourceUsage } from '../source.js';

export const usage = `evap metadata [reservoirs|stations] [--names "A,B"] [options]
  One row per name with every stored attribute (LAT, LON, Shape_Area, ...); default names as the API's.
${formatUsage}
${sourceUsage}`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, { ...sourceFlags, names: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } });
  const kind = positionals[0] ?? 'reservoirs';
  if (kind !== 'reservoirs' && kind !== 'stations') throw new UsageError(`metadata of reservoirs or stations, not ${JSON.stringify(kind)}`);
  const out = stringFlag(values, 'out');
  const format = chooseFormat(io, stringFlag(values, 'format'), out);
  const { source, close } = await openSource(values, io);
  try {
    const names = listFlag(values, 'names');
    const records = await (kind === 'reservoirs' ? source.reservoirMetadata(names) : source.stationMetadata(names));
    await writeRecords(io, records, Object.keys(records[0] ?? {}), format, out);
  } finally {
    await close();
  }
  return 0;
}
