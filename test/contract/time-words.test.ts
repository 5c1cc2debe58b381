// `latest` and ISO 8601 durations through the app (no socket); the last day held is found independently, by DuckDB over the files.

import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { addDays, format, parseISO, subMonths } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../server/harness.js';

let app: TestApp;
let lastReservoirDay: string;
let lastStationDay: string;
beforeAll(async () => {
  app = await testApp();
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  const root = app.store.root.replaceAll("'", "''");
  const max = async (glob: string) =>
    (
      await duck.runAndReadAll(`select strftime(max(date), '%Y-%m-%d') as d from read_parquet('${join(root, glob)}', union_by_name = true)`)
    ).getRowObjectsJson()[0]!.d as string;
  lastReservoirDay = await max('reservoirs/dataset=nete-volume-calcs/year=*/*.parquet');
  lastStationDay = await max('stations/station=LAKE%20MEAD_STATION/*.parquet'); // names are percent-encoded in paths
  duck.closeSync();
});

const records = async (path: string) => {
  const response = await app.get(path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as { start_date: string; end_date: string; RES_NAME?: string }[];
};
const day = (d: string, n: number) => format(addDays(parseISO(d), n), 'yyyy-MM-dd');

describe('latest', () => {
  it('is the last day the store holds, on range and date paths', async () => {
    const tail = await records(
      '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE&datasets=nete-volume-calcs&variables=NetE&start_date=2021-12-01&end_date=latest',
    );
    expect(tail.at(-1)!.start_date).toBe(lastReservoirDay);
    const onDate = await records('/timeseries/daily/reservoirs/date?datasets=nete-volume-calcs&variables=NetE&date=latest');
    expect(new Set(onDate.map((r) => r.start_date))).toEqual(new Set([lastReservoirDay]));
    expect(onDate.length).toBe(app.store.manifest.reservoirs.names.length);
    const station = await records('/timeseries/stations/daterange?STA_NAMES=LAKE%20MEAD_STATION&start_date=P7D&end_date=latest');
    expect(station.map((r) => r.start_date)).toEqual(Array.from({ length: 7 }, (_, i) => day(lastStationDay, i - 6)));
    const stationsOnDate = await records('/timeseries/stations/date?date=latest');
    expect(stationsOnDate.length).toBeGreaterThan(0);
  });
});

describe('durations', () => {
  it('count back from end_date: P30D is the 30 days ending with it, P1M the month before it', async () => {
    const days = await records(
      `/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&datasets=nete-volume-calcs&variables=NetE&start_date=P30D&end_date=latest`,
    );
    expect(days.map((r) => r.start_date)).toEqual(Array.from({ length: 30 }, (_, i) => day(lastReservoirDay, i - 29)));
    const month = await records(
      '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&datasets=nete-volume-calcs&variables=NetE&start_date=P1M&end_date=2020-03-15',
    );
    expect(month[0]!.start_date).toBe(format(subMonths(parseISO('2020-03-16'), 1), 'yyyy-MM-dd'));
    const monthly = await records('/timeseries/monthly/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&start_date=P1Y&end_date=latest');
    expect(monthly).toHaveLength(12);
  });

  it('leave every other word a 422 on the date parameters', async () => {
    for (const [query, parameter] of [
      ['start_date=yesterday', 'start_date'],
      ['start_date=PT1H', 'start_date'],
      ['end_date=P1D', 'end_date'],
      ['end_date=now', 'end_date'],
      ['start_date=P0D', 'end_date'],
    ] as const) {
      const response = await app.get(`/timeseries/daily/reservoirs/daterange?${query}`);
      expect(response.status, query).toBe(422);
      expect(((await response.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc, query).toEqual(['query', parameter]);
    }
    expect((await app.get('/timeseries/stations/date?date=today')).status).toBe(422);
  });
});
