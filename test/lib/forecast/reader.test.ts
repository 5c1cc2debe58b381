// The forecasts are read by the store's one Parquet reader: their reads count in its statistics, their decoded chunks
// sit in its byte-bounded caches (a store given no cache reads them again), and nothing is kept beside them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'evap-forecast-reader-'));
  await generateStore(dir, {
    reservoirs: 6,
    stations: 0,
    start: '2021-06-01',
    end: '2021-06-10',
    seed: 4,
    forecasts: { firstIssue: '2021-06-05', lastIssue: '2021-06-06', members: 4 },
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the forecasts on the store's reader", () => {
  it('count in readStats, and are read once while the cache holds them', async () => {
    const store = await openStore(dir);
    const before = store.readStats();
    const first = await store.forecastDaily({ names: ['ALL'], variables: ['E_hs'] });
    const after = store.readStats();
    expect(first.length).toBeGreaterThan(0);
    expect(after.bytesRead).toBeGreaterThan(before.bytesRead);
    expect(after.chunksDecoded).toBeGreaterThan(before.chunksDecoded);
    expect(after.cachedColumnBytes).toBeGreaterThan(before.cachedColumnBytes);
    const again = await store.forecastDaily({ names: ['ALL'], variables: ['E_hs'] });
    expect(again).toEqual(first);
    expect(store.readStats().bytesRead).toBe(after.bytesRead); // answered from the caches
    await store.close();
  });

  it('are read again by a store given no cache, with the same answer', async () => {
    const store = await openStore(dir, { cacheBytes: 0 });
    const first = await store.forecastTotal({ names: ['ALL'], variables: ['E_hs'] });
    const read = store.readStats().bytesRead;
    expect(await store.forecastTotal({ names: ['ALL'], variables: ['E_hs'] })).toEqual(first);
    expect(store.readStats().bytesRead).toBeGreaterThan(read);
    await store.close();
  });
});
