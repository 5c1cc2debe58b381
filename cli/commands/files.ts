// evap files: the current data files of each table, for readers without Iceberg support.
import { listTableFiles } from '../../lib/tables/files.js';
import { readArgs, requiredFlag, stringFlag } from '../args.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';

export const usage = `evap files --store DIR|s3://BUCKET/PREFIX [--table NAME] [--as-of TIME] [--json]
  Prints the data files of the store's current snapshot (or the one current at --as-of, a date or time), one per
  line: with --table, its paths alone; without, "<table>\\t<path>". --json prints a list of {table, path, rows,
  bytes, partition}. Read these files, never a glob of the folder: replaced files stay until vacuum.`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, {
    store: { type: 'string' },
    table: { type: 'string' },
    'as-of': { type: 'string' },
    json: { type: 'boolean', default: false },
  });
  const table = stringFlag(values, 'table');
  const files = await listTableFiles(storageIn(io, requiredFlag(values, 'store')), { table, asOf: stringFlag(values, 'as-of') });
  if (values.json === true) io.stdout.write(`${JSON.stringify(files, null, 1)}\n`);
  else io.stdout.write(files.map((f) => (table === undefined ? `${f.table}\t${f.path}\n` : `${f.path}\n`)).join(''));
  return 0;
}
