// The read path's helpers against plain oracles: date and name overlap by enumerating days and names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlaps } from '../../../lib/dates.js';
import { ingest, textSource } from '../../../lib/ingest/ingest.js';
import { openStore } from '../../../lib/open/store.js';
import { fileHoldsNames } from '../../../lib/query/timeseries.js';
import type { ReaderCaches } from '../../../lib/store/partitions.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir } from '../../helpers.js';

const date = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);

describe('overlaps', () => {
  it('says whether a file and a range share a day, as enumerating their days does', () => {
    const span = fc.tuple(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 70 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    fc.assert(
      fc.property(span, span, ([fileStart, fileEnd], [start, end]) => {
        let shared = false;
        for (let d = fileStart; d <= fileEnd; d++) shared ||= d >= start && d <= end;
        expect(overlaps({ start: date(fileStart), end: date(fileEnd) }, date(start), date(end))).toBe(shared);
      }),
    );
  });

  it('says no for an empty file (no dates)', () => {
    expect(overlaps({ start: '', end: '' }, '2020-01-01', '2020-12-31')).toBe(false);
  });
});

describe('fileHoldsNames', () => {
  const letters = ['A', 'B', 'C', 'D', 'E'];
  const pair = <T>(of: fc.Arbitrary<T>, order: (a: T, b: T) => number) => fc.tuple(of, of).map(([a, b]): [T, T] => (order(a, b) <= 0 ? [a, b] : [b, a]));
  const names = pair(fc.constantFrom(...letters), (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const days = pair(fc.integer({ min: 0, max: 20 }), (a, b) => a - b);

  it('says whether a file may hold one of the names on one of the days, as enumerating both does', () => {
    fc.assert(
      fc.property(names, days, names, days, ([fileFirst, fileLast], [fileStart, fileEnd], [first, last], [start, end]) => {
        const sharedName = letters.some((n) => n >= fileFirst && n <= fileLast && n >= first && n <= last);
        let sharedDay = false;
        for (let d = fileStart; d <= fileEnd; d++) sharedDay ||= d >= start && d <= end;
        const file = { first: fileFirst, last: fileLast, start: date(fileStart), end: date(fileEnd) };
        expect(fileHoldsNames(file, first, last, date(start), date(end))).toBe(sharedName && sharedDay);
      }),
    );
  });
});

describe('reservoirsOnDate', () => {
  it('answers every reservoir on a date in batches of at most 1,000 names, as the range query answers each of them', async () => {
    // 2,345 reservoirs over three days in two datasets; some lack the day in one dataset, some in both
    const dir = await tempDir();
    const count = 2345;
    const names = Array.from({ length: count }, (_, i) => `R${String(i).padStart(5, '0')}`);
    const writer = createStoreWriter(dir, { rowGroupSize: 500 });
    await writer.writeReservoirMetadata(names.map((RES_NAME, i) => ({ RES_NAME, LAT: 30 + i / 1000 })));
    const rows = (skip: (i: number) => boolean) => {
      const held = names.flatMap((n, i) => (skip(i) ? [] : [n, n, n]));
      return { names: held, days: Int32Array.from(held, (_, k) => day('2021-03-01') + (k % 3)), index: held.map((n) => Number(n.slice(1))) };
    };
    const nete = rows((i) => i % 7 === 3);
    await writer.writeReservoirPartition('nete-volume-calcs', 2021, {
      names: nete.names,
      days: nete.days,
      values: { NetE: Float64Array.from(nete.index, (i, k) => (i % 11 === 0 ? NaN : i / 100 + k / 1000)) },
    });
    const rtma = rows((i) => i % 5 === 1);
    await writer.writeReservoirPartition('rtma', 2021, { names: rtma.names, days: rtma.days, values: { pr: Float64Array.from(rtma.index, (i) => i % 13) } });
    await writer.commit();

    const store = await openStore(dir);
    const query = { datasets: ['nete-volume-calcs', 'rtma'], variables: ['NetE', 'pr'] };
    const batches: number[] = [];
    const onDate: unknown[] = [];
    for await (const batch of store.streamReservoirTimeseriesOnDate({ ...query, date: '2021-03-02' }).batches) {
      batches.push(batch.length);
      onDate.push(...batch);
    }
    const range = await store.reservoirTimeseries({ ...query, names, start: '2021-03-02', end: '2021-03-02' });
    expect(onDate).toEqual(range);
    expect(onDate.length).toBe(names.filter((_, i) => i % 7 !== 3 || i % 5 !== 1).length);
    expect(batches.length).toBeGreaterThan(2);
    expect(Math.max(...batches)).toBeLessThanOrEqual(1000);
    let text = '';
    for await (const chunk of store.streamReservoirTimeseriesOnDate({ ...query, date: '2021-03-02' }).json()) text += chunk;
    expect(JSON.parse(text)).toEqual(range);
  });
});

describe('every reservoir on a date, asked again', () => {
  it('is answered from the day kept by the first answer, and a revision of that day is answered at once after refresh', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 5, stations: 1, start: '2021-03-01', end: '2021-03-31', seed: 5 });
    const store = await openStore(dir);
    const query = { date: '2021-03-31', datasets: ['lem'], variables: ['E_hs'], alsoReturn: ['status'] };
    const first = await store.reservoirTimeseriesOnDate(query);
    const caches = Reflect.get(store, 'caches') as ReaderCaches;
    const decoded = caches.counts.chunksDecoded;
    expect(await store.reservoirTimeseriesOnDate(query)).toEqual(first);
    expect(caches.counts.chunksDecoded).toBe(decoded); // nothing read or decoded again
    caches.columns.clear(); // not even from the chunk cache
    expect(await store.reservoirTimeseriesOnDate(query)).toEqual(first);
    expect(caches.counts.chunksDecoded).toBe(decoded);

    const revised = { ...first[2]!, 'E_hs (mm)': 7.25, status: 'Final' };
    await ingest(dir, [textSource('revision.json', JSON.stringify([revised]))]);
    await store.refresh();
    const after = await store.reservoirTimeseriesOnDate(query);
    expect(after).toEqual(first.map((r, i) => (i === 2 ? revised : r)));
  });
});

