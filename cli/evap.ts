#!/usr/bin/env node
// evap ingest <files...> --store DIR [--skip-bad-rows]
// evap mirror --from URL --api-key KEY --store DIR [--since DATE] [--concurrency N]
// evap vacuum --store DIR [--min-age-minutes 10] [--dry-run]
// evap verify --store DIR
// evap copy --from DIR|s3://... --to DIR|s3://...   (cli/copy.ts)
// a store is a folder or s3://bucket/prefix (with the AWS environment: AWS_ENDPOINT_URL, AWS_REGION, keys)
import { createReadStream, existsSync, statSync } from 'node:fs';
import { ingest, type IngestProblem, type IngestSource } from '../lib/ingest.js';
import { mirror } from '../lib/mirror.js';
import { openStore } from '../lib/store.js';
import { vacuumStore } from '../lib/vacuum.js';
import { verifyStore } from '../lib/verify.js';
import { copyUsage, runCopy } from './copy.js';
import { intFlag, readArgs } from './args.js';
import { progressBar } from './progress.js';

const usage = `evap ingest <files...> --store DIR [--skip-bad-rows]
       evap mirror --from URL --api-key KEY --store DIR [--since YYYY-MM-DD] [--concurrency 4]
       evap vacuum --store DIR [--min-age-minutes 10] [--dry-run]
       evap verify --store DIR
       ${copyUsage}
  (DIR: a folder, or s3://BUCKET/PREFIX with AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN;
   the key may also come from the EVAP_API_KEY environment variable)`;

const [command, ...rest] = process.argv.slice(2);
if (command === 'ingest') await runIngest(rest);
else if (command === 'mirror') await runMirror(rest);
else if (command === 'vacuum') await runVacuum(rest);
else if (command === 'verify') await runVerify(rest);
else if (command === 'copy') await runCopy(rest);
else fail(command === undefined || command === '--help' || command === '-h' ? '' : `unknown command ${JSON.stringify(command)}`, command === '--help' || command === '-h' ? 0 : 2);

async function runIngest(argv: string[]): Promise<void> {
  const { values, positionals } = readArgs(argv, { store: { type: 'string' }, 'skip-bad-rows': { type: 'boolean', default: false } }, usage);
  const store = values.store as string | undefined;
  if (!store) fail('--store is required');
  if (positionals.length === 0) fail('give at least one file to ingest');
  for (const path of positionals) if (!existsSync(path) || !statSync(path).isFile()) fail(`no such file: ${path}`);
  const sources: IngestSource[] = positionals.map((path) => ({ name: path, open: () => createReadStream(path) }));
  const began = performance.now();
  const bar = progressBar('ingest');
  try {
    const summary = await ingest(store, sources, { skipBadRows: values['skip-bad-rows'] === true, onProgress: bar.update });
    bar.stop();
    printProblems(summary.problems, summary.rejected);
    const seconds = (performance.now() - began) / 1000;
    process.stdout.write(
      `${summary.snapshot ? `published snapshot ${summary.snapshot}` : 'nothing published'}: ${summary.filesApplied}/${summary.files} files applied, ` +
        `${summary.records} records (${Math.round(summary.records / seconds)}/s), rows added ${summary.added}, replaced ${summary.replaced}, rejected ${summary.rejected}; ` +
        `${summary.metadata} metadata rows, ${summary.partitions} partition files in ${seconds.toFixed(1)} s\n`,
    );
    if (summary.filesApplied < summary.files) process.exitCode = 1;
  } catch (error) {
    bar.stop();
    fail(`ingest failed: ${(error as Error).message}`, 1);
  }
}

