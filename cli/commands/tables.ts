// evap tables: writes (or brings level) the Iceberg metadata of every table of a store; no data file is written.
import { publishTables } from '../../lib/tables/publish.js';
import { readArgs, requiredFlag } from '../args.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';

export const usage = `evap tables --store DIR|s3://BUCKET/PREFIX
  Publishes the store as Apache Iceberg tables (tables/<name>/metadata/ in the store), one Iceberg snapshot per
  retained store snapshot: for a store written before tables existed, a moved folder, or tables left behind by a
  writer that was stopped after its commit. Writes metadata only. See docs/store.md for reading them from engines.`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, { store: { type: 'string' } });
  const summary = await publishTables(storageIn(io, requiredFlag(values, 'store')));
  io.stdout.write(
    summary.tables.length === 0
      ? `tables level with snapshot ${summary.sequence}; nothing to write\n`
      : `tables level with snapshot ${summary.sequence}: ${summary.tables.join(', ')} updated, ${summary.snapshots} Iceberg snapshots added, ${summary.files} metadata files (${(summary.bytes / 1024).toFixed(1)} KiB)\n`,
  );
  return 0;
}
