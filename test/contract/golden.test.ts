// Golden answers: every documented path of the tiny store through the app (no socket), compared byte for byte with test/golden/;
// REGEN=1 rewrites them. The last block checks the golden files themselves against values known by construction.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { tempDir, writeTinyStore } from '../helpers.js';
import { parseCsv, type TestApp, testApp } from '../server/harness.js';

const goldenDir = join(import.meta.dirname, '../golden');
const regen = process.env.REGEN === '1';

let app: TestApp;
beforeAll(async () => {
  const dir = await tempDir();
  await writeTinyStore(dir);
  app = await testApp({ store: await openStore(dir) });
});

const both = 'RES_NAMES=ALPHA%20LAKE,BETA%20RESERVOIR';
const res = `${both}&datasets=nete-volume-calcs&variables=NetE,E_volume`;
const sta = 'STA_NAMES=ALPHA_STATION&variables=ATemp';
const range = 'start_date=2020-12-30&end_date=2021-01-02';

// name -> method and path with query; each is asked as JSON and as CSV
const cases: Record<string, [method: 'GET' | 'POST', path: string]> = {
  'daily-reservoirs-daterange': ['GET', `/timeseries/daily/reservoirs/daterange?${res}&${range}`],
  'daily-reservoirs-daterange-english': ['GET', `/timeseries/daily/reservoirs/daterange?${res}&${range}&units=english`],
  'daily-reservoirs-date': ['GET', `/timeseries/daily/reservoirs/date?${res}&date=2021-01-01`],
  'stations-daterange': ['GET', `/timeseries/stations/daterange?${sta}&${range}`],
  'stations-daterange-english': ['GET', `/timeseries/stations/daterange?${sta}&${range}&units=english`],
  'stations-date': ['GET', `/timeseries/stations/date?${sta}&date=2021-01-01`],
  'monthly-reservoirs-daterange': ['GET', `/timeseries/monthly/reservoirs/daterange?${res}&${range}`],
  'monthly-stations-daterange': ['GET', `/timeseries/monthly/stations/daterange?${sta}&${range}`],
  'list-datasets': ['GET', '/info/list_datasets?'],
  'list-variables': ['GET', '/info/list_variables?dataset=nete-volume-calcs'],
  'list-dates': ['GET', '/info/list_dates?dataset=nete-volume-calcs&variable=NetE'],
  'list-res-names': ['POST', '/info/list_RES_NAMES?'],
  'list-sta-names': ['POST', '/info/list_STA_NAMES?'],
  'list-stations-variables': ['GET', '/info/list_stations_variables?'],
  'list-stations-dates': ['GET', '/info/list_stations_dates?'],
  'metadata-reservoirs': ['GET', `/metadata/reservoirs?${both}`],
  'metadata-stations': ['GET', '/metadata/stations?STA_NAMES=ALPHA_STATION'],
};
const types = { json: 'application/json', csv: 'text/csv; charset=utf-8' } as const;

describe('golden answers of the tiny store', () => {
  for (const [name, [method, path]] of Object.entries(cases)) {
    for (const format of ['json', 'csv'] as const) {
      it(`answers ${method} ${path.split('?')[0]} as ${format} like ${name}.${format}`, async () => {
        const response = await app.get(`${path}&output_format=${format}`, { method });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe(types[format]);
        const body = Buffer.from(await response.arrayBuffer());
        const file = join(goldenDir, `${name}.${format}`);
        if (regen) {
          mkdirSync(goldenDir, { recursive: true });
          writeFileSync(file, body);
        }
        expect(existsSync(file), `${file} is missing: run with REGEN=1`).toBe(true);
        const golden = readFileSync(file);
        expect(body.toString('utf8')).toBe(golden.toString('utf8')); // a readable diff first
        expect(body.equals(golden)).toBe(true);
      });
    }
  }
});

