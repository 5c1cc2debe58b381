// The daily, info and metadata paths through the app (no socket), each answer checked against other paths of the same server or a
// hand computation: a date is a one-day range, list_dates spans the records, list_variables names their columns,
// english units are the metric values converted with the textbook factors, latest and durations are plain dates.
import { addDays, format, subDays } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv, type TestApp, testApp } from './harness.js';

type Row = Record<string, string | number | null>;
let app: TestApp;
let reservoirs: string[];
let stations: string[];
beforeAll(async () => {
  app = await testApp();
  reservoirs = ((await (await app.get('/info/list_RES_NAMES', { method: 'POST' })).json()) as { RES_NAMES: string[] }).RES_NAMES;
  stations = ((await (await app.get('/info/list_STA_NAMES', { method: 'POST' })).json()) as { STA_NAMES: string[] }).STA_NAMES;
});

const get = async (path: string, params: Record<string, string> = {}): Promise<Row[]> => {
  const response = await app.get(`${path}?${new URLSearchParams(params)}`);
  const body = await response.json();
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body as Row[];
};

describe('daily paths', () => {
  it('answer on one date what the range paths answer for that day, for every reservoir and station', async () => {
    for (const date of ['2019-01-01', '2020-02-29', '2021-12-31']) {
      const onDate = await get('/timeseries/daily/reservoirs/date', { date });
      expect(onDate.map((r) => r.RES_NAME)).toEqual(reservoirs);
      expect(onDate).toEqual(await get('/timeseries/daily/reservoirs/daterange', { RES_NAMES: reservoirs.join(','), start_date: date, end_date: date }));
      const stationsOnDate = await get('/timeseries/stations/date', { date });
      const stationRange = await get('/timeseries/stations/daterange', { STA_NAMES: stations.join(','), start_date: date, end_date: date });
      expect(stationsOnDate.map((r) => r.STA_NAME)).toEqual(stationRange.map((r) => r.STA_NAME));
      // the date path lists every station variable any station holds; the range path those of the stations asked
      stationsOnDate.forEach((r, i) => expect(r).toMatchObject(stationRange[i]!));
    }
  });

  it('give one record per name and day of the range, in order, and the same as CSV', async () => {
    const names = reservoirs.slice(0, 3);
    const params = { RES_NAMES: names.join(','), datasets: 'nete-volume-calcs', start_date: '2020-12-20', end_date: '2021-01-10' };
    const records = await get('/timeseries/daily/reservoirs/daterange', params);
    const days = Array.from({ length: 22 }, (_, i) => format(addDays(new Date(2020, 11, 20), i), 'yyyy-MM-dd'));
    expect(records.map((r) => [r.RES_NAME, r.start_date, r.end_date])).toEqual(names.flatMap((n) => days.map((d) => [n, d, d])));
    const csv = await (await app.get(`/timeseries/daily/reservoirs/daterange?${new URLSearchParams({ ...params, output_format: 'csv' })}`)).text();
    expect(parseCsv(csv)).toEqual(records);
  });

  it('convert to english units with the textbook factors (mm to inches, cubic metres to acre-feet, degrees C to F)', async () => {
    const params = { RES_NAMES: reservoirs.slice(0, 2).join(','), variables: 'NetE,E_volume,Tw', start_date: '2020-07-01', end_date: '2020-07-10' };
    const metric = await get('/timeseries/daily/reservoirs/daterange', params);
    const english = await get('/timeseries/daily/reservoirs/daterange', { ...params, units: 'english' });
    expect(english).toHaveLength(metric.length);
    const close = (a: number | null | string, b: number | null) =>
      b === null ? expect(a).toBeNull() : expect(Math.abs((a as number) - b)).toBeLessThanOrEqual(5e-5 + Math.abs(b) * 1e-6);
    english.forEach((e, i) => {
      const m = metric[i]!;
      close(e['NetE (in)']!, m['NetE (mm)'] === null ? null : (m['NetE (mm)'] as number) / 25.4);
      close(e['E_volume (acre-ft)']!, m['E_volume (m3)'] === null ? null : (m['E_volume (m3)'] as number) / 1233.48183754752);
      close(e['Tw (degF)']!, m['Tw (degC)'] === null ? null : ((m['Tw (degC)'] as number) * 9) / 5 + 32);
    });
  });

  it('take latest as the last day held and a duration as the days ending with end_date', async () => {
    const [{ end_date: last }] = (await get('/info/list_dates', { dataset: 'lem', variable: 'E_hs' })) as [{ end_date: string }];
    const name = reservoirs[0]!;
    const base = { RES_NAMES: name, datasets: 'lem', variables: 'E_hs' };
    expect(await get('/timeseries/daily/reservoirs/daterange', { ...base, start_date: 'latest', end_date: 'latest' })).toEqual(
      await get('/timeseries/daily/reservoirs/daterange', { ...base, start_date: last, end_date: last }),
    );
    const end = '2021-03-15';
    const start = format(subDays(new Date(2021, 2, 15), 29), 'yyyy-MM-dd'); // P30D: 30 days, end_date included
    expect(await get('/timeseries/daily/reservoirs/daterange', { ...base, start_date: 'P30D', end_date: end })).toEqual(
      await get('/timeseries/daily/reservoirs/daterange', { ...base, start_date: start, end_date: end }),
    );
  });
});

describe('info and metadata paths', () => {
  it("list each dataset's variables as the columns its records have, and dates spanning its records", async () => {
    for (const dataset of (await get('/info/list_datasets')) as unknown as string[]) {
      const variables = (await get('/info/list_variables', { dataset })).map((v) => v.api_name);
      const records = await get('/timeseries/daily/reservoirs/daterange', {
        RES_NAMES: reservoirs.join(','),
        datasets: dataset,
        start_date: '1990-01-01',
        end_date: '2030-12-31',
      });
      expect(
        Object.keys(records[0]!)
          .slice(3)
          .map((k) => k.slice(0, k.indexOf(' ('))),
        dataset,
      ).toEqual(variables);
      const days = records.map((r) => String(r.start_date)).sort();
      expect(await get('/info/list_dates', { dataset, variable: String(variables[0]) }), dataset).toEqual([{ start_date: days[0], end_date: days.at(-1) }]);
    }
  });

  it("list the names whose metadata the metadata paths give, and the stations' dates spanning their records", async () => {
    expect((await get('/metadata/reservoirs', { RES_NAMES: reservoirs.join(',') })).map((r) => r.RES_NAME)).toEqual(reservoirs);
    expect((await get('/metadata/stations', { STA_NAMES: stations.join(',') })).map((r) => r.STA_NAME)).toEqual(stations);
    const name = stations[0]!;
    const records = await get('/timeseries/stations/daterange', { STA_NAMES: name, variables: 'ATemp', start_date: '1990-01-01', end_date: '2030-12-31' });
    expect(await get('/info/list_stations_dates', { STA_NAMES: name })).toEqual([{ start_date: records[0]!.start_date, end_date: records.at(-1)!.start_date }]);
  });
});
