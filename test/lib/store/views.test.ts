// Views of past snapshots: SharedViews against a hand-written model of an LRU cache with uses counted, then the views
// of a real store folder under a real vacuum (leases checked by listing readers/, files by listing the folder), and
// the manifest reads a repeated as_of makes, counted on the store's storage.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../lib/errors.js';
import { EvapStore, KEPT_VIEWS, openStore, StoreReader, StoreView } from '../../../lib/open/store.js';
import { indexPath } from '../../../lib/store/file-index.js';
import { openStorage } from '../../../lib/store/location.js';
import type { Manifest } from '../../../lib/store/manifest.js';
import type { Storage } from '../../../lib/store/storage.js';
import { type Lent, SharedViews } from '../../../lib/store/views.js';
import { TABLES_FOLDER } from '../../../lib/tables/catalog.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir, writeTinyStore } from '../../helpers.js';

const KEPT = KEPT_VIEWS;

describe('SharedViews', () => {
  type Op = { kind: 'use'; key: number } | { kind: 'done'; index: number } | { kind: 'close' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('use' as const), key: fc.integer({ min: 0, max: 6 }) }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('done' as const), index: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const) }) },
  );

  it('opens a view only when the last `capacity` keys used do not hold it, and releases it once, when out of them and unused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), async (capacity, ops) => {
        const views = new SharedViews<number, number>(capacity);
        const released: number[] = [];
        let opened = 0;
        // the model: keys by recency (most recent last, at most `capacity`), the instance each holds, uses per instance
        let recent: number[] = [];
        const instanceOf = new Map<number, number>();
        const uses = new Map<number, number>();
        let closed = false;
        const lent: { instance: number; use: Lent<number> }[] = [];
        for (const step of ops) {
          if (step.kind === 'use') {
            const cached = recent.includes(step.key) ? instanceOf.get(step.key) : undefined;
            const instance = cached ?? opened;
            const use = await views.use(step.key, async () => ({ value: opened++, release: async () => void released.push(instance) }));
            expect(use.value).toBe(instance);
            uses.set(instance, (uses.get(instance) ?? 0) + 1);
            lent.push({ instance, use });
            if (!closed) {
              recent = [...recent.filter((k) => k !== step.key), step.key].slice(-capacity);
              instanceOf.set(step.key, instance);
            }
          } else if (step.kind === 'done' && lent.length > 0) {
            const [{ instance, use }] = lent.splice(step.index % lent.length, 1) as [(typeof lent)[number]];
            await use.done();
            await use.done(); // a second call does nothing
            uses.set(instance, uses.get(instance)! - 1);
          } else if (step.kind === 'close') {
            closed = true;
            recent = [];
            await views.close();
          }
          const kept = new Set(recent.map((k) => instanceOf.get(k)));
          const due = [...uses.keys()].filter((i) => !kept.has(i) && uses.get(i) === 0);
          expect([...released].sort((a, b) => a - b)).toEqual(due.sort((a, b) => a - b));
        }
      }),
    );
  });

  it('opens a view asked twice at once only once, and tries again after an opening that failed, releasing nothing', async () => {
    const views = new SharedViews<string, string>(2);
    let opens = 0;
    const open = async () => {
      opens++;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { value: `view ${opens}`, release: async () => {} };
    };
    const [a, b] = await Promise.all([views.use('a', open), views.use('a', open)]);
    expect([a.value, b.value, opens]).toEqual(['view 1', 'view 1', 1]);
    await expect(views.use('b', () => Promise.reject(new Error('no such snapshot')))).rejects.toThrow('no such snapshot');
    expect((await views.use('b', open)).value).toBe('view 2');
  });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const readersOf = async (dir: string) =>
  (await readdir(join(dir, 'readers')).catch(() => [] as string[])).map((n) => Number(n.split('.')[0])).sort((a, b) => a - b);
const exists = (dir: string, path: string) =>
  readFile(join(dir, path)).then(
    () => true,
    () => false,
  );
const station = { names: ['ALPHA_STATION'], start: '2020-12-30', end: '2021-01-02' };

/**
 * The tiny store (snapshot 1: ATemp 0, 1, 2, 3 on 2020-12-30..2021-01-02), then `count` snapshots each replacing the
 * station file by one day, 2021-01-01, of ATemp 10 x its sequence number; `times[i]` is an instant when snapshot i + 1 was current.
 */
async function storeWithHistory(count: number): Promise<{ dir: string; times: string[]; stationFile: (sequence: number) => Promise<string> }> {
  const dir = await tempDir();
  await writeTinyStore(dir);
  const times: string[] = [];
  for (let sequence = 2; sequence <= count + 1; sequence++) {
    await pause(5);
    times.push(new Date().toISOString());
    await pause(5);
    await publishStation(dir, 10 * sequence);
  }
  await pause(5);
  times.push(new Date().toISOString());
  const stationFile = async (sequence: number) =>
    JSON.parse(await readFile(join(dir, 'snapshots', `${String(sequence).padStart(10, '0')}.json`), 'utf8')).stations.partitions.ALPHA_STATION.path as string;
  return { dir, times, stationFile };
}

