// One serving process as npm start runs it (server/main.ts -> startProcess), as a child on loopback: the key it makes
// when none is configured, keys from the environment and a keys file reloaded on SIGHUP and on change, snapshots
// published while it serves, and draining on SIGTERM / SIGINT, then releasing the store's leases (on a folder and in a
// bucket of a real S3-compatible server).
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { READERS_FOLDER } from '../../../lib/store/lease.js';
import { openStorage } from '../../../lib/store/location.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir, writeTinyStore } from '../../helpers.js';
import { startTestBucket } from '../../support/bucket.js';
import { spawnMain } from '../harness.js';

const bucket = await startTestBucket();

describe('startProcess, run by npm start', () => {
  it('makes and prints one key when none is configured, never logs it, and exits 0 on SIGTERM', async () => {
    const main = await spawnMain({});
    const lines = main
      .output()
      .split('\n')
      .filter((l) => l.startsWith('api-key: '));
    expect(lines).toHaveLength(1);
    const key = lines[0]!.slice('api-key: '.length);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(main.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${main.url}/info/list_datasets`, { headers: { 'api-key': key } })).status).toBe(200);
    expect((await fetch(`${main.url}/info/list_datasets`, { headers: { 'api-key': `${key}x` } })).status).toBe(401);
    expect(main.output()).toContain(`explorer: ${main.url}/ `);
    main.child.kill('SIGHUP'); // not the default (which ends a process): nothing to reload, and it keeps serving
    await expect.poll(() => main.output(), { timeout: 5000 }).toContain('SIGHUP: no keys file to reload');
    expect((await fetch(`${main.url}/info/list_datasets`, { headers: { 'api-key': key } })).status).toBe(200);
    // a long streamed answer in flight when SIGTERM comes is finished, then the process exits 0
    const inFlight = fetch(`${main.url}/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD,LAKE%20POWELL&start_date=2019-01-01&end_date=2021-12-31`, {
      headers: { 'api-key': key },
    });
    const response = await inFlight;
    main.child.kill('SIGTERM');
    const records = (await response.json()) as unknown[];
    expect(records).toHaveLength(2 * 1096);
    expect(await main.exited).toBe(0);
    const output = main.output();
    expect(output.split(key).length - 1).toBe(1); // only on the api-key line
    expect(output).toMatch(/GET \/info\/list_datasets 200 [\d.]+ms \d+B/);
  });

  it('serves a snapshot that an ingest publishes, without a restart', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const main = await spawnMain({ EVAP_STORE: dir, EVAP_API_KEYS: 'k', EVAP_REFRESH_MS: '100' });
    const ask = async () => {
      const response = await fetch(`${main.url}/timeseries/stations/daterange?STA_NAMES=ALPHA_STATION&start_date=2021-01-01&end_date=2021-01-01`, {
        headers: { 'api-key': 'k' },
      });
      return ((await response.json()) as Record<string, unknown>[])[0]!['ATemp (degC)'];
    };
    expect(await ask()).toBe(2);
    const writer = createStoreWriter(dir, { base: (await openStore(dir)).manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(42) } });
    await writer.commit();
    await expect.poll(ask, { timeout: 5000, interval: 100 }).toBe(42);
    expect(main.output()).toContain(`serving snapshot ${writer.snapshot}`);
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);
  });

  it('accepts the keys of EVAP_API_KEYS and of a keys file of SHA-256 digests, and prints none', async () => {
    const dir = await tempDir();
    const file = join(dir, 'keys.txt');
    const hashed = 'file-key-1';
    await writeFile(file, `# operators\n${createHash('sha256').update(hashed).digest('hex')}\n\n`);
    const main = await spawnMain({ EVAP_API_KEYS: 'env-key-1, env-key-2' }, ['--keys-file', file]);
    for (const key of ['env-key-1', 'env-key-2', hashed]) {
      expect((await fetch(`${main.url}/info/list_datasets`, { headers: { 'api-key': key } })).status).toBe(200);
    }
    expect((await fetch(`${main.url}/info/list_datasets`, { headers: { 'api-key': 'ENV-KEY-1' } })).status).toBe(401);
    expect(main.output()).not.toMatch(/api-key:|env-key|file-key/);
    main.child.kill('SIGINT');
    expect(await main.exited).toBe(0);
  });

  it('reloads the keys file on SIGHUP and when it changes, and stays up', async () => {
    const dir = await tempDir();
    const file = join(dir, 'keys.txt');
    const digest = (key: string) => createHash('sha256').update(key).digest('hex');
    await writeFile(file, `${digest('first-key')}\n`);
    const main = await spawnMain({}, ['--keys-file', file]);
    const status = async (key: string) => (await fetch(`${main.url}/info/list_datasets`, { headers: { 'api-key': key } })).status;
    expect(await status('first-key')).toBe(200);
    await writeFile(file, `${digest('second-key')}\n`);
    main.child.kill('SIGHUP');
    await expect.poll(() => main.output(), { timeout: 5000 }).toMatch(/SIGHUP: keys file reloaded, 1 keys/);
    expect([await status('first-key'), await status('second-key')]).toEqual([401, 200]); // revoked without a restart
    await writeFile(file, `${digest('third-key')}\n# rotated\n`);
    const until = Date.now() + 8000;
    while ((await status('third-key')) !== 200 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
    expect([await status('second-key'), await status('third-key')]).toEqual([401, 200]); // noticed without a signal
    // a line it cannot read grants nothing, and never keeps a removed key alive: the other lines are reloaded
    await writeFile(file, `not a digest\n${digest('fourth-key')} # 2026-01-01 eve\u2028# x\u2029\n`);
    main.child.kill('SIGHUP');
    await expect
      .poll(() => main.output(), { timeout: 5000 })
      .toContain(`SIGHUP: ${file}:1: expected a hex SHA-256 digest (64 characters); the line grants no key`);
    await expect.poll(() => main.output(), { timeout: 5000 }).toMatch(/SIGHUP: keys file reloaded, 1 keys\n[\s\S]*SIGHUP: keys file reloaded, 1 keys/);
    expect([await status('third-key'), await status('fourth-key')]).toEqual([401, 200]);
    main.child.kill('SIGTERM');
    expect(await main.exited).toBe(0);
  });

  it("releases the store's leases on SIGTERM and SIGINT, an as_of view's included: on a folder, and in a bucket, where one left behind would hold its snapshot 90 s more", async () => {
    for (const [location, signal, workers] of [
      [await tempDir(), 'SIGTERM', 1],
      [bucket.location('stopped'), 'SIGTERM', 1],
      [bucket.location('interrupted'), 'SIGINT', 1],
      [bucket.location('cluster'), 'SIGTERM', 2], // the primary stops each worker with SIGTERM
    ] as const) {
      const storage = openStorage(location, bucket.env);
      await writeTinyStore(storage);
      const main = await spawnMain({ ...bucket.env, EVAP_STORE: location, EVAP_API_KEYS: 'k', EVAP_WORKERS: String(workers) });
      const asked = await fetch(`${main.url}/timeseries/stations/date?date=2021-01-01&as_of=${new Date().toISOString()}`, { headers: { 'api-key': 'k' } });
      expect(asked.status).toBe(200);
      expect((await storage.list(READERS_FOLDER)).length, location).toBe(workers + 1); // each worker's served snapshot, one as_of view
      main.child.kill(signal);
      expect(await main.exited).toBe(0);
      expect(await storage.list(READERS_FOLDER), location).toEqual([]);
    }
  }, 120_000); // four servers started and stopped one after another
});
