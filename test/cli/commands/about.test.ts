// evap about shows and sets what a store says of itself; evap demo --database twdb writes the Texas-like demo store.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { texasReservoirs } from '../../../lib/model/texas.js';
import { openStore } from '../../../lib/open/store.js';
import { tempDir } from '../../helpers.js';
import { evap } from '../harness.js';

describe('evap demo --database twdb, evap about', () => {
  it('writes the Texas-like demo store, then shows and changes its provenance without touching its data', async () => {
    const out = join(await tempDir(), 'twdb');
    const made = await evap(['demo', '--database', 'twdb', '--out', out]);
    expect(made.code, made.stderr).toBe(0);
    const store = await openStore(out);
    try {
      expect(store.manifest.reservoirs.names).toEqual(texasReservoirs.map((r) => r.name).sort());
      expect(store.manifest.stations.names).toEqual([]);
      expect(store.reservoirMetadata(['LAKE TRAVIS'])[0]).toMatchObject({ STATE: 'TX', LAT: 30.39, LON: -97.91 });
      expect(store.about()).toMatchObject({ data: 'synthetic', source: 'synthetic, seeded model' });
      const shown = await evap(['about', '--store', out]);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/^title: evap synthetic Texas-like store/m);
      expect(shown.stdout).toMatch(/^source: synthetic, seeded model$/m);

      const set = await evap(['about', '--store', out, '--title', 'Texas test lakes', '--licence', 'CC0', '--day-time-zone', 'America/Chicago']);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stderr).toMatch(/published snapshot \S+ with title, licence, dayTimeZone changed/);
      expect(set.stdout).toMatch(/^title: Texas test lakes$/m);
      const before = await store.reservoirTimeseries({ names: ['LAKE TRAVIS'], start: '2021-07-01', end: '2021-07-03' });
      expect(await store.refresh()).toBe(true);
      expect(store.about()).toMatchObject({ title: 'Texas test lakes', licence: 'CC0', dayTimeZone: 'America/Chicago', data: 'synthetic' });
      expect(await store.reservoirTimeseries({ names: ['LAKE TRAVIS'], start: '2021-07-01', end: '2021-07-03' })).toEqual(before);
    } finally {
      await store.close();
    }
    expect((await evap(['about', '--store', out, '--title', ' '])).stderr).toContain('--title must not be empty');
    expect((await evap(['demo', '--database', 'conus', '--out', join(out, 'x')])).stderr).toContain('--database must be one of usbr, twdb');
  }, 120_000); // five CLI processes, one writing a store
});
