// The text of an answer on one date, kept for the same answer asked again: each ask, in any order, is exactly the
// JSON (or CSV) of that query's records, and the kept text stays under the reader's bound.
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../../lib/format/csv.js';
import { generateStore } from '../../../lib/model/generate.js';
import type { ReaderCaches } from '../../../lib/store/partitions.js';
import { openStore } from '../../../lib/store/store.js';
import type { ReservoirDateQuery } from '../../../lib/types.js';
import { tempDir } from '../../helpers.js';

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

// queries that differ only in what the kept text must depend on: the date, the units, the columns, the output
const queries: ReservoirDateQuery[] = [
  { date: '2021-03-30', datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'tmmx_c', 'NetE', 'E_volume'] },
  { date: '2021-03-31', datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'tmmx_c', 'NetE', 'E_volume'] },
  { date: '2021-03-31', datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'tmmx_c', 'NetE', 'E_volume'], units: 'english' },
  { date: '2021-03-31', datasets: ['rtma', 'nete-volume-calcs'], variables: ['tmmx_c', 'pr', 'NetE', 'E_volume'] },
  { date: '2021-03-31', datasets: ['nete-volume-calcs'], variables: ['NetE'] },
  { date: '2021-03-31', datasets: ['nete-volume-calcs'], variables: ['NetE'], alsoReturn: ['STATE'] },
];

describe('every reservoir on a date as text, asked again', () => {
  it('is each time the JSON and CSV of that query records, whichever was asked before', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 40, stations: 1, start: '2021-03-01', end: '2021-03-31', seed: 7 });
    const store = await openStore(dir);
    const expected = await Promise.all(
      queries.map(async (q) => {
        const stream = store.streamReservoirTimeseriesOnDate(q);
        const records = await stream.records();
        expect(records.length).toBeGreaterThan(0);
        return { json: JSON.stringify(records), csv: recordsToCsv(records, stream.columns) };
      }),
    );
    for (const round of [0, 1, 2])
      for (const [i, q] of round === 1 ? [...queries.entries()].reverse() : [...queries.entries()]) {
        expect(await text(store.streamReservoirTimeseriesOnDate(q).json())).toBe(expected[i]!.json);
        expect(await text(store.streamReservoirTimeseriesOnDate(q).csv())).toBe(expected[i]!.csv);
      }
    await store.close();
  });

  it('keeps the text within the cache of derived values (none of it where the bound is smaller)', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 60, stations: 1, start: '2021-03-01', end: '2021-03-31', seed: 3 });
    const query = queries[1]!;
    for (const cacheBytes of [256 * 2 ** 20, 64 * 2 ** 10]) {
      const store = await openStore(dir, { cacheBytes });
      const caches = Reflect.get(store, 'caches') as ReaderCaches;
      await store.reservoirTimeseriesOnDate(query); // the day's values kept, no text made
      const before = caches.derived.size;
      const first = await text(store.streamReservoirTimeseriesOnDate(query).json());
      const kept = caches.derived.size - before;
      if (caches.derived.maxBytes > 2 * first.length)
        expect(kept).toBeGreaterThanOrEqual(2 * (first.length - 2)); // the text without its brackets, two bytes a character
      else expect(kept).toBe(0);
      expect(caches.derived.size).toBeLessThanOrEqual(caches.derived.maxBytes);
      const decoded = caches.counts.chunksDecoded;
      expect(await text(store.streamReservoirTimeseriesOnDate(query).json())).toBe(first);
      expect(caches.counts.chunksDecoded).toBe(decoded);
      await store.close();
    }
  });
});
