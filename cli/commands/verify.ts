// evap verify: reads every byte of every file of the current snapshot against the manifest's checksums.
import { openStore } from '../../lib/open/store.js';
import { verifyStore } from '../../lib/open/verify.js';
import { publishTables } from '../../lib/tables/publish.js';
import { readArgs, requiredFlag } from '../args.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';
import { progressBar } from '../progress.js';

export const usage = `evap verify --store DIR|s3://BUCKET/PREFIX
  Checks every file of the store's current snapshot (size, SHA-256, each column chunk); exit status 1 when one is damaged.
  Brings the store's Iceberg tables level with it (as evap tables does).`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, { store: { type: 'string' } });
  const dir = requiredFlag(values, 'store');
  const began = performance.now();
  const store = await openStore(storageIn(io, dir));
  const bar = progressBar('verify', io.stderr);
  let summary;
  try {
    summary = await verifyStore(store, store.storage, bar.update);
  } finally {
    bar.stop();
    await store.close();
  }
  for (const problem of summary.problems) io.stdout.write(`${problem}\n`);
  // derived metadata: a writer stopped after its commit left it behind
  const tables = await publishTables(storageIn(io, dir)).catch((error: Error) => error);
  if (tables instanceof Error) io.stdout.write(`the Iceberg tables could not be brought level: ${tables.message}\n`);
  else if (tables.tables.length > 0) io.stdout.write(`tables brought level with snapshot ${tables.sequence}: ${tables.tables.join(', ')}\n`);
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  io.stdout.write(
    `snapshot ${store.manifest.snapshot}: ${summary.files} files, ${(summary.bytes / 2 ** 20).toFixed(1)} MiB read in ${seconds} s; ${summary.problems.length === 0 ? 'every file is whole' : `${summary.problems.length} files damaged`}\n`,
  );
  return summary.problems.length > 0 || tables instanceof Error ? 1 : 0;
}
