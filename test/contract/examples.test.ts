// The public documentation's cURL and Python examples (samapriya/evap-docs: docs/endpoints/*.md, docs/started/*.md,
// docs/notebooks/examples.ipynb), sent as written but for the base URL and key, answered with the keys they read.
import { beforeAll, describe, expect, it } from 'vitest';
import type { WireRecord } from '../../lib/types.js';
import { parseCsv, type TestApp, testApp } from '../server/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});

// The cURL examples' URLs with https://operevap.dri.edu removed.
const curl = (target: string, method = 'GET') => app.get(target, { method });
// The Python examples: requests.get(url, params=...) encodes spaces as +.
const python = (path: string, params: Record<string, string>, method = 'GET') => app.get(`${path}?${new URLSearchParams(params)}`, { method });

async function records(response: Response): Promise<WireRecord[]> {
  expect(response.status).toBe(200);
  return (await response.json()) as WireRecord[];
}

describe('cURL examples', () => {
  it('lists datasets, variables and dates', async () => {
    expect(await records(await curl('/info/list_datasets?output_format=json'))).toEqual(['rtma', 'res', 'lem', 'nete-volume-calcs']);
    const variables = await records(await curl('/info/list_variables?output_format=json&dataset=nete-volume-calcs'));
    expect(variables.map((v) => v.api_name)).toEqual(['NetE', 'E_volume', 'NetE_volume']);
    const dates = await records(await curl('/info/list_dates?output_format=json&dataset=nete-volume-calcs&variable=NetE'));
    expect(dates).toHaveLength(1);
    expect(dates[0]!.start_date! <= '2019-01-01' && dates[0]!.end_date! >= '2021-12-31').toBe(true);
  });

  it('lists reservoir and station names with POST and no body', async () => {
    const reservoirs = (await (await curl('/info/list_RES_NAMES?output_format=json', 'POST')).json()) as { RES_NAMES: string[] };
    expect(reservoirs.RES_NAMES).toEqual(
      expect.arrayContaining(['LAKE ALICE', 'LAKE ESTES', 'RUEDI RESERVOIR', 'LAKE MEAD', 'LAKE POWELL', 'FLAMING GORGE RESERVOIR']),
    );
    expect(reservoirs.RES_NAMES).toEqual([...reservoirs.RES_NAMES].sort());
    const stations = (await (await curl('/info/list_STA_NAMES?output_format=json', 'POST')).json()) as { STA_NAMES: string[] };
    expect(stations.STA_NAMES).toEqual(expect.arrayContaining(['LAKE MEAD_STATION', 'BLW_STATION', 'ABERDEEN_STATION', 'ABIQUIU DAM_STATION']));
  });

  it('lists station variables and dates for ALL_STATIONS', async () => {
    const variables = await records(await curl('/info/list_stations_variables?output_format=json&STA_NAMES=ALL_STATIONS'));
    expect(variables.map((v) => v.api_name)).toEqual(expect.arrayContaining(['ATemp', 'RH']));
    expect(Object.keys(variables[0]!)).toEqual(['api_name', 'description', 'dataset', 'units_metric', 'units_english']);
    const dates = await records(await curl('/info/list_stations_dates?output_format=json&STA_NAMES=ALL_STATIONS'));
    expect(Object.keys(dates[0]!)).toEqual(['start_date', 'end_date']);
  });

  it('answers reservoir and station metadata', async () => {
    const reservoirs = await records(await curl('/metadata/reservoirs?RES_NAMES=LAKE%20ALICE,LAKE%20ESTES&output_format=json'));
    expect(reservoirs.map((r) => r.RES_NAME)).toEqual(['LAKE ALICE', 'LAKE ESTES']);
    for (const r of reservoirs) for (const key of ['LAT', 'LON', 'Shape_Area']) expect(typeof r[key]).toBe('number');
    const stations = await records(await curl('/metadata/stations?STA_NAMES=ABERDEEN_STATION,ABIQUIU%20DAM_STATION&output_format=json'));
    expect(stations.map((s) => s.STA_NAME)).toEqual(['ABERDEEN_STATION', 'ABIQUIU DAM_STATION']);
    for (const s of stations) for (const key of ['LAT', 'LON']) expect(typeof s[key]).toBe('number');
  });

  it('answers reservoir timeseries over a range and on a date', async () => {
    const range = await records(
      await curl(
        '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE&datasets=nete-volume-calcs&variables=NetE,E_volume&start_date=2020-01-01&end_date=2020-01-31&units=metric&output_format=json',
      ),
    );
    expect(range).toHaveLength(31);
    expect(Object.keys(range[0]!)).toEqual(['RES_NAME', 'start_date', 'end_date', 'NetE (mm)', 'E_volume (m3)']);
    expect(range.map((r) => r.start_date)).toEqual(range.map((r) => r.end_date));
    const withFlag = await records(
      await curl(
        '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE&datasets=nete-volume-calcs&variables=NetE,E_volume&start_date=2020-01-01&end_date=2020-01-31&units=metric&also_return=qflag&output_format=json',
      ),
    );
    expect(withFlag.every((r) => typeof r.qflag === 'string')).toBe(true);
    const date = await records(
      await curl('/timeseries/daily/reservoirs/date?datasets=nete-volume-calcs&variables=NetE,E_volume&date=2020-01-01&units=metric&output_format=json'),
    );
    expect(date.map((r) => r.RES_NAME)).toEqual(
      expect.arrayContaining(['LAKE ALICE', 'LAKE ESTES', 'RUEDI RESERVOIR', 'LAKE MEAD', 'LAKE POWELL', 'FLAMING GORGE RESERVOIR']),
    );
    expect(date.every((r) => r.start_date === '2020-01-01' && 'NetE (mm)' in r && 'E_volume (m3)' in r)).toBe(true);
  });

  it('answers station timeseries over a range and on a date', async () => {
    const range = await records(
      await curl(
        '/timeseries/stations/daterange?STA_NAMES=LAKE%20MEAD_STATION&variables=ATemp,RH&start_date=2020-01-01&end_date=2020-01-31&units=metric&output_format=json',
      ),
    );
    expect(range).toHaveLength(31); // the example stations report every day of the demo's span (issue 13)
    expect(Object.keys(range[0]!)).toEqual(['STA_NAME', 'start_date', 'end_date', 'ATemp (degC)', 'RH (percent)']);
    const date = await records(await curl('/timeseries/stations/date?variables=ATemp,RH&date=2020-01-01&units=metric&output_format=json'));
    expect(date.map((r) => r.STA_NAME)).toEqual(expect.arrayContaining(['LAKE MEAD_STATION', 'BLW_STATION', 'ABERDEEN_STATION', 'ABIQUIU DAM_STATION']));
    expect(date.every((r) => r.start_date === '2020-01-01')).toBe(true);
  });

  it('answers list_datasets as CSV (authentication page)', async () => {
    const response = await curl('/info/list_datasets?output_format=csv');
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(parseCsv(await response.text()).map((r) => r.dataset)).toEqual(['rtma', 'res', 'lem', 'nete-volume-calcs']);
  });
});

