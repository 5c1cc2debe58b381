// evap copy --from DIR|s3://... --to DIR|s3://... [--concurrency 8]: the snapshot a store serves, copied and published
// elsewhere (a folder into a bucket, or back). Its own module: the command is thin, the work is lib/copy.ts.
import { copyStore } from '../lib/copy.js';
import { intFlag, readArgs, stringFlag } from './args.js';
import { progressBar } from './progress.js';

export const copyUsage = 'evap copy --from DIR|s3://BUCKET/PREFIX --to DIR|s3://BUCKET/PREFIX [--concurrency 8]';

/** Runs `evap copy`; exits non-zero with a message when the copy fails (a later run resumes it). */
export async function runCopy(argv: string[]): Promise<void> {
  const { values } = readArgs(argv, { from: { type: 'string' }, to: { type: 'string' }, concurrency: { type: 'string' } }, copyUsage);
  const [from, to] = [stringFlag(values, 'from'), stringFlag(values, 'to')];
  if (!from || !to) {
    process.stderr.write(`--from and --to are required\nusage: ${copyUsage}\n`);
    process.exit(2);
  }
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted; run the same command again to resume'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const began = performance.now();
  const bar = progressBar('copy');
  try {
    const summary = await copyStore(from, to, { concurrency: Math.max(1, intFlag(values.concurrency, 'concurrency', 8)), signal: controller.signal, onProgress: bar.update });
    bar.stop();
    process.stdout.write(
      `${to} serves snapshot ${summary.snapshot}: ${summary.files} files, ${summary.copied} copied (${(summary.bytes / 2 ** 20).toFixed(1)} MiB), ` +
        `${summary.kept} already there and whole, every file checked against the manifest, in ${((performance.now() - began) / 1000).toFixed(1)} s\n`,
    );
  } catch (error) {
    bar.stop();
    process.stderr.write(`copy failed: ${(error as Error).message}\n`);
    process.exit(1);
  }
}