describe('reservoirRange over many names', () => {
  it('answers many names in order, read together, exactly as each name asked alone', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 40, stations: 1, start: '2020-12-20', end: '2021-01-10', seed: 11 });
    const store = await openStore(dir);
    const names = store.manifest.reservoirs.names;
    expect(names.length).toBeGreaterThanOrEqual(32); // the grouped reading starts at 32 names
    const day = fc.integer({ min: 0, max: 21 }).map((i) => new Date(Date.UTC(2020, 11, 20 + i)).toISOString().slice(0, 10));
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(['rtma', 'res', 'lem', 'nete-volume-calcs'], { minLength: 1 }),
        day,
        day,
        fc.subarray(['status', 'qflag', 'STATE']),
        fc.integer({ min: 32, max: 40 }),
        async (datasets, a, b, alsoReturn, count) => {
          const [start, end] = a <= b ? [a, b] : [b, a];
          const asked = names.slice(0, count);
          const query = { datasets, start, end, alsoReturn };
          const together = await store.reservoirTimeseries({ ...query, names: asked });
          const alone = [];
          for (const name of asked) alone.push(...(await store.reservoirTimeseries({ ...query, names: [name] })));
          expect(together).toEqual(alone);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('keeps the first part of a read larger than its cache, so the same answer again decodes less, not all of it again', async () => {
    const dir = await tempDir();
    // 40 reservoirs x 90 days in files of 720 rows (8 names) and row groups of 120: files read one after another
    await generateStore(dir, {
      reservoirs: 40,
      stations: 1,
      start: '2021-01-01',
      end: '2021-03-31',
      seed: 13,
      rowGroupSize: 120,
      rowsPerFile: 720,
      byDateDays: 0,
    });
    // a cache of about a third of the read: 40 x 90 rows of a date, a name and a value (8 bytes each, as counted)
    const store = await openStore(dir, { cacheBytes: 40_000 });
    const query = { names: store.manifest.reservoirs.names, datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2021-01-01', end: '2021-03-31' };
    const decoded = () => store.readStats().chunksDecoded;
    const first = await store.reservoirTimeseries(query);
    const once = decoded();
    const again = await store.reservoirTimeseries(query);
    const twice = decoded() - once;
    expect(again).toEqual(first);
    expect(first.length).toBe(40 * 90);
    expect(twice).toBeGreaterThan(0); // the cache holds less than the read
    expect(twice).toBeLessThan(once * 0.8); // what fitted was kept, and found again
    await store.close();
  });
});