async function runVacuum(argv: string[]): Promise<void> {
  const { values } = readArgs(argv, { store: { type: 'string' }, 'min-age-minutes': { type: 'string' }, 'dry-run': { type: 'boolean', default: false } }, usage);
  const store = values.store as string | undefined;
  if (!store) fail('--store is required');
  try {
    const dryRun = values['dry-run'] === true;
    const summary = await vacuumStore(store, { minAgeMs: intFlag(values['min-age-minutes'], 'min-age-minutes', 10) * 60_000, dryRun });
    for (const path of summary.removed) process.stdout.write(`${dryRun ? 'would remove' : 'removed'} ${path}\n`);
    process.stdout.write(`${summary.removed.length} files, ${(summary.bytes / 2 ** 20).toFixed(1)} MiB ${dryRun ? 'to free' : 'freed'}; ${summary.retained} earlier snapshots kept (replaced under ${values['min-age-minutes'] ?? 10} minutes ago, or open in a reader)\n`);
  } catch (error) {
    fail(`vacuum failed: ${(error as Error).message}`, 1);
  }
}

async function runMirror(argv: string[]): Promise<void> {
  const { values } = readArgs(
    argv,
    { from: { type: 'string' }, 'api-key': { type: 'string' }, store: { type: 'string' }, since: { type: 'string' }, concurrency: { type: 'string' } },
    usage,
  );
  const [from, store, since] = [values.from, values.store, values.since] as (string | undefined)[];
  const apiKey = (values['api-key'] as string | undefined) ?? process.env.EVAP_API_KEY;
  if (!from || !store) fail('--from and --store are required');
  if (!apiKey) fail('--api-key (or EVAP_API_KEY) is required');
  const controller = new AbortController();
  const stop = () => controller.abort(new Error('interrupted; run the same command again to resume'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const began = performance.now();
  const bar = progressBar('mirror');
  try {
    const summary = await mirror(store, {
      baseUrl: from,
      apiKey,
      since,
      concurrency: Math.max(1, intFlag(values.concurrency as string | undefined, 'concurrency', 4)),
      signal: controller.signal,
      onProgress: bar.update,
    });
    bar.stop();
    printProblems(summary.problems, summary.rejected);
    process.stdout.write(
      `${summary.snapshot ? `published snapshot ${summary.snapshot}` : 'nothing published'}: ${summary.chunks} requests, ${summary.records} records, ` +
        `rows added ${summary.added}, replaced ${summary.replaced}, rejected ${summary.rejected}` +
        `${summary.resumed ? `, ${summary.resumed} units already done by an interrupted run` : ''} in ${((performance.now() - began) / 1000).toFixed(1)} s\n`,
    );
  } catch (error) {
    bar.stop();
    fail(`mirror stopped: ${(error as Error).message}`, 1);
  }
}

function printProblems(problems: readonly IngestProblem[], count: number): void {
  const shown = problems.slice(0, 20);
  for (const p of shown) process.stderr.write(`${p.file}:${p.line}: ${p.reason}\n`);
  if (count > shown.length) process.stderr.write(`... and ${count - shown.length} more rejected\n`);
}

async function runVerify(argv: string[]): Promise<void> {
  const { values } = readArgs(argv, { store: { type: 'string' } }, usage);
  const dir = values.store as string | undefined;
  if (!dir) fail('--store is required');
  const began = performance.now();
  const bar = progressBar('verify');
  try {
    const store = await openStore(dir);
    const summary = await verifyStore(store, store.storage, bar.update);
    await store.close();
    bar.stop();
    for (const problem of summary.problems) process.stdout.write(`${problem}\n`);
    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    process.stdout.write(`snapshot ${store.manifest.snapshot}: ${summary.files} files, ${(summary.bytes / 2 ** 20).toFixed(1)} MiB read in ${seconds} s; ${summary.problems.length === 0 ? 'every file is whole' : `${summary.problems.length} files damaged`}\n`);
    if (summary.problems.length > 0) process.exitCode = 1;
  } catch (error) {
    bar.stop();
    fail(`verify failed: ${(error as Error).message}`, 1);
  }
}

function fail(message: string, code = 2): never {
  process.stderr.write(`${message ? `${message}\n` : ''}usage: ${usage}\n`);
  process.exit(code);
}
