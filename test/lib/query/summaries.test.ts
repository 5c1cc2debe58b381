// Aggregates and normals against DuckDB over the store's own Parquet files: GROUP BY month, and quantile_cont
// (linear interpolation between closest ranks, the method the normals document) for the percentiles.

import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../../lib/errors.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';

let store: EvapStore;
let duck: DuckDBConnection;
const rows = async (sql: string) => (await duck.runAndReadAll(sql)).getRowObjectsJson() as Record<string, string | number | null>[];
const glob = (dataset: string) => `'${join(store.root, 'reservoirs', `dataset=${dataset}`, 'year=*', '*.parquet').replaceAll("'", "''")}'`;

beforeAll(async () => {
  store = await openStore();
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => duck.closeSync());

describe('monthly aggregates', () => {
  it('equal DuckDB GROUP BY over the store files: sums of NetE and E_volume, the mean of Tw', async () => {
    const names = ['LAKE ALICE', 'LAKE MEAD'];
    const expected = await rows(`
      select n.RES_NAME, strftime(date_trunc('month', n.date), '%Y-%m-%d') as month, count(*)::int as days,
             sum(n.NetE) as nete, sum(n.E_volume) as volume, avg(l.Tw) as tw
      from read_parquet(${glob('nete-volume-calcs')}) n join read_parquet(${glob('lem')}) l using (RES_NAME, date)
      where n.RES_NAME in ('LAKE ALICE', 'LAKE MEAD') and n.date between '2019-03-10' and '2021-11-20'
      group by all order by n.RES_NAME, month`);
    const ours = await store.reservoirAggregates({
      names,
      datasets: ['nete-volume-calcs', 'lem'],
      variables: ['NetE', 'E_volume', 'Tw'],
      start: '2019-03-10',
      end: '2021-11-20',
    });
    expect(ours.length).toBe(2 * 33);
    expect(ours.map((r) => [r.RES_NAME, (r.start_date as string).slice(0, 7)])).toEqual(expected.map((r) => [r.RES_NAME, (r.month as string).slice(0, 7)]));
    ours.forEach((r, i) => {
      const e = expected[i]!;
      expect(r['NetE (mm)']).toBeCloseTo(e.nete as number, 3);
      expect(Math.abs((r['E_volume (m3)'] as number) - (e.volume as number))).toBeLessThan(1e-3);
      expect(r['Tw (degC)']).toBeCloseTo(e.tw as number, 3);
      if (r.start_date !== '2019-03-10' && r.end_date !== '2021-11-20') expect(r.n_days).toBe(e.days); // whole months: every day is in the store
    });
  });
});

describe('counts in aggregates', () => {
  it('count the days with a value and the days flagged M, S and R as DuckDB does over the store files', async () => {
    const [{ name }] = (await rows(`select min(RES_NAME) as name from read_parquet(${glob('nete-volume-calcs')}) where qflag = 'S'`)) as { name: string }[];
    const names = ['LAKE MEAD', name!].sort();
    const expected = await rows(`
      select RES_NAME, strftime(date_trunc('month', date), '%Y-%m-%d') as month, count(NetE)::int as n,
             count(*) filter (where qflag = 'M')::int as m, count(*) filter (where qflag = 'S')::int as s,
             count(*) filter (where qflag = 'R')::int as r
      from read_parquet(${glob('nete-volume-calcs')})
      where RES_NAME in (${names.map((n) => `'${n}'`).join(', ')}) and date between '2019-02-10' and '2021-12-31'
      group by all order by RES_NAME, month`);
    const ours = await store.reservoirAggregates({ names, datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2019-02-10', end: '2021-12-31' });
    expect(ours.map((r) => [r.RES_NAME, r.start_date, r['NetE (mm) n'], r.n_qflag_M, r.n_qflag_S, r.n_qflag_R])).toEqual(
      expected.map((e) => [e.RES_NAME, e.month === '2019-02-01' ? '2019-02-10' : e.month, e.n, e.m, e.s, e.r]),
    );
    expect(expected.some((e) => (e.s as number) > 0) && expected.some((e) => (e.m as number) > 0)).toBe(true); // something was counted
  });
});

describe('normals', () => {
  it('equal DuckDB quantile_cont over the monthly sums of each calendar month', async () => {
    const expected = await rows(`
      with monthly as (
        select year(date) as y, month(date) as m, sum(NetE) as total
        from read_parquet(${glob('nete-volume-calcs')}) where RES_NAME = 'LAKE POWELL' group by all)
      select m::int as m, count(*)::int as n, avg(total) as mean, min(total) as lo, max(total) as hi,
             quantile_cont(total, 0.1) as p10, quantile_cont(total, 0.25) as p25, quantile_cont(total, 0.5) as p50,
             quantile_cont(total, 0.75) as p75, quantile_cont(total, 0.9) as p90
      from monthly group by m order by m`);
    const ours = await store.reservoirNormals({ names: ['LAKE POWELL'], datasets: ['nete-volume-calcs'], variables: ['NetE'] });
    expect(ours.map((r) => r.month)).toEqual(expected.map((r) => r.m));
    ours.forEach((r, i) => {
      const e = expected[i]!;
      expect(r['NetE (mm) n']).toBe(e.n);
      for (const [ours_, theirs] of [
        ['mean', 'mean'],
        ['min', 'lo'],
        ['max', 'hi'],
        ['p10', 'p10'],
        ['p25', 'p25'],
        ['p50', 'p50'],
        ['p75', 'p75'],
        ['p90', 'p90'],
      ] as const) {
        expect(r[`NetE (mm) ${ours_}`], `${r.month} ${ours_}`).toBeCloseTo(e[theirs] as number, 3);
      }
    });
  });

  it('gives every reservoir the normals it gets when asked for alone', async () => {
    const names = store.manifest.reservoirs.names.slice(0, 20);
    const query = { datasets: ['rtma', 'lem'], variables: ['pr', 'th', 'Tw'], baseStart: '2019-03-01', baseEnd: '2021-10-31' };
    const together = await store.reservoirNormals({ ...query, names });
    const alone = (await Promise.all(names.map((n) => store.reservoirNormals({ ...query, names: [n] })))).flat();
    expect(together.length).toBe(20 * 12);
    expect(together).toEqual(alone);
  });

  it('by day of the year: the daily values of each MM-DD, February 29 from leap years only', async () => {
    const ours = await store.reservoirNormals({ names: ['LAKE ALICE'], datasets: ['nete-volume-calcs'], variables: ['NetE'], period: 'day' });
    expect(ours).toHaveLength(366);
    const daily = await store.reservoirTimeseries({
      names: ['LAKE ALICE'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE'],
      start: '2019-01-01',
      end: '2021-12-31',
    });
    const feb29 = ours.find((r) => r.day === '02-29')!;
    expect(feb29['NetE (mm) n']).toBe(1);
    expect(feb29['NetE (mm) mean']).toBe(daily.find((r) => r.start_date === '2020-02-29')!['NetE (mm)']);
    const jan1 = daily.filter((r) => (r.start_date as string).endsWith('-01-01')).map((r) => r['NetE (mm)'] as number);
    expect(ours[0]!['NetE (mm) max']).toBe(Math.max(...jan1));
    expect(ours[0]!['NetE (mm) mean']).toBeCloseTo(jan1.reduce((a, b) => a + b) / 3, 4);
  });

  it('gives pct_of_normal on monthly aggregates: 100 x the month / its normal mean, null for a clipped month', async () => {
    const normals = await store.reservoirNormals({ names: ['LAKE ALICE'], datasets: ['nete-volume-calcs'], variables: ['E_volume'], units: 'english' });
    const months = await store.reservoirAggregates({
      names: ['LAKE ALICE'],
      datasets: ['nete-volume-calcs'],
      variables: ['E_volume'],
      start: '2020-06-10',
      end: '2020-08-31',
      units: 'english',
      compareTo: 'normal',
    });
    expect(months.map((r) => r['E_volume (acre-ft) pct_of_normal'])).toEqual([
      null,
      expect.closeTo((100 * (months[1]!['E_volume (acre-ft)'] as number)) / (normals[6]!['E_volume (acre-ft) mean'] as number), 2),
      expect.closeTo((100 * (months[2]!['E_volume (acre-ft)'] as number)) / (normals[7]!['E_volume (acre-ft) mean'] as number), 2),
    ]);
    await expect(store.reservoirAggregates({ interval: 'annual', compareTo: 'normal' })).rejects.toThrow(/monthly aggregates only/);
  });
});

// statistic, compare_to and period travel as any string from the wire: the store takes a string and checks it
describe('the words of a summary query, checked at the public boundary', () => {
  const one = { names: ['LAKE ALICE'], datasets: ['nete-volume-calcs' as const], variables: ['NetE'], start: '2020-01-01', end: '2020-02-29' };
  const refusal = async (asked: Promise<unknown>) =>
    asked.then(
      () => undefined,
      (error: unknown) => error,
    );
  const words = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('sum', 'mean', 'min', 'max', 'normal', 'Normal', 'month', 'day', 'Sum', 'MONTH', ' day'),
  );

  it('takes exactly the allowed values of statistic, compare_to and period, and refuses any other naming the parameter', async () => {
    await fc.assert(
      fc.asyncProperty(words, async (word) => {
        const cases: [string, string[], Promise<unknown>][] = [
          ['statistic', ['sum', 'mean', 'min', 'max'], store.reservoirAggregates({ ...one, statistic: word })],
          ['compareTo', ['normal'], store.reservoirAggregates({ ...one, compareTo: word, baseStart: '2019-01-01', baseEnd: '2021-12-31' })],
          ['period', ['month', 'day'], store.reservoirNormals({ names: one.names, datasets: one.datasets, variables: one.variables, period: word })],
        ];
        for (const [parameter, allowed, asked] of cases) {
          const error = await refusal(asked);
          if (allowed.includes(word)) expect(error, `${parameter}=${word}`).toBeUndefined();
          else {
            expect(error, `${parameter}=${JSON.stringify(word)}`).toBeInstanceOf(InvalidParameterError);
            expect((error as InvalidParameterError).parameter).toBe(parameter);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('readRows of aggregates and normals', () => {
  it('is the count of stored rows DuckDB finds for the names in the years the days (and the base period) touch', async () => {
    const count = async (dataset: string, names: readonly string[], fromYear: number, toYear: number) =>
      Number(
        (
          await rows(
            `select count(*)::int as n from read_parquet(${glob(dataset)}, hive_partitioning = true) where RES_NAME in (${names.map((n) => `'${n}'`).join(', ')}) and year between ${fromYear} and ${toYear}`,
          )
        )[0]!.n,
      );
    const names = ['LAKE ALICE', 'LAKE MEAD', 'LAKE POWELL'];
    const years = store.manifest.datasets.lem!.partitions.map((p) => p.year);
    const [first, last] = [Math.min(...years), Math.max(...years)];
    const monthly = store.streamReservoirAggregates({ names, datasets: ['nete-volume-calcs', 'lem'], start: `${first}-06-01`, end: `${first + 1}-02-01` });
    expect(monthly.readRows).toBe((await count('nete-volume-calcs', names, first, first + 1)) + (await count('lem', names, first, first + 1)));
    const compared = store.streamReservoirAggregates({ names, datasets: ['lem'], start: `${last}-01-01`, end: `${last}-03-31`, compareTo: 'normal' });
    expect(compared.readRows).toBe((await count('lem', names, last, last)) + (await count('lem', names, first, last))); // the month's and the normal's
    const normals = store.streamReservoirNormals({ names: names.slice(0, 1), datasets: ['lem'] });
    expect(normals.readRows).toBe(await count('lem', names.slice(0, 1), first, last));
  });
});
