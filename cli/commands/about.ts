// evap about: what a store says of itself (GET /info/about and GET /databases repeat it), shown or changed.
import { aboutEntries } from '../../lib/store/about.js';
import { readCurrentManifest } from '../../lib/store/history.js';
import { openStorage } from '../../lib/store/location.js';
import { type SettableAbout, setStoreAbout } from '../../lib/writer/set-about.js';
import { readArgs, requiredFlag, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';
import { warnIfTablesBehind } from '../tables-behind.js';

// flag -> the provenance field it sets
const fields = {
  title: 'title',
  description: 'description',
  source: 'source',
  citation: 'citation',
  licence: 'licence',
  'day-time-zone': 'dayTimeZone',
  model: 'model',
  status: 'status',
} as const satisfies Record<string, keyof SettableAbout>;

export const usage = `evap about --store DIR|s3://B/P [--title T] [--description D] [--source URL] [--citation C] [--licence L] [--day-time-zone Z]
  Shows what the store says of itself: its title, description, source (the URL it was mirrored from, or
  "synthetic, seeded model"), citation, licence and the time zone of its days. With any of the flags, publishes a
  snapshot with those fields changed and the data untouched; servers pick it up at their next refresh.
  --model M, --status S   the model that made the values; what the source says of their standing`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    store: { type: 'string' },
    ...Object.fromEntries(Object.keys(fields).map((flag) => [flag, { type: 'string' as const }])),
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const location = requiredFlag(values, 'store');
  const changes: SettableAbout = {};
  for (const [flag, field] of Object.entries(fields)) {
    const value = stringFlag(values, flag);
    if (value === undefined) continue;
    if (value.trim() === '') throw new UsageError(`--${flag} must not be empty`);
    changes[field] = value;
  }
  if (Object.keys(changes).length > 0) {
    const manifest = await setStoreAbout(storageIn(io, location), changes);
    io.stderr.write(`published snapshot ${manifest.snapshot} with ${Object.keys(changes).join(', ')} changed\n`);
    await warnIfTablesBehind(io, storageIn(io, location), location);
  }
  const where = storageIn(io, location);
  const storage = typeof where === 'string' ? openStorage(where) : where;
  const manifest = await readCurrentManifest(storage);
  if (!manifest) throw new UsageError(`${location} holds no store`);
  const about = manifest.about;
  if (!about) io.stdout.write('this store was written without provenance; set it with the flags above\n');
  else for (const [field, value] of aboutEntries(about)) io.stdout.write(`${field}: ${value}\n`);
  await storage.close?.();
  return 0;
}
