// evap generate: a store of the size and span asked, with the values the seeded model gives for those options.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { tempDir } from '../../helpers.js';
import { evap } from '../harness.js';

describe('evap generate', () => {
  it('generates a store of the size asked', async () => {
    const out = join(await tempDir(), 'gen');
    const run = await evap(['generate', '--out', out, '--reservoirs', '3', '--stations', '2', '--start', '2020-01-01', '--end', '2020-01-10', '--seed', '5']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/wrote snapshot .*: 3 reservoirs, 2 stations/);
    const store = await openStore(out);
    expect(store.listDates('res', 'stage_m')).toEqual([{ start_date: '2020-01-01', end_date: '2020-01-10' }]);
    // the flags reach the model: the same options in-process make the same values
    const expected = join(await tempDir(), 'in-process');
    await generateStore(expected, { reservoirs: 3, stations: 2, start: '2020-01-01', end: '2020-01-10', seed: 5 });
    const twin = await openStore(expected);
    const everything = (s: typeof store) => s.reservoirTimeseries({ names: s.manifest.reservoirs.names, start: '2020-01-01', end: '2020-01-10' });
    expect(await everything(store)).toEqual(await everything(twin));
    expect(store.manifest.stations.names).toEqual(twin.manifest.stations.names);
    const [again, bad] = await Promise.all([
      evap(['generate', '--out', out, '--reservoirs', '1']),
      evap(['generate', '--out', join(out, 'other'), '--reservoirs', 'many']),
    ]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds a store; pass --force');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--reservoirs must be a non-negative integer, got "many"');
  });

  it('keeps the date-major copy it is asked for, as the store’s setting', async () => {
    const dir = await tempDir();
    const make = (out: string, days?: string) =>
      evap([
        'generate',
        '--out',
        join(dir, out),
        '--reservoirs',
        '2',
        '--stations',
        '1',
        '--start',
        '2020-01-01',
        '--end',
        '2020-03-10',
        ...(days ? ['--by-date-days', days] : []),
      ]);
    const runs = await Promise.all([make('default'), make('none', '0'), make('short', '9'), make('bad', 'week')]);
    expect(runs.slice(0, 3).map((r) => r.code)).toEqual([0, 0, 0]);
    const months = async (out: string) => {
      const store = await openStore(join(dir, out));
      const found = [store.manifest.byDateDays, store.manifest.datasets.rtma!.byDate?.map((f) => f.month)];
      await store.close();
      return found;
    };
    expect(await months('default')).toEqual([undefined, ['2020-01', '2020-02', '2020-03']]);
    expect(await months('none')).toEqual([0, undefined]);
    expect(await months('short')).toEqual([9, ['2020-03']]);
    expect(runs[3]!.code).toBe(2);
    expect(runs[3]!.stderr).toContain('--by-date-days must be a non-negative integer, got "week"');
  });
});
