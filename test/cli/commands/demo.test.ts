// evap demo: the demo store written into a folder, and not over one already there unless asked.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { tempDir } from '../../helpers.js';
import { evap } from '../harness.js';

describe('evap demo', () => {
  it('writes the demo store, and refuses to overwrite it without --force', async () => {
    const out = join(await tempDir(), 'demo');
    const made = await evap(['demo', '--out', out]);
    expect(made.code, made.stderr).toBe(0);
    const store = await openStore(out);
    expect(store.manifest.reservoirs.names).toHaveLength(67);
    expect(store.manifest.reservoirs.names).toEqual(expect.arrayContaining(['LAKE MEAD', 'LAKE POWELL', 'LAKE ALICE']));
    expect(store.listStationDates()).toEqual([{ start_date: expect.stringMatching(/^2010-/), end_date: '2021-12-31' }]);
    await store.close();
    const again = await evap(['demo', '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds a store; pass --force');
    expect((await evap(['demo', '--out', out, '--if-missing'])).code).toBe(0);
    expect((await evap(['demo'])).stderr).toContain('--out is required');
  }, 120_000); // the whole demo store: about 6 s of CPU, past 30 s of wall time on a machine shared with other work
});