describe('getting-started examples', () => {
  const params = { RES_NAMES: 'LAKE ALICE', start_date: '2020-01-01', end_date: '2020-01-31' };

  it('answers with the defaults for everything not given', async () => {
    const data = await records(await python('/timeseries/daily/reservoirs/daterange', params));
    expect(data).toHaveLength(31);
    expect(Object.keys(data[0]!)).toEqual(
      expect.arrayContaining(['RES_NAME', 'start_date', 'end_date', 'NetE (mm)', 'E_volume (m3)', 'pr (mm)', 'tmmx_c (degC)', 'E_hs (mm)', 'area_m2 (m2)']),
    );
    expect(Object.keys(data[0]!)).toHaveLength(3 + 24);
  });

  it('answers CSV and English units', async () => {
    const text = await (await python('/timeseries/daily/reservoirs/daterange', { ...params, output_format: 'csv' })).text();
    expect(text.split('\n')[0]).toMatch(/^RES_NAME,start_date,end_date,pr \(mm\),/);
    const english = await records(await python('/timeseries/daily/reservoirs/daterange', { ...params, units: 'english' }));
    expect(english[0]).toHaveProperty(['NetE (in)']);
    expect(english[0]).toHaveProperty(['E_volume (acre-ft)']);
  });
});

describe('notebook examples', () => {
  const base = '/'; // BASE_URL = "https://operevap.dri.edu/" joined with f"{BASE_URL}/info/...": a double slash
  const daterange = `${base}/timeseries/daily/reservoirs/daterange`;
  const nete = (names: string, variables: string, start: string, end: string) => ({
    RES_NAMES: names,
    datasets: 'nete-volume-calcs',
    variables,
    start_date: start,
    end_date: end,
    units: 'metric',
    output_format: 'json',
  });

  it('gets reservoirs and their metadata', async () => {
    const response = await app.get(`${base}/info/list_RES_NAMES`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(Object.keys(await response.json())).toEqual(['RES_NAMES']);
    const metadata = await records(await python(`${base}/metadata/reservoirs`, { RES_NAMES: ['LAKE ALICE', 'LAKE ESTES'].join(','), output_format: 'json' }));
    expect(metadata.map((r) => [r.RES_NAME, typeof r.LAT, typeof r.LON, typeof r.Shape_Area])).toEqual([
      ['LAKE ALICE', 'number', 'number', 'number'],
      ['LAKE ESTES', 'number', 'number', 'number'],
    ]);
  });

  it('gets a year of LAKE ALICE and compares three reservoirs over a summer', async () => {
    const year = await records(await python(daterange, nete('LAKE ALICE', 'NetE,E_volume', '2020-01-01', '2020-12-31')));
    expect(year).toHaveLength(366);
    const summer = await records(await python(daterange, nete('LAKE ALICE,LAKE ESTES,RUEDI RESERVOIR', 'NetE', '2020-06-01', '2020-08-31')));
    expect([...new Set(summer.map((r) => r.RES_NAME))]).toEqual(['LAKE ALICE', 'LAKE ESTES', 'RUEDI RESERVOIR']);
    expect(summer).toHaveLength(3 * 92);
    expect(summer.every((r) => typeof r['NetE (mm)'] === 'number')).toBe(true);
  });

  it('sums monthly evaporation volumes of LAKE MEAD', async () => {
    const data = await records(await python(daterange, nete('LAKE MEAD', 'E_volume', '2020-01-01', '2020-12-31')));
    const total = data.reduce((sum, r) => sum + (r['E_volume (m3)'] as number), 0);
    expect(total).toBeGreaterThan(0);
  });

  it('gets weather for LAKE POWELL', async () => {
    const data = await records(
      await python(daterange, { ...nete('LAKE POWELL', 'pr,tmmx_c,tmmn_c,vpd_kpa,srad', '2020-06-01', '2020-08-31'), datasets: 'rtma' }),
    );
    expect(Object.keys(data[0]!)).toEqual(['RES_NAME', 'start_date', 'end_date', 'pr (mm)', 'tmmx_c (degC)', 'tmmn_c (degC)', 'vpd_kpa (kpa)', 'srad (wm2)']);
  });

  it('exports three reservoirs sorted by name', async () => {
    const data = await records(await python(daterange, nete('LAKE POWELL,LAKE MEAD,FLAMING GORGE RESERVOIR', 'NetE,E_volume', '2020-01-01', '2020-12-31')));
    expect(data[0]).toMatchObject({ RES_NAME: 'FLAMING GORGE RESERVOIR', start_date: '2020-01-01', end_date: '2020-01-01' });
    expect([...new Set(data.map((r) => r.RES_NAME))]).toEqual(['FLAMING GORGE RESERVOIR', 'LAKE MEAD', 'LAKE POWELL']);
  });

  it('combines evaporation and weather requests: NetE = E_hs - pr', async () => {
    const [evap, weather] = await Promise.all([
      records(await python(daterange, { ...nete('LAKE MEAD', 'NetE,E_volume', '2020-06-01', '2020-08-31') })),
      records(await python(daterange, { ...nete('LAKE MEAD', 'E_hs,pr,area_m2', '2020-06-01', '2020-08-31'), datasets: 'lem,rtma,res' })),
    ]);
    expect(evap).toHaveLength(weather.length);
    evap.forEach((e, i) => {
      const w = weather[i]!;
      expect(e.start_date).toBe(w.start_date);
      expect(e['NetE (mm)']).toBeCloseTo((w['E_hs (mm)'] as number) - (w['pr (mm)'] as number), 3);
      const volume = ((w['E_hs (mm)'] as number) / 1000) * (w['area_m2 (m2)'] as number);
      expect(Math.abs((e['E_volume (m3)'] as number) - volume)).toBeLessThanOrEqual(1e-4 * Math.abs(volume) + 1);
    });
  });
});
