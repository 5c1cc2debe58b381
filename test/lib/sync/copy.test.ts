// copyStore between a folder and a bucket on a real S3-compatible server: both ways, verified, resumable.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { bucketStorage } from '../../../lib/store/bucket.js';
import { manifestFiles } from '../../../lib/store/manifest.js';
import { copyStore } from '../../../lib/sync/copy.js';
import { tempDir, writeSmallStore } from '../../helpers.js';
import { startTestBucket } from '../../support/bucket.js';

const bucket = await startTestBucket();
Object.assign(process.env, bucket.env);
const dir = await tempDir();
await writeSmallStore(dir);
const query = { names: ['ABIQUIU LAKE', 'AGATE RESERVOIR'], datasets: ['rtma', 'res', 'lem', 'nete-volume-calcs'], start: '2020-12-25', end: '2021-01-05' };

async function answer(location: string) {
  const store = await openStore(location);
  try {
    return {
      snapshot: store.manifest.snapshot,
      rows: await store.reservoirTimeseries(query),
      stations: await store.stationTimeseriesOnDate({ date: '2021-01-01' }),
    };
  } finally {
    await store.close();
  }
}

describe('copyStore', () => {
  it('copies a folder into a bucket and back, the same snapshot answering the same', async () => {
    const up = await copyStore(dir, bucket.location('round'));
    expect(up.copied).toBe(up.files);
    const back = await tempDir();
    const down = await copyStore(bucket.location('round'), back);
    expect(down.copied).toBe(down.files);
    const expected = await answer(dir);
    expect(await answer(bucket.location('round'))).toEqual(expected);
    expect(await answer(back)).toEqual(expected);
    expect((await copyStore(dir, bucket.location('round'))).copied).toBe(0); // already there: nothing to do
  });

  it('resumes an interrupted copy, copying only what is missing or damaged', async () => {
    const location = bucket.location('resume');
    const stop = new AbortController();
    const first = copyStore(dir, location, { concurrency: 1, signal: stop.signal, onProgress: (done) => done === 5 && stop.abort(new Error('stopped')) });
    await expect(first).rejects.toThrow('stopped');
    const storage = bucketStorage(location, process.env);
    expect(await storage.exists('manifest.json')).toBe(false); // nothing published by the interrupted run
    const copied = [...(await storage.list('reservoirs')), ...(await storage.list('stations'))];
    expect(copied).toHaveLength(5);
    await storage.write(copied[0]!.path, new Uint8Array(copied[0]!.bytes)); // same size, wrong bytes
    const second = await copyStore(dir, location);
    expect(second.kept).toBe(4);
    expect(second.copied).toBe(second.files - 4);
    expect(await answer(location)).toEqual(await answer(dir));
  });

  it('refuses a source file that does not match its manifest entry, publishing nothing', async () => {
    const damaged = await tempDir();
    await writeSmallStore(damaged);
    const store = await openStore(damaged);
    const victim = manifestFiles(store.manifest)[3]!.path;
    await store.close();
    const bytes = await readFile(join(damaged, victim));
    bytes[100] ^= 0xff;
    await writeFile(join(damaged, victim), bytes);
    await expect(copyStore(damaged, bucket.location('damaged'))).rejects.toThrow(`${damaged}/${victim} does not match its manifest entry`);
    expect(await bucketStorage(bucket.location('damaged'), process.env).exists('manifest.json')).toBe(false);
  });

  it('refuses to move a store back to an older snapshot', async () => {
    const older = await tempDir();
    await writeSmallStore(older); // sequence 1, like `round`'s, but another snapshot
    await expect(copyStore(older, bucket.location('round'))).rejects.toThrow(
      /serves snapshot number 1 .* not older than .*'s 1; a copy does not move a store back/,
    );
  });
});
