// refresh() called again while it runs (a server's timer ticking faster than a slow bucket answers): the switch to a
// new snapshot happens once, is reported once, and leaves one lease, that of the snapshot served.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { READERS_FOLDER } from '../../../lib/store/lease.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { day, tempDir, writeTinyStore } from '../../helpers.js';

describe('refresh at once', () => {
  it('switches to a new snapshot once, says so once, and holds one lease', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    const writer = createStoreWriter(dir, { base: store.manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(42) } });
    await writer.commit();
    const changed = await Promise.all([store.refresh(), store.refresh(), store.refresh()]);
    expect(changed.filter(Boolean)).toHaveLength(1);
    expect(store.manifest.snapshot).toBe(writer.snapshot);
    expect(await store.storage.list(READERS_FOLDER)).toHaveLength(1);
    expect(await store.refresh()).toBe(false);
    await store.close();
    expect(await store.storage.list(READERS_FOLDER)).toEqual([]);
  });
});
