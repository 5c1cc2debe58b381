// Every documented path through the app (no socket) against the demo store, in both formats (and both unit systems where units apply):
// the JSON answer equals the library's answer to the same query, and the CSV answer parses back to the same records.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EvapStore } from '../../lib/open/store.js';
import type { WireRecord } from '../../lib/types.js';
import { parseCsv, type TestApp, testApp } from '../server/harness.js';

let app: TestApp;
let store: EvapStore;
beforeAll(async () => {
  app = await testApp();
  store = app.store;
});

const json = 'application/json';
const csv = 'text/csv; charset=utf-8';

interface Case {
  method: 'GET' | 'POST';
  path: string;
  query: Record<string, string>;
  units?: boolean; // the path takes units
  expected(units: 'metric' | 'english'): Promise<unknown> | unknown; // the library's answer
  records?(answer: unknown): WireRecord[]; // the JSON answer as the records its CSV carries
}

const cases: Case[] = [
  {
    method: 'GET',
    path: '/timeseries/daily/reservoirs/daterange',
    units: true,
    query: {
      RES_NAMES: 'LAKE MEAD, LAKE ALICE',
      datasets: 'nete-volume-calcs,rtma',
      variables: 'NetE,E_volume,pr',
      start_date: '2020-06-01',
      end_date: '2020-06-10',
      also_return: 'qflag',
    },
    expected: (units) =>
      store.reservoirTimeseries({
        names: ['LAKE MEAD', 'LAKE ALICE'],
        datasets: ['nete-volume-calcs', 'rtma'],
        variables: ['NetE', 'E_volume', 'pr'],
        start: '2020-06-01',
        end: '2020-06-10',
        units,
        alsoReturn: ['qflag'],
      }),
  },
  {
    method: 'GET',
    path: '/timeseries/daily/reservoirs/date',
    units: true,
    query: { datasets: 'lem', variables: 'E_hs,Tw', date: '2021-07-04' },
    expected: (units) => store.reservoirTimeseriesOnDate({ datasets: ['lem'], variables: ['E_hs', 'Tw'], date: '2021-07-04', units }),
  },
  {
    method: 'GET',
    path: '/timeseries/stations/daterange',
    units: true,
    query: { STA_NAMES: 'BLW_STATION,LAKE MEAD_STATION', variables: 'ATemp,WS,RH', start_date: '2019-12-25', end_date: '2020-01-05' },
    expected: (units) =>
      store.stationTimeseries({ names: ['BLW_STATION', 'LAKE MEAD_STATION'], variables: ['ATemp', 'WS', 'RH'], start: '2019-12-25', end: '2020-01-05', units }),
  },
  {
    method: 'GET',
    path: '/timeseries/stations/date',
    units: true,
    query: { variables: 'ATemp,evap_4', date: '2020-03-01' },
    expected: (units) => store.stationTimeseriesOnDate({ variables: ['ATemp', 'evap_4'], date: '2020-03-01', units }),
  },
  {
    method: 'GET',
    path: '/info/list_datasets',
    query: {},
    expected: () => store.listDatasets(),
    records: (a) => (a as string[]).map((dataset) => ({ dataset })),
  },
  { method: 'GET', path: '/info/list_variables', query: { dataset: 'rtma' }, expected: () => store.listVariables('rtma') },
  { method: 'GET', path: '/info/list_dates', query: { dataset: 'lem', variable: 'E_hs' }, expected: () => store.listDates('lem', 'E_hs') },
  {
    method: 'POST',
    path: '/info/list_RES_NAMES',
    query: {},
    expected: async () => ({ RES_NAMES: await store.listReservoirNames() }),
    records: (a) => (a as { RES_NAMES: string[] }).RES_NAMES.map((RES_NAME) => ({ RES_NAME })),
  },
  {
    method: 'POST',
    path: '/info/list_STA_NAMES',
    query: {},
    expected: async () => ({ STA_NAMES: await store.listStationNames() }),
    records: (a) => (a as { STA_NAMES: string[] }).STA_NAMES.map((STA_NAME) => ({ STA_NAME })),
  },
  { method: 'GET', path: '/info/list_stations_variables', query: { STA_NAMES: 'BLW_STATION' }, expected: () => store.listStationVariables(['BLW_STATION']) },
  { method: 'GET', path: '/info/list_stations_dates', query: { STA_NAMES: 'ALL_STATIONS' }, expected: () => store.listStationDates() },
  {
    method: 'GET',
    path: '/metadata/reservoirs',
    query: { RES_NAMES: 'LAKE POWELL,LAKE MEAD' },
    expected: () => store.reservoirMetadata(['LAKE POWELL', 'LAKE MEAD']),
  },
  { method: 'GET', path: '/metadata/stations', query: { STA_NAMES: 'ABERDEEN_STATION' }, expected: () => store.stationMetadata(['ABERDEEN_STATION']) },
];

const request = (c: Case, params: Record<string, string>) => app.get(`${c.path}?${new URLSearchParams({ ...c.query, ...params })}`, { method: c.method });

describe.each(cases)('$method $path', (c) => {
  const systems = c.units ? (['metric', 'english'] as const) : (['metric'] as const);

  it.each(systems)('answers JSON equal to the library (%s)', async (units) => {
    const response = await request(c, c.units ? { units } : {});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(json);
    const answer = await response.json();
    expect(answer).toEqual(await c.expected(units));
    if (Array.isArray(answer)) expect(answer.length).toBeGreaterThan(0);
  });

  it.each(systems)('answers CSV that parses back to the JSON records (%s)', async (units) => {
    const params: Record<string, string> = c.units ? { units } : {};
    const [asJson, asCsv] = await Promise.all([request(c, { ...params, output_format: 'json' }), request(c, { ...params, output_format: 'csv' })]);
    expect(asCsv.status).toBe(200);
    expect(asCsv.headers.get('content-type')).toBe(csv);
    const answer = await asJson.json();
    const records = c.records ? c.records(answer) : (answer as WireRecord[]);
    const text = await asCsv.text();
    expect(parseCsv(text)).toEqual(records);
    expect(text.split('\n')[0]).toBe(Object.keys(records[0]!).join(','));
  });
});

describe('units', () => {
  it('labels and converts values in english units', async () => {
    const query = 'RES_NAMES=LAKE%20MEAD&datasets=nete-volume-calcs,lem&variables=NetE,E_volume,Tw&start_date=2020-07-01&end_date=2020-07-03';
    const metric = (await (await app.get(`/timeseries/daily/reservoirs/daterange?${query}&units=metric`)).json()) as WireRecord[];
    const english = (await (await app.get(`/timeseries/daily/reservoirs/daterange?${query}&units=english`)).json()) as WireRecord[];
    expect(Object.keys(english[0]!)).toEqual(['RES_NAME', 'start_date', 'end_date', 'NetE (in)', 'E_volume (acre-ft)', 'Tw (degF)']);
    expect(english).toHaveLength(metric.length);
    english.forEach((e, i) => {
      const m = metric[i]!;
      expect(e['NetE (in)']).toBeCloseTo((m['NetE (mm)'] as number) / 25.4, 3);
      expect(e['Tw (degF)']).toBeCloseTo(((m['Tw (degC)'] as number) * 9) / 5 + 32, 3);
      expect(e['E_volume (acre-ft)']).toBeCloseTo((m['E_volume (m3)'] as number) / 1233.48183754752, 3);
    });
  });
});
