// A store in a bucket of a real S3-compatible server (s3rver on loopback, behind the test proxy that adds S3's
// conditional PUTs): ranged reads, commits that two writers cannot both win, the probe that refuses an endpoint
// without conditional writes, leases and vacuum (the client's retries and timeouts: s3.test.ts).
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { bucketStorage } from '../../../lib/store/bucket.js';
import { indexPath } from '../../../lib/store/file-index.js';
import { manifestFiles } from '../../../lib/store/manifest.js';
import type { Storage } from '../../../lib/store/storage.js';
import { TABLES_FOLDER } from '../../../lib/tables/catalog.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, writeTinyStore } from '../../helpers.js';
import { startTestBucket } from '../../support/bucket.js';
import type { Fault } from '../../support/conditional-proxy.js';

const seen = new Map<string, number>();
const puts = new Map<string, number>();
const faults = (method: string, key: string): Fault => {
  const n = (seen.get(key) ?? 0) + 1;
  seen.set(key, n);
  if (method === 'PUT') puts.set(key, (puts.get(key) ?? 0) + 1);
  if (key.includes('/lost') && method === 'PUT' && puts.get(key) === 2) return 'lose-answer'; // the first is a plain write
  return undefined;
};
const bucket = await startTestBucket({ fault: faults });
Object.assign(process.env, bucket.env);
const quick = { timeoutMs: 400, backoffMs: 10, attempts: 3 };

/** Publishes ALPHA_STATION's 2021-01-01 ATemp = value over the store's current snapshot. */
async function writeStation(location: string | Storage, value: number) {
  const store = await openStore(location);
  const writer = createStoreWriter(location, { base: store.manifest });
  await store.close();
  await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(value) } });
  return writer;
}

const atemp = async (location: string) => {
  const store = await openStore(location);
  const [row] = await store.stationTimeseries({ names: ['ALPHA_STATION'], start: '2021-01-01', end: '2021-01-01' });
  await store.close();
  return row!['ATemp (degC)'];
};

describe('bucketStorage', () => {
  it('reads byte ranges of objects whose keys hold spaces, percent signs and plus signs', async () => {
    const storage = bucketStorage(bucket.location('keys'), process.env);
    const path = 'stations/station=LAKE%20MEAD+1/part-x.parquet';
    await storage.write(
      path,
      Uint8Array.from({ length: 100 }, (_, i) => i),
    );
    expect([...(await storage.read(path, 10, 5))]).toEqual([10, 11, 12, 13, 14]);
    expect([...(await storage.read(path, 97, 10))]).toEqual([97, 98, 99]); // fewer bytes only past the end
    expect((await storage.read(path, 100, 10)).byteLength).toBe(0);
    expect(await storage.list('stations')).toEqual([{ path, bytes: 100, mtimeMs: expect.any(Number) }]);
    await expect(storage.read('stations/missing.parquet', 0, 4)).rejects.toThrow(/cannot read store file .*missing\.parquet: 404 NoSuchKey/);
  });

  it('lists every object across pages, and tells a missing bucket from a missing store', async () => {
    const storage = bucketStorage(bucket.location('pages'), process.env, { listPageSize: 2 });
    for (const n of [1, 2, 3, 4, 5]) await storage.write(`reservoirs/part-${n}.parquet`, 'x'.repeat(n));
    expect((await storage.list('reservoirs')).map((f) => [f.path, f.bytes])).toEqual([1, 2, 3, 4, 5].map((n) => [`reservoirs/part-${n}.parquet`, n]));
    expect(await storage.readText('manifest.json')).toBeUndefined();
    await expect(openStore('s3://no-such-bucket/store')).rejects.toThrow(/cannot read no-such-bucket\/store\/manifest\.json: 404 NoSuchBucket/);
  });
});

