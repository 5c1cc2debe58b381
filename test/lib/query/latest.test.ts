// What `latest` (and the first day held) means, from the tiny store's manifest: 2020-12-30..2021-01-02 by construction.
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { firstReservoirDay, firstStationDay, latestReservoirDay, latestStationDay } from '../../../lib/query/latest.js';
import type { Manifest } from '../../../lib/store/manifest.js';
import { day, tempDir, writeTinyStore } from '../../helpers.js';

let manifest: Manifest;
beforeAll(async () => {
  const dir = await tempDir();
  await writeTinyStore(dir);
  manifest = (await openStore(dir)).manifest;
});

describe('latestReservoirDay and firstReservoirDay', () => {
  it('span the partitions of the datasets asked, ignoring datasets not held', () => {
    expect(latestReservoirDay(manifest, ['rtma', 'nete-volume-calcs'])).toBe(day('2021-01-02'));
    expect(firstReservoirDay(manifest, ['nete-volume-calcs', 'lem'])).toBe(day('2020-12-30'));
  });

  it('are undefined when the datasets hold nothing', () => {
    expect(latestReservoirDay(manifest, ['rtma'])).toBeUndefined();
    expect(firstReservoirDay(manifest, [])).toBeUndefined();
  });
});

describe('latestStationDay and firstStationDay', () => {
  it('span the stations asked, and are undefined for stations not held', () => {
    expect(latestStationDay(manifest, ['ALPHA_STATION', 'NOPE_STATION'])).toBe(day('2021-01-02'));
    expect(firstStationDay(manifest, ['ALPHA_STATION'])).toBe(day('2020-12-30'));
    expect(latestStationDay(manifest, ['NOPE_STATION'])).toBeUndefined();
    expect(firstStationDay(manifest, [])).toBeUndefined();
  });
});
