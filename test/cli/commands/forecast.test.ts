// evap forecast against the demo store: one issue (--issued), by valid date at one lead (--lead), totals (--total)
// and verification (--verification) print the values the library's own methods answer, with facts the test knows
// independently (the issue date a lead away from the valid date, the number of leads); a bad flag is an error
// naming it, with a non-zero exit.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { demoOptions } from '../../../lib/synthetic/demo.js';
import type { WireRecord } from '../../../lib/types.js';
import { evap, root } from '../harness.js';

const data = join(root, 'data');
let store: EvapStore;
beforeAll(async () => {
  store = await openStore(data);
});
afterAll(() => store.close());

const json = async (args: string[]): Promise<WireRecord[]> => {
  const run = await evap(['forecast', '--store', data, '--format', 'json', ...args]);
  expect(run.stderr).toMatch(/^evap: the store .* holds SYNTHETIC values[^\n]*\n$/); // the demo store is synthetic
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as WireRecord[];
};
const day = (date: string, add: number) => new Date(Date.parse(`${date}T00:00:00Z`) + add * 86_400_000).toISOString().slice(0, 10);

describe('evap forecast', () => {
  it('--issued prints one issue by lead day, as the library answers it', async () => {
    const printed = await json([
      '--names',
      'LAKE MEAD,LAKE POWELL',
      '--variables',
      'E_volume,pr',
      '--issued',
      '2021-12-20',
      '--leads',
      '3-9',
      '--statistics',
      'p05,p95',
    ]);
    expect(printed).toHaveLength(2 * 7);
    for (const r of printed) {
      expect(r.issued).toBe('2021-12-20');
      expect(r.valid_date).toBe(day('2021-12-20', r.lead_days as number));
      expect(r['E_volume (m3) p05'] as number).toBeLessThanOrEqual(r['E_volume (m3) p95'] as number);
    }
    expect(printed).toEqual(
      await store.forecastDaily({
        names: ['LAKE MEAD', 'LAKE POWELL'],
        variables: ['E_volume', 'pr'],
        issued: '2021-12-20',
        leads: '3-9',
        statistics: ['p05', 'p95'],
      }),
    );
    // the default: the latest issue, 28 leads; a CSV in a pipe
    const csv = await evap(['forecast', '--store', data, '--names', 'LAKE MEAD', '--variables', 'E_hs']);
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 28);
    const latest = await store.forecastDaily({ names: ['LAKE MEAD'], variables: ['E_hs'] });
    expect(lines[0]!.split(',')).toEqual(Object.keys(latest[0]!));
    expect(lines.slice(1).map((l) => Number(l.split(',').at(-1)))).toEqual(latest.map((r) => r['E_hs (mm) p90']));
  });

  it('--lead prints per valid date the forecast issued that many days before, with the estimate', async () => {
    const printed = await json(['--names', 'LAKE MEAD', '--variables', 'E_hs', '--lead', '3', '--start', '2021-12-10', '--end', '2021-12-20']);
    expect(printed.map((r) => r.valid_date)).toEqual(Array.from({ length: 11 }, (_, i) => day('2021-12-10', i)));
    for (const r of printed) expect(r.issued).toBe(day(r.valid_date as string, -3));
    expect(printed.every((r) => typeof r['E_hs (mm) observed'] === 'number')).toBe(true);
    expect(printed).toEqual(await store.forecastLead({ names: ['LAKE MEAD'], variables: ['E_hs'], lead: '3', start: '2021-12-10', end: '2021-12-20' }));
    // the lead path's day equals the daily path's answer of the matching issue
    const [issue] = await store.forecastDaily({ names: ['LAKE MEAD'], variables: ['E_hs'], issued: '2021-12-12', leads: '3' });
    expect(printed.find((r) => r.issued === '2021-12-12')!['E_hs (mm) p50']).toBe(issue!['E_hs (mm) p50']);
  });

  it('--total prints the statistics of the total over the leads, in the units asked', async () => {
    const printed = await json(['--names', 'LAKE MEAD,LAKE POWELL', '--variables', 'E_volume', '--total', '--units', 'english', '--leads', '1-14']);
    expect(printed.map((r) => [r.RES_NAME, r.leads])).toEqual([
      ['LAKE MEAD', '1-14'],
      ['LAKE POWELL', '1-14'],
    ]);
    expect(printed).toEqual(await store.forecastTotal({ names: ['LAKE MEAD', 'LAKE POWELL'], variables: ['E_volume'], units: 'english', leads: '1-14' }));
    // in metric, the same totals: an acre-foot is 1233.48 m3
    const metric = await json(['--names', 'LAKE MEAD,LAKE POWELL', '--variables', 'E_volume', '--total', '--leads', '1-14']);
    metric.forEach((r, i) => expect((r['E_volume (m3) p50'] as number) / 1233.48184).toBeCloseTo(printed[i]!['E_volume (acre-ft) p50'] as number, 0));
  });

  it('--verification prints the metrics per variable and lead over the issues asked', async () => {
    const printed = await json([
      '--names',
      'LAKE MEAD',
      '--variables',
      'E_hs',
      '--verification',
      '--leads',
      '1-3',
      '--start',
      '2021-12-01',
      '--end',
      '2021-12-20',
    ]);
    expect(printed.map((r) => r.lead_days)).toEqual([1, 2, 3]);
    for (const r of printed) expect(r.skill).toBeCloseTo(1 - (r.mae as number) / (r.mae_normal as number), 3);
    expect(printed).toEqual(
      await store.forecastVerification({ names: ['LAKE MEAD'], variables: ['E_hs'], leads: '1-3', start: '2021-12-01', end: '2021-12-20' }),
    );
  });

  it('refuses a bad flag, naming it, with a non-zero exit', async () => {
    const cases: [string[], RegExp][] = [
      [['--lead', '0'], /lead must be a whole number of days from 1 to 28; got "0"/],
      [['--leads', '30'], /leads must be a lead day from 1 to 28/],
      [['--issued', '2021-13-01'], /issued is not a calendar date/],
      [['--total', '--verification'], /give one of --total, --verification/],
      [['--statistics', 'p99'], /unknown statistic "p99"/],
      [['--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [args, message] of cases) {
      const run = await evap(['forecast', '--store', data, ...args]);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(message);
    }
  });
});

describe('finding forecasts', () => {
  const { names, firstIssue, lastIssue } = demoOptions.forecasts!; // what the demo store was generated with
  it('--list names the reservoirs with forecasts and their issue range; evap info counts them', async () => {
    const [list, info, listed] = await Promise.all([
      evap(['forecast', '--store', data, '--list']),
      evap(['info', '--store', data]),
      evap(['forecast', '--store', data, '--list', '--names', 'LAKE MEAD,ABIQUIU LAKE', '--format', 'json']),
    ]);
    expect(list.code).toBe(0);
    const [header, ...rows] = list.stdout.trimEnd().split('\n');
    expect(header).toBe('RES_NAME,start_date,end_date');
    expect(rows.sort()).toEqual([...names!].sort().map((n) => `${n},${firstIssue},${lastIssue}`));
    expect(info.stdout.split('\n')).toContain(`forecasts,${names!.length},${firstIssue},${lastIssue},E_hs NetE E_volume NetE_volume pr`);
    expect(JSON.parse(listed.stdout)).toEqual([{ RES_NAME: 'LAKE MEAD', start_date: firstIssue, end_date: lastIssue }]);
  });

  it('says on stderr that a reservoir has no forecasts, or which issues it has, and exits 0 as evap query does', async () => {
    const [none, outside, mixed] = await Promise.all([
      evap(['forecast', '--store', data, '--names', 'ABIQUIU LAKE']),
      evap(['forecast', '--store', data, '--names', 'LAKE MEAD', '--issued', '2020-06-01', '--format', 'json']),
      evap(['forecast', '--store', data, '--list', '--total']),
    ]);
    expect(names).not.toContain('ABIQUIU LAKE');
    expect(none.code).toBe(0);
    expect(none.stdout.trimEnd().split('\n')).toHaveLength(1); // the header, as the API's empty CSV
    expect(none.stderr).toContain(`evap forecast: no forecasts for ABIQUIU LAKE; ${names!.length} reservoirs have them (evap forecast --list names them)`);
    expect([outside.code, outside.stdout]).toEqual([0, '[]\n']);
    expect(outside.stderr).toContain(`forecasts were issued from ${firstIssue} to ${lastIssue}`);
    expect(mixed.code).not.toBe(0);
    expect(mixed.stderr).toMatch(/--list takes --names only, not --total/);
  });
});
