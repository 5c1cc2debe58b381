// Every command with its store in a bucket (s3rver on loopback, behind the test proxy), given by the AWS environment.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../lib/format/csv.js';
import { openStore } from '../../lib/open/store.js';
import { bucketStorage } from '../../lib/store/bucket.js';
import { serveSmallStore, tempDir } from '../helpers.js';
import { startTestBucket } from '../support/bucket.js';
import { evap } from './harness.js';

const bucket = await startTestBucket();
Object.assign(process.env, bucket.env);

/** Runs `evap ...args` with the bucket's AWS environment. */
const run = (args: string[]) => evap(args, bucket.env);

describe('the commands over a bucket', () => {
  it('generate, verify, ingest, vacuum and copy with --store s3://bucket/prefix', async () => {
    const store = bucket.location('cli');
    const generated = await run([
      'generate',
      '--out',
      store,
      '--reservoirs',
      '3',
      '--stations',
      '2',
      '--start',
      '2021-01-01',
      '--end',
      '2021-01-20',
      '--station-start',
      '2021-01-01',
    ]);
    expect(generated.stderr).toMatch(/wrote snapshot \S+: 3 reservoirs, 2 stations/);
    const verified = await run(['verify', '--store', store]);
    expect(verified.stdout).toMatch(/every file is whole/);
    expect(verified.code).toBe(0);

    const before = await openStore(store);
    const names = before.manifest.reservoirs.names;
    const query = { names, datasets: ['nete-volume-calcs'], start: '2021-01-05', end: '2021-01-06' };
    const revised = (await before.reservoirTimeseries(query)).map((r) => ({ ...r, 'NetE (mm)': 1234.5 }));
    await before.close();
    const csv = join(await tempDir(), 'revision.csv');
    await writeFile(csv, recordsToCsv(revised, Object.keys(revised[0]!)));
    const ingested = await run(['ingest', csv, '--store', store]);
    expect(ingested.stdout).toMatch(new RegExp(`published snapshot .* rows added 0, replaced ${revised.length}, rejected 0`));
    const after = await openStore(store);
    expect((await after.reservoirTimeseries(query)).map((r) => r['NetE (mm)'])).toEqual(revised.map(() => 1234.5));
    await after.close();

    const vacuumed = await run(['vacuum', '--store', store, '--min-age-minutes', '0']);
    expect(vacuumed.stdout).toMatch(/removed reservoirs\/dataset=nete-volume-calcs\/year=2021\//);
    expect(vacuumed.stdout).toMatch(/removed snapshots\/0000000001\.json/);

    const copy = join(await tempDir(), 'copy');
    const copied = await run(['copy', '--from', store, '--to', copy]);
    expect(copied.stdout).toMatch(/serves snapshot \S+: \d+ files, \d+ copied/);
    const local = await openStore(copy);
    expect((await local.reservoirTimeseries(query)).map((r) => r['NetE (mm)'])).toEqual(revised.map(() => 1234.5));
    await local.close();
  });

  it('mirror into a bucket', async () => {
    const { store: source, server } = await serveSmallStore();
    const store = bucket.location('mirror');
    const mirrored = await run(['mirror', '--from', server.url, '--api-key', server.key, '--store', store, '--concurrency', '2']);
    expect(mirrored.code).toBe(0);
    expect(await bucketStorage(store, process.env).exists('mirror-progress.json')).toBe(true);
    const copy = await openStore(store);
    const ask = { names: source.manifest.reservoirs.names, start: '2020-12-25', end: '2021-01-05' };
    expect(await copy.reservoirTimeseries(ask)).toEqual(await source.reservoirTimeseries(ask));
    await copy.close();
  });
});
