// evap info answers as the /info paths of a server over the same store do, from a store and from a server.
import { describe, expect, it } from 'vitest';
import { serveSmallStore } from '../../helpers.js';
import { evap } from '../harness.js';

const {
  dir,
  names,
  stations,
  api,
  server: { url, key },
} = await serveSmallStore({ copy: true });

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
describe('evap info', () => {
  it('answers as the /info paths do', async () => {
    const [datasets, variables, dates, reservoirs, stationNames, stationVariables, stationDates] = await Promise.all([
      evap(['info', 'datasets', '--store', dir]),
      evap(['info', 'variables', '--dataset', 'lem', '--store', dir, '--format', 'json']),
      evap(['info', 'dates', '--dataset', 'res', '--variable', 'stage_m', '--from', url, '--api-key', key]),
      evap(['info', 'reservoirs', '--store', dir]),
      evap(['info', 'stations', '--from', url, '--api-key', key, '--format', 'json']),
      evap(['info', 'station-variables', '--store', dir, '--format', 'json']),
      evap(['info', 'station-dates', '--names', stations[0]!, '--store', dir]),
    ]);
    const listed = JSON.parse(await api('/info/list_datasets')) as string[];
    const described = (datasets.stdout.trimEnd().split('\n') as string[]).map((l) => l.split(','));
    expect(described[0]).toEqual(['dataset', 'description']);
    expect(described.slice(1).map((r) => r[0])).toEqual(listed);
    expect(described.find((r) => r[0] === 'lem')![1]).toMatch(/^Daily Lake Evaporation Model/);
    expect(described.every((r) => r[1]!.length > 10)).toBe(true); // each dataset has a description
    expect(JSON.parse(variables.stdout)).toEqual(JSON.parse(await api('/info/list_variables?dataset=lem')));
    expect(dates.stdout).toBe(await api('/info/list_dates?dataset=res&variable=stage_m&output_format=csv'));
    expect(reservoirs.stdout).toBe(`RES_NAME\n${names.join('\n')}\n`);
    expect(JSON.parse(stationNames.stdout)).toEqual(stations.map((STA_NAME) => ({ STA_NAME })));
    expect(JSON.parse(stationVariables.stdout)).toEqual(JSON.parse(await api('/info/list_stations_variables')));
    expect(stationDates.stdout).toBe(await api(`/info/list_stations_dates?${q({ STA_NAMES: stations[0]!, output_format: 'csv' })}`));
  });

  it('summarises the store without a topic, and suggests a dataset for a typo', async () => {
    const [summary, typo] = await Promise.all([evap(['info', '--store', dir]), evap(['info', 'variables', '--dataset', 'lemm', '--store', dir])]);
    expect(summary.stdout.split('\n').slice(0, 6)).toEqual([
      'what,names,start_date,end_date,variables',
      `rtma,${names.length},2020-12-25,2021-01-05,pr tmmx_c tmmn_c vpd_kpa vs2m srad etr eto th sph_kgkg pres_pa`,
      `res,${names.length},2020-12-25,2021-01-05,stage_m area_m2 depth_m`,
      `lem,${names.length},2020-12-25,2021-01-05,E_hs E_nhs Rn Tw Tw0 Fetch Lerr`,
      `nete-volume-calcs,${names.length},2020-12-25,2021-01-05,NetE E_volume NetE_volume`,
      expect.stringMatching(new RegExp(`^stations,${stations.length},2020-12-25,2021-01-05,`)),
    ]);
    expect(typo.code).toBe(2); // a refused flag value
    expect(typo.stderr).toContain('unknown dataset "lemm" (did you mean "lem"?)');
  });
});

describe('evap info about', () => {
  it('gives where the data come from, and says on stderr when the demo store answers for want of a store', async () => {
    const [about, summary, fallback, named] = await Promise.all([
      evap(['info', 'about', '--store', dir, '--format', 'csv']),
      evap(['info', '--from', url, '--api-key', key]),
      evap(['info', 'datasets']),
      evap(['info', 'datasets', '--store', dir]),
    ]);
    expect(about.stdout).toBe(await api('/info/about?output_format=csv'));
    expect(about.stdout).toContain('data,synthetic\n');
    expect(summary.stderr).toMatch(/^data: SYNTHETIC DATA: .*\ncite: /m);
    expect(fallback.stderr).toMatch(/no store given, answering from the demo store at .*SYNTHETIC values/);
    expect(named.stderr).not.toMatch(/demo store/);
  });
});
