import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { manifestFiles } from '../../lib/manifest.js';
import { openStore } from '../../lib/store.js';
import { vacuumStore } from '../../lib/vacuum.js';
import { createStoreWriter } from '../../lib/write.js';
import { day, tempDir, writeTinyStore } from '../helpers.js';

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1)).sort();
}

async function age(dir: string, paths: string[], minutes: number): Promise<void> {
  const then = new Date(Date.now() - minutes * 60_000);
  for (const p of paths) await utimes(join(dir, p), then, then);
}

describe('vacuumStore', () => {
  it('removes old unreferenced files and a killed commit\'s leftovers, and keeps the snapshot whole', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const before = await openStore(dir);
    const writer = createStoreWriter(dir, { base: before.manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(5) } });
    await writer.commit(); // the old station file is now unreferenced
    await writeFile(join(dir, 'manifest.json.123.456.tmp'), '{');
    await mkdir(join(dir, 'writing'), { recursive: true });
    await writeFile(join(dir, 'writing', 'deadbeef.pid'), '999999999'); // a writer that died
    await age(dir, await allFiles(dir), 60);
    const store = await openStore(dir);
    const referenced = manifestFiles(store.manifest).map((f) => f.path);
    const summary = await vacuumStore(dir);
    expect(summary.removed.sort()).toEqual([before.manifest.stations.partitions.ALPHA_STATION!.path, 'manifest.json.123.456.tmp', 'writing/deadbeef.pid'].sort());
    expect(await allFiles(dir)).toEqual(['manifest.json', ...referenced].sort());
    const rows = await (await openStore(dir)).stationTimeseries({ names: ['ALPHA_STATION'], start: '2021-01-01', end: '2021-01-01' });
    expect(rows[0]!['ATemp (degC)']).toBe(5);
  });

  it('keeps young files, for readers of the previous snapshot, and the files of a writer still at work', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const replaced = store.manifest.stations.partitions.ALPHA_STATION!.path;
    const first = createStoreWriter(dir, { base: store.manifest });
    await first.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(5) } });
    await first.commit();
    const busy = createStoreWriter(dir, { base: (await openStore(dir)).manifest }); // writing, not yet committed
    await busy.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(6) } });
    const files = await allFiles(dir);
    await age(dir, files.filter((f) => f !== replaced), 60);
    expect((await vacuumStore(dir)).removed).toEqual([]); // the replaced file is young; the busy writer's file is its own
    await age(dir, [replaced], 60);
    expect((await vacuumStore(dir, { dryRun: true })).removed).toEqual([replaced]);
    expect((await vacuumStore(dir)).removed).toEqual([replaced]);
    await expect(busy.commit()).resolves.toMatchObject({ snapshot: busy.snapshot }); // its files survived
    expect((await openStore(dir)).manifest.snapshot).toBe(busy.snapshot);
  });

  it('refuses to publish a snapshot whose files have disappeared', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const writer = createStoreWriter(dir, { base: (await openStore(dir)).manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(5) } });
    const mine = (await allFiles(dir)).filter((f) => f.includes(writer.snapshot) && f.endsWith('.parquet'));
    const { rm } = await import('node:fs/promises');
    await rm(join(dir, mine[0]!));
    await expect(writer.commit()).rejects.toThrow(/has disappeared; nothing was published/);
  });
});
