import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { indexPath } from '../../../lib/store/file-index.js';
import { type Manifest, manifestFiles } from '../../../lib/store/manifest.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir, writeTinyStore } from '../../helpers.js';

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

async function age(dir: string, paths: string[], minutes: number): Promise<void> {
  const then = new Date(Date.now() - minutes * 60_000);
  for (const p of paths) await utimes(join(dir, p), then, then);
}

/** The files of the stations' date-major copy (lib/store/by-date.ts) and their indexes. */
function stationCopyFiles(manifest: Manifest): string[] {
  return (manifest.stations.byDate ?? []).flatMap((f) => [f.path, f.index!.path]);
}

/** Publishes a new ALPHA_STATION file (ATemp = value) over the store's current snapshot. */
async function replaceStation(dir: string, value: number): Promise<void> {
  const store = await openStore(dir);
  const writer = createStoreWriter(dir, { base: store.manifest });
  await store.close();
  await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(value) } });
  await writer.commit();
}

describe('vacuumStore', () => {
  it("removes files of snapshots replaced long ago and a killed commit's leftovers, and keeps the snapshot whole", async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const before = await openStore(dir);
    const replaced = before.manifest.stations.partitions.ALPHA_STATION!.path;
    const copies = stationCopyFiles(before.manifest); // a station written, the stations' copy of its months is made again
    expect(copies.length).toBe(4); // two months, a file and an index each
    await before.close();
    await replaceStation(dir, 5);
    await writeFile(join(dir, 'manifest.json.123.456.tmp'), '{');
    await mkdir(join(dir, 'writing'), { recursive: true });
    await writeFile(join(dir, 'writing', 'deadbeef.pid'), '999999999'); // a writer that died
    await age(dir, await allFiles(dir), 60);
    const summary = await vacuumStore(dir, { minAgeMs: 0 });
    const [tables, others] = [summary.removed.filter((p) => p.startsWith('tables/')), summary.removed.filter((p) => !p.startsWith('tables/'))];
    expect(others.sort()).toEqual(
      [replaced, indexPath(replaced), ...copies, 'manifest.json.123.456.tmp', 'snapshots/0000000001.json', 'writing/deadbeef.pid'].sort(),
    );
    // the station table's expired snapshot: its manifest list and the manifest of the replaced file
    expect(tables.map((p) => p.replace(/m-\w+-/, 'm-*-')).sort()).toEqual(
      ['tables/station_timeseries/metadata/m-*-1.avro', 'tables/station_timeseries/metadata/snap-1.avro'].sort(),
    );
    const store = await openStore(dir);
    const referenced = manifestFiles(store.manifest).map((f) => f.path);
    const rows = await store.stationTimeseries({ names: ['ALPHA_STATION'], start: '2021-01-01', end: '2021-01-01' });
    await store.close();
    expect((await allFiles(dir)).filter((p) => !p.startsWith('tables/'))).toEqual(['manifest.json', 'snapshots/0000000002.json', ...referenced].sort());
    expect(rows[0]!['ATemp (degC)']).toBe(5);
  });

  it('counts age from the snapshot that replaced a file, not from the file, however old the file is', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    await age(dir, await allFiles(dir), 60 * 24 * 7); // files a week old, as in a real store
    await replaceStation(dir, 5); // ... replaced just now
    expect((await vacuumStore(dir)).removed).toEqual([]);
    // the old file, its index and its snapshot, and the stations' copy of its two months (a file and an index each)
    expect((await vacuumStore(dir, { minAgeMs: 0, dryRun: true })).removed.length).toBe(3 + 4);
  });

  it('keeps every file of a snapshot that an open store still reads, until it is closed', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const session = await openStore(dir); // a notebook session opened before the ingest
    await replaceStation(dir, 5);
    await replaceStation(dir, 6);
    const summary = await vacuumStore(dir, { minAgeMs: 0 });
    expect(summary.retained).toBe(1);
    // the middle snapshot's station file and its copy of January; its December (ALPHA_STATION left it) the last keeps
    expect(summary.removed.filter((p) => p.endsWith('.parquet'))).toHaveLength(1 + 1);
    const rows = await session.stationTimeseries({ names: ['ALPHA_STATION'], start: '2020-12-30', end: '2021-01-02' });
    expect(rows.map((r) => r['ATemp (degC)'])).toEqual([0, 1, 2, 3]); // its own snapshot, whole
    await session.close();
    expect((await vacuumStore(dir, { minAgeMs: 0 })).removed.filter((p) => p.endsWith('.parquet'))).toHaveLength(1 + 2); // and both months of its copy
  });

  it("forgets a dead process's lease", async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    await mkdir(join(dir, 'readers'), { recursive: true });
    await writeFile(join(dir, 'readers', '1.999999999.abcd.lease'), '999999999 '); // its reader died
    await replaceStation(dir, 5);
    const summary = await vacuumStore(dir, { minAgeMs: 0 });
    expect(summary.removed).toContain('readers/1.999999999.abcd.lease');
    expect(summary.retained).toBe(0);
  });

  it('keeps young unpublished files and the files of a writer still at work', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const busy = createStoreWriter(dir, { base: (await openStore(dir)).manifest }); // writing, not yet committed
    await busy.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(6) } });
    await busy.writeReservoirPartition('nete-volume-calcs', 2021, {
      names: ['ALPHA LAKE'],
      days: Int32Array.of(day('2021-01-01')),
      values: { NetE: Float64Array.of(9) },
    }); // part-<snapshot>-00000
    await age(dir, await allFiles(dir), 60);
    const summary = await vacuumStore(dir, { minAgeMs: 0 });
    expect(summary.removed).toEqual([]); // the busy writer's file is its own
    expect(summary.tooRecent).toBe(4); // and counted as kept (its station and reservoir files and their indexes)
    await expect(busy.commit()).resolves.toMatchObject({ snapshot: busy.snapshot }); // its files survived
    expect((await openStore(dir)).manifest.snapshot).toBe(busy.snapshot);
  });

  it('refuses to publish a snapshot whose files have disappeared', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const writer = createStoreWriter(dir, { base: (await openStore(dir)).manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(5) } });
    const mine = (await allFiles(dir)).filter((f) => f.includes(writer.snapshot) && f.endsWith('.parquet'));
    await rm(join(dir, mine[0]!));
    await expect(writer.commit()).rejects.toThrow(/has disappeared; nothing was published/);
  });
});
