// evap copy: the snapshot a store serves, copied and published elsewhere (a folder into a bucket, or back).
// The command is thin; the work (verified, resumable) is lib/sync/copy.ts.
import { copyStore } from '../../lib/sync/copy.js';
import { intFlag, readArgs, requiredFlag } from '../args.js';
import { onInterrupt } from '../interrupt.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';
import { progressBar } from '../progress.js';
import { warnIfTablesBehind } from '../tables-behind.js';

export const usage = `evap copy --from DIR|s3://BUCKET/PREFIX --to DIR|s3://BUCKET/PREFIX [--concurrency 8]
  Copies the snapshot the source serves, checking every file against the manifest when read and after it is
  written, then publishes it at the destination. An interrupted copy resumes: files already there and whole are kept.
  A bucket is reached with AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN.`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, { from: { type: 'string' }, to: { type: 'string' }, concurrency: { type: 'string' } });
  const from = requiredFlag(values, 'from');
  const to = requiredFlag(values, 'to');
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted; run the same command again to resume'));
  const forget = onInterrupt(stop);
  const began = performance.now();
  const bar = progressBar('copy', io.stderr);
  let summary;
  try {
    summary = await copyStore(storageIn(io, from), storageIn(io, to), {
      concurrency: Math.max(1, intFlag(values.concurrency, 'concurrency', 8)),
      signal: controller.signal,
      onProgress: bar.update,
    });
  } finally {
    bar.stop();
    forget();
  }
  io.stdout.write(
    `${to} serves snapshot ${summary.snapshot}: ${summary.files} files, ${summary.copied} copied (${(summary.bytes / 2 ** 20).toFixed(1)} MiB), ` +
      `${summary.kept} already there and whole, every file checked against the manifest, in ${((performance.now() - began) / 1000).toFixed(1)} s\n`,
  );
  await warnIfTablesBehind(io, storageIn(io, to), to);
  return 0;
}
