// The reads of an answer over many row groups or files are asked at once (their pages then inflate on every core, and
// the event loop does not wait on each read in turn): a byte source that counts the reads in flight sees several
// together, for every reservoir on one date, every station on one date, every reservoir over a range and one reservoir
// over many years (its next years asked while one is answered). The answers themselves are checked elsewhere
// (test/contract/golden.test.ts, test/lib/query/**); here, that they are the same through this source as through the
// store's own.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/errors.js';
import { openStore } from '../../../lib/open/store.js';
import { openStorage } from '../../../lib/store/location.js';
import type { ByteSource } from '../../../lib/store/source.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { tempDir } from '../../helpers.js';

// a folder's reads, each held back until the next turn of the event loop, counting how many are under way at once
function countingSource(dir: string): ByteSource & { most: number } {
  const inner = openStorage(dir);
  let now = 0;
  const source = {
    most: 0,
    async read(path: string, offset: number, length: number) {
      now++;
      source.most = Math.max(source.most, now);
      try {
        await new Promise((resolve) => setImmediate(resolve));
        return await inner.read(path, offset, length);
      } finally {
        now--;
      }
    },
    close: () => inner.close?.() ?? Promise.resolve(),
  };
  return source;
}

describe('reads of an answer over many row groups or files', () => {
  it('are under way together, and give the same answer', async () => {
    const dir = await tempDir();
    // 40 reservoirs x 90 days in row groups of 200 rows: 18 groups a file, most of which hold any one date
    await generateStore(dir, { reservoirs: 40, stations: 5, start: '2021-01-01', end: '2021-03-31', seed: 29, rowGroupSize: 200, byDateDays: 0 });
    const plain = await openStore(dir);
    const queries = [
      (s: typeof plain) => s.streamReservoirTimeseriesOnDate({ datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'NetE'], date: '2021-02-10' }),
      (s: typeof plain) => s.streamStationTimeseriesOnDate({ variables: ['ATemp', 'BP'], date: '2021-02-10' }),
      (s: typeof plain) =>
        s.streamReservoirTimeseries({
          names: s.manifest.reservoirs.names,
          datasets: ['nete-volume-calcs'],
          variables: ['NetE'],
          start: '2021-01-01',
          end: '2021-03-31',
        }),
    ];
    for (const [i, query] of queries.entries()) {
      const source = countingSource(dir);
      const counted = await openStore(dir, { source });
      const text = async (s: typeof plain) => {
        let out = '';
        for await (const chunk of query(s).json()) out += chunk;
        return out;
      };
      const [ours, theirs] = [await text(counted), await text(plain)];
      expect(ours.length).toBeGreaterThan(2);
      expect(ours).toBe(theirs);
      expect(source.most, ['every reservoir on a date', 'every station on a date', 'every reservoir over a range'][i]).toBeGreaterThan(1);
      await counted.close();
    }
    await plain.close();
  }, 60_000);

  it("of one reservoir's years are asked ahead of the year answered, in order, and a bad year fails the answer when its turn comes", async () => {
    const dir = await tempDir();
    // one file a year: one read under way at a time, year after year, without the reads asked ahead
    await generateStore(dir, { reservoirs: 4, stations: 1, start: '2018-01-01', end: '2021-12-31', seed: 31, byDateDays: 0 });
    const plain = await openStore(dir);
    const name = plain.manifest.reservoirs.names[1]!;
    const query = (s: typeof plain) =>
      s.streamReservoirTimeseries({ names: [name], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2018-01-01', end: '2021-12-31' });
    const text = async (s: typeof plain) => {
      let out = '';
      for await (const chunk of query(s).json()) out += chunk;
      return out;
    };
    const source = countingSource(dir);
    const counted = await openStore(dir, { source });
    source.most = 0; // the answer's reads only, not the store's opening
    const [ours, theirs] = [await text(counted), await text(plain)];
    await counted.close();
    // in date order, every day of the four years once
    const days = (JSON.parse(ours) as { start_date: string }[]).map((r) => r.start_date);
    expect(days.length).toBe(4 * 365 + 1);
    expect(days).toEqual([...days].sort());
    expect(new Set(days).size).toBe(days.length);
    expect(ours).toBe(theirs);
    expect(source.most).toBeGreaterThan(1);
    const last = plain.manifest.datasets['nete-volume-calcs']!.partitions.find((p) => p.year === 2021)!.files[0]!;
    await plain.close();

    // the last year's data bytes zeroed: its read, asked ahead, fails; the answer fails with it (and nothing is left unhandled)
    const bytes = await readFile(join(dir, last.path));
    bytes.fill(0, 4, last.bytes - last.footerBytes);
    await writeFile(join(dir, last.path), bytes);
    const fresh = await openStore(dir);
    await expect(text(fresh)).rejects.toThrow(StoreError);
    await fresh.close();
  }, 60_000);
});
