// The what-if path over real HTTP on loopback: the baseline is the model run on the forcing the daily path serves (the
// single-body runModel, fed from the wire), scenarios move the answer the way their physics says, interval totals are
// the daily values summed by a plain loop, and every bad value is a 422 naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runModel } from '../../lib/model/run.js';
import { type SmallStore, serveSmallStore, smallStoreRange } from '../helpers.js';

type Row = Record<string, string | number | null>;
let small: SmallStore;
beforeAll(async () => {
  small = await serveSmallStore();
});
afterAll(() => small.store.close());

const ask = (path: string, params: Record<string, string>) =>
  fetch(`${small.server.url}${path}?${new URLSearchParams(params)}`, { headers: { 'api-key': small.server.key } });
const rows = async (path: string, params: Record<string, string>): Promise<{ rows: Row[]; response: Response }> => {
  const response = await ask(path, params);
  const body = await response.json();
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return { rows: body as Row[], response };
};

const outputs = ['E_hs', 'E_nhs', 'Rn', 'Tw', 'Tw0', 'Fetch', 'Lerr', 'NetE', 'E_volume', 'NetE_volume'];

describe('GET /model/reservoirs/daterange', () => {
  it('baseline: the model on the forcing the daily path serves, in the daily records shape', async () => {
    const names = small.names.join(',');
    const { rows: modelled, response } = await rows('/model/reservoirs/daterange', {
      RES_NAMES: names,
      start_date: smallStoreRange.start,
      end_date: smallStoreRange.end,
    });
    expect(response.headers.get('x-evap-scenario')).toBe('baseline');
    const { rows: stored } = await rows('/timeseries/daily/reservoirs/daterange', {
      RES_NAMES: names,
      datasets: 'lem,nete-volume-calcs',
      start_date: smallStoreRange.start,
      end_date: smallStoreRange.end,
    });
    expect(modelled.map((r) => Object.keys(r))).toEqual(stored.map((r) => Object.keys(r))); // the same keys, in order
    const { rows: forcing } = await rows('/timeseries/daily/reservoirs/daterange', {
      RES_NAMES: names,
      datasets: 'rtma,res',
      start_date: smallStoreRange.start,
      end_date: smallStoreRange.end,
    });
    const metadata = JSON.parse(await small.api(`/metadata/reservoirs?RES_NAMES=${encodeURIComponent(names)}`)) as Row[];
    for (const name of small.names) {
      const days = forcing.filter((r) => r.RES_NAME === name);
      const column = (key: string) => days.map((r) => r[key] as number);
      const meta = metadata.find((m) => m.RES_NAME === name)!;
      const area = column('area_m2 (m2)');
      const expected = runModel(
        {
          date: days.map((r) => r.start_date as string),
          srad: column('srad (wm2)'),
          tmmx_c: column('tmmx_c (degC)'),
          tmmn_c: column('tmmn_c (degC)'),
          vpd_kpa: column('vpd_kpa (kpa)'),
          vs2m: column('vs2m (m/s)'),
          th: column('th (degrees)'),
          pres_pa: column('pres_pa (pa)'),
          pr: column('pr (mm)'),
          depth_m: column('depth_m (m)'),
          area_m2: area,
        },
        // a store's reservoirs have no outline: a round lake of each day's area, √(πA)/2 (docs/model.md)
        { lat: meta.LAT as number, elev: meta.ELEV_M as number, fetch: undefined },
      ).values;
      const mine = modelled.filter((r) => r.RES_NAME === name);
      expect(mine).toHaveLength(days.length);
      mine.forEach((record, t) => {
        for (const variable of outputs) {
          const key = Object.keys(record).find((k) => k.startsWith(`${variable} (`))!;
          expect(record[key], `${name} ${record.start_date} ${variable}`).toBeCloseTo(expected[variable as 'E_hs'][t]!, 3);
        }
        expect(record['Fetch (m)']).toBeCloseTo(Math.sqrt(Math.PI * area[t]!) / 2, 3);
      });
    }
  });

  it('a scenario moves the answer as its physics says, and is echoed', async () => {
    const base = {
      RES_NAMES: small.names[0]!,
      start_date: smallStoreRange.start,
      end_date: smallStoreRange.end,
      datasets: 'nete-volume-calcs',
      variables: 'E_volume',
    };
    const total = async (extra: Record<string, string>) => {
      const { rows: answer, response } = await rows('/model/reservoirs/daterange', { ...base, ...extra });
      return { sum: answer.reduce((s, r) => s + (r['E_volume (m3)'] as number), 0), scenario: response.headers.get('x-evap-scenario') };
    };
    const baseline = await total({});
    // scenarios that change nothing answer the baseline itself, whatever the days' humidity
    const identities: Record<string, string>[] = [{ ta_delta: '0' }, { wind_scale: '1' }, { area_scale: '1', stage_delta: '0' }];
    for (const identity of identities) {
      expect((await total(identity)).sum, JSON.stringify(identity)).toBe(baseline.sum);
    }
    const warmer = await total({ ta_delta: '3' });
    expect(warmer.scenario).toBe('ta_delta=3');
    expect(warmer.sum).toBeGreaterThan(baseline.sum);
    const windier = await total({ wind_scale: '2' });
    expect(windier.sum).toBeGreaterThan(baseline.sum);
    // twice the area: each day's volume is its depth of evaporation over twice the stored area
    const { rows: bigger } = await rows('/model/reservoirs/daterange', {
      ...base,
      datasets: 'lem,nete-volume-calcs',
      variables: 'E_hs,E_volume',
      area_scale: '2',
    });
    const { rows: state } = await rows('/timeseries/daily/reservoirs/daterange', { ...base, datasets: 'res', variables: 'area_m2' });
    bigger.forEach((day, t) => {
      const volume = ((day['E_hs (mm)'] as number) / 1000) * 2 * (state[t]!['area_m2 (m2)'] as number);
      expect(Math.abs((day['E_volume (m3)'] as number) - volume)).toBeLessThan((1e-4 * (state[t]!['area_m2 (m2)'] as number)) / 1000 + 1e-3);
    });
    const calm = await rows('/model/reservoirs/daterange', { ...base, datasets: 'lem', variables: 'Lerr', wind_scale: '0' });
    expect(calm.rows.every((r) => r['Lerr (unitless)'] === 4)).toBe(true);
  });

  it('interval totals are the daily values summed, in english units', async () => {
    const params = {
      RES_NAMES: small.names.join(','),
      start_date: smallStoreRange.start,
      end_date: smallStoreRange.end,
      datasets: 'nete-volume-calcs',
      units: 'english',
      ta_delta: '1.5',
    };
    const { rows: daily } = await rows('/model/reservoirs/daterange', params);
    const { rows: annual } = await rows('/model/reservoirs/daterange', { ...params, interval: 'annual' });
    for (const record of annual) {
      const year = String(record.start_date).slice(0, 4);
      const days = daily.filter((r) => r.RES_NAME === record.RES_NAME && String(r.start_date).startsWith(year));
      expect(record.n_days).toBeGreaterThanOrEqual(days.length);
      for (const key of ['NetE (in)', 'E_volume (acre-ft)', 'NetE_volume (acre-ft)']) {
        let sum = 0;
        for (const day of days) sum += day[key] as number;
        expect(record[key], `${record.RES_NAME} ${year} ${key}`).toBeCloseTo(sum, 2);
      }
    }
  });

  it('refuses what it cannot compute with a 422 naming the parameter', async () => {
    const base = { RES_NAMES: small.names[0]! };
    const refused = async (extra: Record<string, string>, parameter: string) => {
      const response = await ask('/model/reservoirs/daterange', { ...base, ...extra });
      const body = (await response.json()) as { detail: unknown };
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(body.detail)).toContain(parameter);
    };
    await refused({ ta_delta: '99' }, 'ta_delta');
    await refused({ ta_delta: 'warm' }, 'ta_delta');
    await refused({ depth_m: '0' }, 'depth_m');
    await refused({ area_scale: '-1' }, 'area_scale');
    await refused({ depth_m: '5', stage_delta: '-2' }, 'stage_delta');
    await refused({ datasets: 'rtma' }, 'datasets');
    await refused({ also_return: 'qflag' }, 'also_return');
    await refused({ interval: 'weekly' }, 'interval');
  });
});