async function publishStation(dir: string, value: number): Promise<void> {
  const base = await openStore(dir);
  const writer = createStoreWriter(dir, { base: base.manifest });
  await base.close();
  await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(value) } });
  await writer.commit();
}

const atemps = (rows: Record<string, unknown>[]) => rows.map((r) => r['ATemp (degC)']);

describe('EvapStore.asOf', () => {
  it("gives a view of one snapshot with the store's queries: asOf asked of it is its store's, streams refuse asOf on both, and its close leaves the store open", async () => {
    const { dir, times } = await storeWithHistory(2);
    const store = await openStore(dir);
    const view = await store.asOf(times[0]!);
    expect([view instanceof StoreView, view instanceof StoreReader, view instanceof EvapStore]).toEqual([true, true, false]);
    expect(['refresh', 'readStats', 'readStationPartition'].filter((m) => m in view)).toEqual([]); // the store's alone: a view reads one snapshot
    expect(atemps(await view.stationTimeseries(station))).toEqual([0, 1, 2, 3]);
    // an asOf asked of a view answers from the store as it was then, not from the view's snapshot
    expect(atemps(await view.stationTimeseries({ ...station, asOf: times[1]! }))).toEqual([20]);
    const latest = await view.asOf(times[2]!);
    expect(atemps(await latest.stationTimeseries(station))).toEqual([30]);
    await latest.close();
    for (const reader of [store, view])
      expect(() => reader.streamStationTimeseries({ ...station, asOf: times[1]! })).toThrow(/stream from \(await store.asOf\(time\)\)/);
    await view.close();
    expect(atemps(await store.stationTimeseries(station))).toEqual([30]);
    expect(atemps(await store.stationTimeseries({ ...station, asOf: times[0]! }))).toEqual([0, 1, 2, 3]);
    await store.close();
  });

  it("keeps a view's files through a vacuum while its store keeps it, and lets the next vacuum remove them once the store is closed", async () => {
    const { dir, times, stationFile } = await storeWithHistory(2);
    const [first, second] = [await stationFile(1), await stationFile(2)];
    const store = await openStore(dir);
    const view = await store.asOf(times[0]!); // nothing read but its metadata yet
    expect(await readersOf(dir)).toEqual([1, 3]); // the view's, the store's own
    const summary = await vacuumStore(dir, { minAgeMs: 0 });
    expect(summary.removed).toContain(second); // the vacuum ran: the snapshot nobody holds went
    expect(summary.removed).not.toContain(first);
    expect(atemps(await view.stationTimeseries(station))).toEqual([0, 1, 2, 3]); // read after the vacuum, from its files
    await view.close();
    expect(await readersOf(dir)).toEqual([1, 3]); // still kept by the store for the next as_of
    expect((await vacuumStore(dir, { minAgeMs: 0 })).removed).toEqual([]);
    expect(atemps(await store.stationTimeseries({ ...station, asOf: times[0]! }))).toEqual([0, 1, 2, 3]);
    await store.close();
    expect(await readersOf(dir)).toEqual([]);
    const after = await vacuumStore(dir, { minAgeMs: 0 });
    expect(after.removed).toEqual(expect.arrayContaining([first, 'snapshots/0000000001.json']));
    expect(await exists(dir, first)).toBe(false);
  });

  it(`keeps ${KEPT} views open, evicting the least recently used, and releases an evicted view's lease only when its last use ends`, async () => {
    const { dir, times, stationFile } = await storeWithHistory(KEPT + 1); // snapshots 1 .. KEPT + 2, the last current
    const oldestFile = await stationFile(1);
    const store = await openStore(dir);
    const oldest = await store.asOf(times[0]!);
    for (let sequence = 2; sequence <= KEPT + 1; sequence++) {
      // a query with asOf ends its use of the view when answered
      expect(atemps(await store.stationTimeseries({ ...station, asOf: times[sequence - 1]! }))).toEqual([10 * sequence]);
    }
    // the oldest is out of the cache now, but in use: still leased, and a vacuum leaves it
    expect(await readersOf(dir)).toEqual(Array.from({ length: KEPT + 2 }, (_, i) => i + 1));
    expect((await vacuumStore(dir, { minAgeMs: 0 })).removed).toEqual([]);
    expect(atemps(await oldest.stationTimeseries(station))).toEqual([0, 1, 2, 3]);
    await oldest.close();
    expect(await readersOf(dir)).toEqual(Array.from({ length: KEPT + 1 }, (_, i) => i + 2));
    // its stations' copy too (lib/store/by-date.ts): two months, each made again by the next station written
    const firstSnapshot = JSON.parse(await readFile(join(dir, 'snapshots', '0000000001.json'), 'utf8')) as Manifest;
    const firstCopies = (firstSnapshot.stations.byDate ?? []).flatMap((f) => [f.path, f.index!.path]);
    expect(firstCopies).toHaveLength(4);
    const summary = await vacuumStore(dir, { minAgeMs: 0 });
    expect(summary.removed.filter((path) => !path.startsWith(`${TABLES_FOLDER}/`)).sort()).toEqual(
      [oldestFile, indexPath(oldestFile), ...firstCopies, 'snapshots/0000000001.json'].sort(),
    );
    expect(
      summary.removed.filter((path) => path.startsWith(`${TABLES_FOLDER}/`)).every((path) => path.startsWith(`${TABLES_FOLDER}/station_timeseries/`)),
    ).toBe(true); // its Iceberg snapshot's metadata
    // the store's history still names snapshot 1: asked again, it finds it retired and reads the history again
    await expect(store.asOf(times[0]!)).rejects.toThrow(InvalidParameterError);
    await expect(store.asOf(times[0]!)).rejects.toThrow(/older than the retained history: the oldest snapshot is 2/);
    // the least recently used goes first: asking for snapshot 2 again, then a newer one, evicts 3, not 2
    await (await store.asOf(times[1]!)).close();
    await (await store.asOf(times.at(-1)!)).close();
    expect(await readersOf(dir)).toEqual([2, ...Array.from({ length: KEPT - 2 }, (_, i) => i + 4), KEPT + 2, KEPT + 2]); // and the store's own
    await store.close();
    expect(await readersOf(dir)).toEqual([]);
  });

  it('refuses a time whose snapshot a vacuum retired, naming what is retained, and never answers from an older kept one', async () => {
    const { dir, times } = await storeWithHistory(4); // snapshots 1 .. 5, the last current; 2 to 5 hold ATemp 20 .. 50
    const store = await openStore(dir);
    const kept = await store.asOf(times[1]!); // holds snapshot 2 through the vacuum; the store's history read names 1 to 5
    await vacuumStore(dir, { minAgeMs: 0 }); // retires 1, 3 and 4
    const fresh = await openStore(dir);
    expect(atemps(await store.stationTimeseries({ ...station, asOf: times[1]! }))).toEqual([20]); // its history knows when 3 came
    // a history read after the vacuum lost snapshot 3's time with it: 3 may have been current by then, so refused
    await expect(fresh.asOf(times[1]!)).rejects.toThrow(/snapshots 3-4 were retired by a vacuum/);
    for (const asker of [store, fresh]) {
      for (const time of [times[2]!, times[3]!]) {
        await expect(asker.asOf(time)).rejects.toThrow(InvalidParameterError);
        await expect(asker.asOf(time)).rejects.toThrow(
          /falls after snapshot 2 .* and before 5 .* snapshots 3-4 were retired by a vacuum, so which one was current then is no longer known; the retained snapshots are 2, 5$/,
        );
      }
      expect(atemps(await asker.stationTimeseries({ ...station, asOf: times[4]! }))).toEqual([50]);
      if (asker !== store) await asker.close();
    }
    expect(atemps(await kept.stationTimeseries(station))).toEqual([20]); // the view taken before still answers, from its files
    await kept.close();
    await store.close();
  });

  it('reads the history once per served snapshot: a repeated as_of reads no manifest and takes no lease', async () => {
    const { dir, times } = await storeWithHistory(2);
    const counts = { readText: 0, list: 0, mark: 0 };
    const folder = openStorage(dir);
    const counted: Storage = {
      ...folder,
      readText: (path) => {
        counts.readText++;
        return folder.readText(path);
      },
      list: (path) => {
        counts.list++;
        return folder.list(path);
      },
      mark: (path) => {
        counts.mark++;
        return folder.mark(path);
      },
    };
    const store = await openStore(counted);
    const reset = () => Object.assign(counts, { readText: 0, list: 0, mark: 0 });
    reset();
    expect(atemps(await store.stationTimeseries({ ...station, asOf: times[0]! }))).toEqual([0, 1, 2, 3]);
    expect(counts).toEqual({ readText: 4, list: 1, mark: 1 }); // manifest.json, the next one's name (absent), the two snapshot files before it; the lease
    reset();
    for (let i = 0; i < 3; i++) expect(atemps(await store.stationTimeseries({ ...station, asOf: times[0]! }))).toEqual([0, 1, 2, 3]);
    expect(counts).toEqual({ readText: 0, list: 0, mark: 0 });
    expect(atemps(await store.stationTimeseries({ ...station, asOf: times[1]! }))).toEqual([20]);
    expect(counts).toEqual({ readText: 0, list: 0, mark: 1 }); // another snapshot: its lease only
    // a new snapshot: once the store serves it, the history is read again and names it
    await publishStation(dir, 99);
    reset();
    expect(atemps(await store.stationTimeseries({ ...station, asOf: new Date().toISOString() }))).toEqual([30]); // not served yet
    expect(counts.readText).toBe(0);
    expect(await store.refresh()).toBe(true);
    reset();
    expect(atemps(await store.stationTimeseries({ ...station, asOf: new Date().toISOString() }))).toEqual([99]);
    expect(counts.readText).toBeGreaterThan(0);
    await store.close();
  });
});
