// evap vacuum: deletes the files that no retained snapshot names.
import { vacuumStore } from '../../lib/writer/vacuum.js';
import { intFlag, readArgs, requiredFlag } from '../args.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';

export const usage = `evap vacuum --store DIR [--min-age-minutes 10] [--retain-days N] [--dry-run]
  Deletes files of snapshots replaced over --min-age-minutes ago (and not open in a reader), and leftovers of
  killed writers older than that. --retain-days N keeps N days of replaced snapshots answerable with as_of
  (default: --min-age-minutes). --dry-run lists what would go.`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, {
    store: { type: 'string' },
    'min-age-minutes': { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    'retain-days': { type: 'string' },
  });
  const store = requiredFlag(values, 'store');
  const minutes = intFlag(values['min-age-minutes'], 'min-age-minutes', 10);
  const dryRun = values['dry-run'] === true;
  const retainDays = intFlag(values['retain-days'], 'retain-days', 0);
  const summary = await vacuumStore(storageIn(io, store), { minAgeMs: minutes * 60_000, retainMs: retainDays * 86_400_000, dryRun });
  for (const path of summary.removed) io.stdout.write(`${dryRun ? 'would remove' : 'removed'} ${path}\n`);
  for (const path of summary.foreign) io.stderr.write(`warning: ${path} is not a snapshot of this store (left as it is)\n`);
  io.stdout.write(
    `${summary.removed.length} files, ${(summary.bytes / 2 ** 20).toFixed(1)} MiB ${dryRun ? 'to free' : 'freed'}; ` +
      `${summary.retained} earlier snapshots kept (replaced under ${retainDays ? `${retainDays} days` : `${minutes} minutes`} ago, or open in a reader); ` +
      `${summary.tooRecent} unpublished files kept as too recent (under ${minutes} minutes old, or their writer still runs)\n`,
  );
  return 0;
}
