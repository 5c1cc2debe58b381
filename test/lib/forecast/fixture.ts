// Test aid: a small generated store with forecasts (two reservoirs' estimates over 2019-2021 for their normals, issues
// on ten days of June 2021, twelve members kept for the last six), made once per test process and only read. Test
// files that share a process (vitest's isolate: false) share it: a clean-up after the first file closed and removed it
// under the next one, and an afterAll registered after an await was never run (its folder left behind).
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';

export const fixtureNames = ['LAKE ALICE', 'LAKE ESTES'];

let made: Promise<EvapStore> | undefined;

export function forecastStore(): Promise<EvapStore> {
  made ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evap-forecast-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    // the first 36 reference reservoirs, in name order, include LAKE ALICE and LAKE ESTES; the forecasts are for those two
    await generateStore(dir, {
      reservoirs: 36,
      stations: 0,
      start: '2019-06-01',
      end: '2021-07-31',
      seed: 11,
      forecasts: { firstIssue: '2021-06-01', lastIssue: '2021-06-10', members: 12, keepMembers: 6, names: fixtureNames },
    });
    return openStore(dir);
  })();
  return made;
}
