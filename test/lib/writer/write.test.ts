// The store writer's commit: one winner among racing writers, a dead writer's lock taken over, late snapshots honoured.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir, writeTinyStore } from '../../helpers.js';

describe('StoreWriter.commit', () => {
  it('refuses to publish over a snapshot it did not start from, and publishes nothing', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const first = createStoreWriter(dir, { base: store.manifest });
    const second = createStoreWriter(dir, { base: store.manifest });
    await first.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(5) } });
    await second.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(7) } });
    await first.commit();
    await expect(second.commit()).rejects.toThrow(/the store changed while this write was under way/);
    await store.refresh();
    expect((await store.stationTimeseries({ names: ['ALPHA_STATION'], start: '2021-01-01', end: '2021-01-01' }))[0]!['ATemp (degC)']).toBe(5);
  });

  it('takes over the lock of a writer that died mid-commit', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    await writeFile(join(dir, 'manifest.json.lock'), '999999999'); // no such process
    const store = await openStore(dir);
    const writer = createStoreWriter(dir, { base: store.manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(1) } });
    await expect(writer.commit()).resolves.toMatchObject({ snapshot: writer.snapshot });
  });

  it('publishes exactly one of many writers racing from the same snapshot', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openStore(dir)).manifest;
    const writers = Array.from({ length: 12 }, () => createStoreWriter(dir, { base }));
    for (const [i, w] of writers.entries())
      await w.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(i) } });
    const results = await Promise.allSettled(writers.map((w) => w.commit()));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const store = await openStore(dir);
    expect(store.manifest.sequence).toBe(base.sequence + 1);
  });

  it('serves, and builds on, a numbered snapshot published by a writer stopped before it updated manifest.json', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openStore(dir)).manifest;
    const late = { ...base, snapshot: 'published-late', sequence: base.sequence + 1 };
    await writeFile(join(dir, 'snapshots', `${String(late.sequence).padStart(10, '0')}.json`), JSON.stringify(late));
    expect((await openStore(dir)).manifest.snapshot).toBe('published-late');
    await expect(createStoreWriter(dir, { base }).commit()).rejects.toThrow(/serves snapshot published-late/);
    const next = await createStoreWriter(dir, { base: late }).commit();
    expect(next.sequence).toBe(late.sequence + 1);
  });
});
