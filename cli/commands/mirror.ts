// evap mirror: a copy of a server speaking the documented API, in chunks, resumably.
import { mirror } from '../../lib/sync/mirror.js';
import { intFlag, readArgs, requiredFlag, stringFlag } from '../args.js';
import { UsageError } from '../command.js';
import { onInterrupt } from '../interrupt.js';
import type { CliIo } from '../io.js';
import { storageIn } from '../paths.js';
import { printProblems } from '../problems.js';
import { progressBar } from '../progress.js';
import { warnIfTablesBehind } from '../tables-behind.js';

export const usage = `evap mirror --from URL --api-key KEY --store DIR [--since YYYY-MM-DD | --update] [--concurrency 4] [--timeout-ms 60000]
  Copies every reservoir and station of the server at URL into DIR through the documented endpoints.
  --since DATE            copy only dates from DATE on (a daily update: the last ~2 months are revised daily)
  --update                fetch what changed since the copy was last pulled: from an evap server, exactly the names,
                          datasets and days its GET /changes names since the snapshot recorded in the copy; from the
                          public service (no /changes), the days the copy holds as not Final (Early, Provisional) and newer
  --concurrency N         requests in flight (default 4)
  --timeout-ms N          a request without a whole answer in N ms is retried, then fails the run (default 60000)
  --retries N             tries again a request answered 429 or 5xx, failing on the network or timed out, N times
                          with backoff (0.5 s, 1 s, 2 s, ...) before the run stops (default 3; 0: never)
  The key may come from EVAP_API_KEY instead (a key on the command line shows in ps). An interrupted run resumes;
  a finished run copies everything again when run again (use --update for daily updates).`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const { values } = readArgs(argv, {
    from: { type: 'string' },
    'api-key': { type: 'string' },
    store: { type: 'string' },
    since: { type: 'string' },
    concurrency: { type: 'string' },
    'timeout-ms': { type: 'string' },
    retries: { type: 'string' },
    update: { type: 'boolean', default: false },
  });
  const from = requiredFlag(values, 'from');
  const store = requiredFlag(values, 'store');
  const apiKey = stringFlag(values, 'api-key') ?? io.env.EVAP_API_KEY;
  if (!apiKey) throw new UsageError('--api-key (or EVAP_API_KEY) is required');
  const timeoutMs = intFlag(values['timeout-ms'], 'timeout-ms', 60_000);
  const concurrency = Math.max(1, intFlag(values.concurrency, 'concurrency', 4));
  const retries = intFlag(values.retries, 'retries', 3);
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted; run the same command again to resume'));
  const forget = onInterrupt(stop);
  const began = performance.now();
  const bar = progressBar('mirror', io.stderr);
  let summary;
  try {
    summary = await mirror(storageIn(io, store), {
      baseUrl: from,
      apiKey,
      since: stringFlag(values, 'since'),
      update: values.update === true,
      concurrency,
      timeoutMs: timeoutMs || undefined,
      retries,
      signal: controller.signal,
      onProgress: bar.update,
    });
  } catch (error) {
    throw new Error('mirror stopped', { cause: error });
  } finally {
    bar.stop();
    forget();
  }
  printProblems(io.stderr, summary.problems, summary.rejected);
  if (summary.mode === 'changes') io.stdout.write(`update by ${summary.why}; the server is at snapshot ${summary.source}\n`);
  if (summary.mode === 'statuses') io.stdout.write(`update by the copy's statuses (days not Final, and newer ones): ${summary.why}\n`);
  io.stdout.write(
    `${summary.snapshot ? `published snapshot ${summary.snapshot}` : 'nothing published'}: ${summary.chunks} requests, ${summary.records} records, ` +
      `rows added ${summary.added}, replaced ${summary.replaced}, rejected ${summary.rejected}` +
      `${summary.resumed ? `, ${summary.resumed} units already done by an interrupted run` : ''} in ${((performance.now() - began) / 1000).toFixed(1)} s\n`,
  );
  if (summary.snapshot) await warnIfTablesBehind(io, storageIn(io, store), store);
  return 0;
}