describe('conditional writes and markers', () => {
  it('counts a conditional PUT whose answer was lost as done when its retry finds its own bytes there', async () => {
    const storage = bucketStorage(bucket.location('faults'), process.env, quick);
    await storage.write('lost/created.json', 'seed');
    await storage.remove('lost/created.json');
    expect(await storage.create('lost/created.json', 'mine')).toBe(true); // done upstream, answer lost, retry refused 412
    expect(await storage.create('lost/created.json', 'theirs')).toBe(false);
    await storage.write('lost/replaced.json', 'v1');
    const tag = (await storage.readText('lost/replaced.json'))!.tag;
    expect(await storage.replace('lost/replaced.json', 'v2', tag)).toBe(true);
    expect(await storage.replace('lost/replaced.json', 'v3', tag)).toBe(false);
    expect((await storage.readText('lost/replaced.json'))?.text).toBe('v2');
    const statuses = (name: string) => bucket.proxy.requests.filter((r) => r.method === 'PUT' && r.key.endsWith(name)).map((r) => r.status);
    expect(statuses('/lost/created.json')).toEqual([200, 200, 412, 412]); // seed; mine, answer lost; its retry; theirs
    expect(statuses('/lost/replaced.json')).toEqual([200, 200, 412, 412]);
  });

  it('holds the lock for one holder at a time, and takes over one not refreshed within its time-to-live', async () => {
    const storage = bucketStorage(bucket.location('locks'), process.env, { markerTtlMs: 1000 });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const order: string[] = [];
    const first = storage.withLock('x.lock', async () => {
      order.push('first in');
      await sleep(300);
      order.push('first out');
    });
    await sleep(50);
    await Promise.all([first, storage.withLock('x.lock', async () => void order.push('second in'))]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
    await storage.write('manifest.json.lock', 'a writer that died'); // and a reader killed without closing:
    await storage.write('readers/1.999999.dead.lease', '999999');
    await sleep(3100); // the time-to-live, plus 2 s for object times in whole seconds
    let inside: string | undefined;
    await storage.withLock('manifest.json.lock', async () => void (inside = (await storage.readText('manifest.json.lock'))?.text));
    expect(inside).toMatch(new RegExp(`^${process.pid} `));
    expect(await storage.exists('manifest.json.lock')).toBe(false);
    await writeTinyStore(storage);
    const summary = await vacuumStore(storage, { minAgeMs: 0 });
    expect(summary.removed).toContain('readers/1.999999.dead.lease');
  });
});

describe('a store in a bucket', () => {
  it('publishes exactly one of two writers racing from the same snapshot; the other is refused and loses nothing', async () => {
    const location = bucket.location('race');
    await writeTinyStore(location);
    const [a, b] = [await writeStation(location, 11), await writeStation(location, 22)];
    const results = await Promise.allSettled([a.commit(), b.commit()]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.message).toMatch(/changed while this write was under way|another writer published/);
    const winner = results[0]!.status === 'fulfilled' ? 11 : 22;
    expect(await atemp(location)).toBe(winner);
    const loser = results[0]!.status === 'fulfilled' ? b : a;
    const storage = bucketStorage(location, process.env);
    const left = (await storage.list('stations')).filter((f) => f.path.includes(loser.snapshot)).map((f) => f.path);
    // the refused writer's file and its index, and its copy of the stations' January (no station holds December now), left for vacuum
    expect(left).toHaveLength(2 + 2);
    await new Promise((resolve) => setTimeout(resolve, 2100)); // object times are whole seconds, taken as late as they can be
    expect((await vacuumStore(location, { minAgeMs: 0 })).removed).toEqual(expect.arrayContaining(left));
    const retried = await writeStation(location, 33); // the refused writer runs again, over the winner's snapshot
    await retried.commit();
    const store = await openStore(location);
    expect(store.manifest.sequence).toBe(3);
    expect(await atemp(location)).toBe(33);
    await store.close();
  });

  it('keeps commits exclusive by the snapshot file alone, when the lock cannot (writers on machines that cannot see each other)', async () => {
    const location = bucket.location('nolock');
    await writeTinyStore(location);
    const storage = bucketStorage(location, process.env);
    const unlocked: Storage = { ...storage, withLock: (_path, work) => work() };
    const writers = await Promise.all([1, 2, 3, 4, 5, 6].map((v) => writeStation(unlocked, v)));
    const results = await Promise.allSettled(writers.map((w) => w.commit()));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const won = results.findIndex((r) => r.status === 'fulfilled') + 1;
    expect(await atemp(location)).toBe(won);
    expect((await storage.list('snapshots')).map((f) => f.path)).toEqual(['snapshots/0000000001.json', 'snapshots/0000000002.json']);
  });

  it('refuses to commit to an endpoint that ignores conditional writes, naming it, and publishes nothing', async () => {
    const location = `s3://${bucket.bucket}/unsafe`;
    const raw = bucketStorage(location, { ...process.env, AWS_ENDPOINT_URL: bucket.rawEndpoint });
    await expect(writeTinyStore(raw)).rejects.toThrow(
      new RegExp(`object store at ${bucket.rawEndpoint.replace(/[.:/]/g, '\\$&')} \\(bucket evap-test\\) ignores conditional writes.*If-None-Match`),
    );
    expect(await raw.exists('manifest.json')).toBe(false);
    expect(await raw.list('snapshots')).toEqual([]);
    expect((await raw.list('reservoirs')).length).toBeGreaterThan(0); // the refused writer's files, left for vacuum
  });

  it("keeps a snapshot's files while a reader's lease on it is fresh, and retires them once it is released", async () => {
    const location = bucket.location('lease');
    await writeTinyStore(location);
    const reader = await openStore(location);
    const old = reader.manifest.stations.partitions.ALPHA_STATION!.path;
    const oldCopies = (reader.manifest.stations.byDate ?? []).flatMap((f) => [f.path, f.index!.path]); // made again with the station
    const storage = bucketStorage(location, process.env);
    expect((await storage.list('readers')).length).toBe(1);
    await (await writeStation(location, 5)).commit();
    expect((await vacuumStore(location, { minAgeMs: 0 })).removed).toEqual([]);
    expect(await reader.stationTimeseries({ names: ['ALPHA_STATION'], start: '2020-12-30', end: '2020-12-30' })).toHaveLength(1);
    await reader.close();
    expect(await storage.list('readers')).toEqual([]);
    const summary = await vacuumStore(location, { minAgeMs: 0 });
    // the station's file and its index, the stations' copy of its months, and the tables' files of snapshot 1
    expect(oldCopies).toHaveLength(4);
    expect(summary.removed.filter((path) => !path.startsWith(`${TABLES_FOLDER}/`)).sort()).toEqual(
      [old, indexPath(old), ...oldCopies, 'snapshots/0000000001.json'].sort(),
    );
    const store = await openStore(location);
    const kept = new Set((await Promise.all(['reservoirs', 'stations'].map((f) => storage.list(f)))).flat().map((f) => f.path));
    expect(manifestFiles(store.manifest).every((f) => kept.has(f.path))).toBe(true);
    await store.close();
  });
});
