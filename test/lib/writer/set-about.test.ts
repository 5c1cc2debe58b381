// Setting what a store says of itself publishes a new snapshot with the same data and the new provenance.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { SYNTHETIC_SOURCE } from '../../../lib/store/about.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { setStoreAbout } from '../../../lib/writer/set-about.js';
import { tempDir } from '../../helpers.js';

describe('setStoreAbout', () => {
  it('changes the given fields only, in a new snapshot over the same files', async () => {
    const dir = await tempDir();
    const before = await generateStore(dir, { reservoirs: 2, stations: 0, start: '2021-01-01', end: '2021-01-10', seed: 5 });
    expect(before.about?.source).toBe(SYNTHETIC_SOURCE);
    const after = await setStoreAbout(dir, { title: 'Lakes of the test', description: 'two lakes', dayTimeZone: 'America/Chicago' });
    expect(after.snapshot).not.toBe(before.snapshot);
    expect(after.about).toEqual({ ...before.about, title: 'Lakes of the test', description: 'two lakes', dayTimeZone: 'America/Chicago' });
    expect(after.datasets).toEqual(before.datasets); // the same files
    const store = await openStore(dir);
    try {
      expect(store.about().title).toBe('Lakes of the test');
      expect(store.synthetic).toBe(true); // the kind of data is not the keeper's to change
      expect((await store.listSnapshots()).length).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('refuses an empty field, an unknown one and a folder without a store', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 1, stations: 0, start: '2021-01-01', end: '2021-01-03', seed: 5 });
    await expect(setStoreAbout(dir, { title: '  ' })).rejects.toThrow(/title must not be empty/);
    await expect(setStoreAbout(dir, { data: 'mirror' } as never)).rejects.toThrow(/not a field/);
    await expect(setStoreAbout(await tempDir(), { title: 'x' })).rejects.toThrow(/holds no store/);
  });
});