// The golden files against the tiny store's construction (test/helpers.ts): NetE = reservoir number + day index / 10
// (ALPHA 1, BETA 2), E_volume = 1000 x NetE, BETA's 2021-01-01 a gap, ATemp = day index; the unit factors from their
// definitions (1 in = 25.4 mm, 1 acre-ft = 43560 ft² x 0.3048³ m³, °F = 32 + 1.8 °C), not from lib/.
describe('the golden files', () => {
  const json = (name: string) => JSON.parse(readFileSync(join(goldenDir, `${name}.json`), 'utf8')) as Record<string, unknown>[];
  const csv = (name: string) => parseCsv(readFileSync(join(goldenDir, `${name}.csv`), 'utf8'));
  const row = (records: Record<string, unknown>[], name: string, date: string) =>
    records.find((r) => (r.RES_NAME ?? r.STA_NAME) === name && r.start_date === date)!;
  const acreFoot = 43560 * 0.3048 ** 3;
  const days = ['2020-12-30', '2020-12-31', '2021-01-01', '2021-01-02'];

  it('hold the daily values by construction, sorted by name then date, the gap as null', () => {
    for (const records of [json('daily-reservoirs-daterange'), csv('daily-reservoirs-daterange')]) {
      expect(records.map((r) => `${r.RES_NAME} ${r.start_date}`)).toEqual([...days.map((d) => `ALPHA LAKE ${d}`), ...days.map((d) => `BETA RESERVOIR ${d}`)]);
      days.forEach((d, i) => {
        expect(row(records, 'ALPHA LAKE', d)).toMatchObject({ end_date: d, 'NetE (mm)': 1 + i / 10, 'E_volume (m3)': 1000 + i * 100 });
        if (i !== 2) expect(row(records, 'BETA RESERVOIR', d)).toMatchObject({ 'NetE (mm)': 2 + i / 10, 'E_volume (m3)': 2000 + i * 100 });
      });
      expect(row(records, 'BETA RESERVOIR', '2021-01-01')).toMatchObject({ 'NetE (mm)': null, 'E_volume (m3)': null });
    }
    expect(json('daily-reservoirs-date')).toEqual([
      { RES_NAME: 'ALPHA LAKE', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': 1.2, 'E_volume (m3)': 1200 },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': null, 'E_volume (m3)': null },
    ]);
    expect(json('stations-daterange').map((r) => r['ATemp (degC)'])).toEqual([0, 1, 2, 3]);
    expect(csv('stations-date')).toEqual([{ STA_NAME: 'ALPHA_STATION', start_date: '2021-01-01', end_date: '2021-01-01', 'ATemp (degC)': 2 }]);
  });

  it('hold english values converted by the unit definitions and rounded to 4 decimals', () => {
    for (const records of [json('daily-reservoirs-daterange-english'), csv('daily-reservoirs-daterange-english')]) {
      days.forEach((d, i) => {
        const alpha = row(records, 'ALPHA LAKE', d);
        expect(alpha['NetE (in)']).toBeCloseTo((1 + i / 10) / 25.4, 4);
        expect(alpha['E_volume (acre-ft)']).toBeCloseTo((1000 + i * 100) / acreFoot, 4);
      });
      expect(row(records, 'BETA RESERVOIR', '2021-01-02')['E_volume (acre-ft)']).toBeCloseTo(2300 / acreFoot, 4);
      expect(row(records, 'BETA RESERVOIR', '2021-01-01')['NetE (in)']).toBeNull();
    }
    expect(json('stations-daterange-english').map((r) => r['ATemp (degF)'])).toEqual([32, 33.8, 35.6, 37.4]);
  });

  it('hold monthly sums of depths and volumes, means of temperatures, over the days asked', () => {
    const flags = { n_qflag_M: null, n_qflag_S: null, n_qflag_R: null }; // the tiny store's files hold no day flags
    const row = (name: string, start: string, end: string, nete: number, n: number) => ({
      RES_NAME: name,
      start_date: start,
      end_date: end,
      n_days: 2,
      ...flags,
      'NetE (mm)': nete,
      'E_volume (m3)': nete * 1000,
      'NetE (mm) n': n,
      'E_volume (m3) n': n,
    });
    expect(json('monthly-reservoirs-daterange')).toEqual([
      row('ALPHA LAKE', '2020-12-30', '2020-12-31', 2.1, 2),
      row('ALPHA LAKE', '2021-01-01', '2021-01-02', 2.5, 2),
      row('BETA RESERVOIR', '2020-12-30', '2020-12-31', 4.1, 2),
      row('BETA RESERVOIR', '2021-01-01', '2021-01-02', 2.3, 1), // the gap left out of the sum, and out of the count of days with a value
    ]);
    expect(csv('monthly-stations-daterange').map((r) => r['ATemp (degC)'])).toEqual([0.5, 2.5]);
  });

  it('hold the lists and metadata the tiny store was written with', () => {
    expect(json('list-datasets')).toEqual(['nete-volume-calcs']);
    expect(json('list-dates')).toEqual([{ start_date: '2020-12-30', end_date: '2021-01-02' }]);
    expect(json('list-stations-dates')).toEqual([{ start_date: '2020-12-30', end_date: '2021-01-02' }]);
    expect(JSON.parse(readFileSync(join(goldenDir, 'list-res-names.json'), 'utf8'))).toEqual({ RES_NAMES: ['ALPHA LAKE', 'BETA RESERVOIR'] });
    expect(csv('list-sta-names')).toEqual([{ STA_NAME: 'ALPHA_STATION' }]);
    expect(json('list-variables').map((v) => [v.api_name, v.units_metric, v.units_english])).toContainEqual(['NetE', 'mm', 'in']);
    expect(json('list-stations-variables').map((v) => v.api_name)).toEqual(['ATemp']);
    expect(json('metadata-reservoirs')).toMatchObject([
      { RES_NAME: 'ALPHA LAKE', STATE: 'CO', LAT: 40, LON: -105 },
      { RES_NAME: 'BETA RESERVOIR', STATE: 'UT', LAT: 39, LON: -111 },
    ]);
    expect(csv('metadata-stations')).toMatchObject([{ STA_NAME: 'ALPHA_STATION', LAT: 40.01, LON: -105.01, RES_NAME: 'ALPHA LAKE' }]);
  });
});
