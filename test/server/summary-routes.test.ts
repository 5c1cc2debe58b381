// The aggregate and normals paths through the app (no socket), each checked against a plain loop over the daily answers of the same
// server: periods cut by hand, sums, means, circular means, minima and maxima, percentiles (type 7) written out here.
import { beforeAll, describe, expect, it } from 'vitest';
import { directionVariables, summedVariables } from '../helpers.js';
import { type TestApp, testApp } from './harness.js';

type Row = Record<string, string | number | null>;
let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});

const get = async (path: string, params: Record<string, string>): Promise<Row[]> => {
  const response = await app.get(`${path}?${new URLSearchParams(params)}`);
  const body = await response.json();
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return body as Row[];
};

const variableOf = (key: string) => key.slice(0, key.indexOf(' ('));
type Method = 'sum' | 'mean' | 'circular' | 'min' | 'max';
const methodOf = (key: string, statistic?: string): Method => {
  const variable = variableOf(key);
  if (directionVariables.has(variable) && (statistic === undefined || statistic === 'mean')) return 'circular';
  return (statistic as Method | undefined) ?? (summedVariables.has(variable) ? 'sum' : 'mean');
};

function reduce(values: number[], method: Method): number | null {
  if (values.length === 0) return null;
  let total = 0;
  switch (method) {
    case 'sum':
    case 'mean':
      for (const v of values) total += v;
      return method === 'sum' ? total : total / values.length;
    case 'min':
      return Math.min(...values);
    case 'max':
      return Math.max(...values);
    case 'circular': {
      let sin = 0;
      let cos = 0;
      for (const v of values) {
        sin += Math.sin((v * Math.PI) / 180);
        cos += Math.cos((v * Math.PI) / 180);
      }
      return ((Math.atan2(sin, cos) * 180) / Math.PI + 360) % 360;
    }
  }
}

// within what rounding each daily value to 4 decimals allows
function expectClose(actual: number | string | null | undefined, expected: number | null, method: Method, n: number, what: string): void {
  if (expected === null) return void expect(actual, what).toBeNull();
  expect(typeof actual, what).toBe('number');
  const a = actual as number;
  if (method === 'circular') {
    const diff = Math.abs(((a - expected + 540) % 360) - 180);
    return void expect(diff, `${what}: ${a} vs ${expected}`).toBeLessThan(1e-2);
  }
  const tolerance = (method === 'sum' ? n * 5e-5 : 5e-5) + 5e-5 + Math.abs(expected) * 1e-9;
  expect(Math.abs(a - expected), `${what}: ${a} vs ${expected}`).toBeLessThanOrEqual(tolerance);
}

// periods by hand: [key, first day, last day] of the period holding a YYYY-MM-DD date
const lastOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
function periodOf(date: string, interval: string): [string, string, string] {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  if (interval === 'monthly') return [date.slice(0, 7), `${date.slice(0, 7)}-01`, lastOfMonth(y, m)];
  if (interval === 'annual') return [String(y), `${y}-01-01`, `${y}-12-31`];
  const wy = m >= 10 ? y + 1 : y;
  return [`WY${wy}`, `${wy - 1}-10-01`, `${wy}-09-30`];
}
const daysBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000 + 1;

/** The aggregates of daily records, by a plain loop: one record per name and period that has a row. */
function aggregateByHand(daily: Row[], nameKey: string, interval: string, start: string, end: string, statistic?: string): Row[] {
  const groups = new Map<string, Row[]>();
  for (const r of daily) {
    const key = `${r[nameKey]}\u0000${periodOf(String(r.start_date), interval)[0]}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((rows) => {
    const [, first, last] = periodOf(String(rows[0]!.start_date), interval);
    const from = first < start ? start : first;
    const to = last > end ? end : last;
    const out: Row = { [nameKey]: rows[0]![nameKey]!, start_date: from, end_date: to, n_days: daysBetween(from, to) };
    for (const key of Object.keys(rows[0]!).filter((k) => k.includes(' ('))) {
      out[key] = reduce(
        rows.map((r) => r[key]).filter((v): v is number => typeof v === 'number'),
        methodOf(key, statistic),
      );
      out[`${key} n`] = rows.filter((r) => typeof r[key] === 'number').length; // the days with a value
    }
    // with the daily records' own qflag (also_return=qflag): the days flagged modelled, static and removed
    if ('qflag' in rows[0]!) for (const flag of ['M', 'S', 'R']) out[`n_qflag_${flag}`] = rows.filter((r) => r.qflag === flag).length;
    return out;
  });
}

function expectAggregates(actual: Row[], expected: Row[], statistic?: string): void {
  expect(actual.map((r) => [r.RES_NAME ?? r.STA_NAME, r.start_date, r.end_date, r.n_days])).toEqual(
    expected.map((r) => [r.RES_NAME ?? r.STA_NAME, r.start_date, r.end_date, r.n_days]),
  );
  actual.forEach((record, i) => {
    const keys = Object.keys(expected[i]!).filter((k) => k.includes(' (') && !k.endsWith(' n'));
    expect(Object.keys(record).filter((k) => k.includes(' (') && !k.endsWith(' n'))).toEqual(keys);
    for (const key of keys)
      expectClose(record[key], expected[i]![key] as number | null, methodOf(key, statistic), expected[i]![`${key} n`] as number, `${record.start_date} ${key}`);
    const counts = Object.keys(expected[i]!).filter((k) => k.endsWith(' n') || k.startsWith('n_qflag_'));
    expect(Object.fromEntries(counts.map((k) => [k, record[k]])), `${record.start_date} counts`).toEqual(
      Object.fromEntries(counts.map((k) => [k, expected[i]![k]])),
    );
  });
}

const reservoirs = { RES_NAMES: 'LAKE MEAD,LAKE POWELL', start_date: '2019-08-15', end_date: '2021-11-10' };
const stations = { STA_NAMES: 'BLW_STATION,LAKE MEAD_STATION', start_date: '2018-12-20', end_date: '2020-10-05' };

describe('monthly, annual and water-year aggregates', () => {
  for (const interval of ['monthly', 'annual', 'water-year']) {
    it(`${interval}: every variable of reservoirs and stations as a plain loop over the daily answer`, async () => {
      const daily = await get('/timeseries/daily/reservoirs/daterange', { ...reservoirs, also_return: 'qflag' });
      expect(['M', 'R'].map((flag) => daily.some((r) => r.qflag === flag))).toEqual([true, true]); // flagged days are there to be counted
      expectAggregates(
        await get(`/timeseries/${interval}/reservoirs/daterange`, reservoirs),
        aggregateByHand(daily, 'RES_NAME', interval, reservoirs.start_date, reservoirs.end_date),
      );
      const stationDaily = await get('/timeseries/stations/daterange', stations);
      expectAggregates(
        await get(`/timeseries/${interval}/stations/daterange`, stations),
        aggregateByHand(stationDaily, 'STA_NAME', interval, stations.start_date, stations.end_date),
      );
    });
  }

  it('statistic=sum|mean|min|max overrides every variable, a mean of directions staying circular', async () => {
    const daily = await get('/timeseries/daily/reservoirs/daterange', reservoirs);
    for (const statistic of ['sum', 'mean', 'min', 'max']) {
      expectAggregates(
        await get('/timeseries/monthly/reservoirs/daterange', { ...reservoirs, statistic }),
        aggregateByHand(daily, 'RES_NAME', 'monthly', reservoirs.start_date, reservoirs.end_date, statistic),
        statistic,
      );
    }
  });

  it('in english units, as the same loop over the english daily answer', async () => {
    const query = { ...stations, units: 'english' };
    const daily = await get('/timeseries/stations/daterange', query);
    expect(Object.keys(daily[0]!)).toContain('ATemp (degF)');
    expectAggregates(
      await get('/timeseries/annual/stations/daterange', query),
      aggregateByHand(daily, 'STA_NAME', 'annual', stations.start_date, stations.end_date),
    );
  });

  it('refuses a statistic it does not know, and compare_to on annual paths, with a 422', async () => {
    for (const [path, extra] of [
      ['/timeseries/monthly/reservoirs/daterange', { statistic: 'median' }],
      ['/timeseries/annual/reservoirs/daterange', { compare_to: 'normal' }],
    ] as const) {
      const response = await app.get(`${path}?${new URLSearchParams({ ...reservoirs, ...extra })}`);
      expect(response.status, path).toBe(422);
    }
  });
});

// the type 7 percentile of docs/aggregates.md
function percentile(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const low = Math.floor(h);
  return low + 1 < sorted.length ? sorted[low]! + (h - low) * (sorted[low + 1]! - sorted[low]!) : sorted[low]!;
}
const percentiles = [10, 25, 50, 75, 90];

/** Statistics of values grouped by `group`, as the normals paths write them. */
function normalsByHand(groups: Map<string | number, number[]>, key: string): Map<string | number, Row> {
  const out = new Map<string | number, Row>();
  for (const [group, values] of groups) {
    const sorted = [...values].sort((a, b) => a - b);
    const circular = methodOf(key) === 'circular';
    const row: Row = { [`${key} n`]: values.length, [`${key} mean`]: reduce(values, circular ? 'circular' : 'mean') };
    row[`${key} min`] = circular || values.length === 0 ? null : sorted[0]!;
    row[`${key} max`] = circular || values.length === 0 ? null : sorted.at(-1)!;
    for (const p of percentiles) row[`${key} p${p}`] = circular || values.length === 0 ? null : percentile(sorted, p / 100);
    out.set(group, row);
  }
  return out;
}

describe('normals', () => {
  it('of reservoirs by month: statistics of the whole months inside the base period, and compare_to=normal against them', async () => {
    const name = 'LAKE MEAD';
    const base = { base_start: '2019-01-15', base_end: '2021-06-30' }; // whole months: 2019-02 .. 2021-06
    const daily = await get('/timeseries/daily/reservoirs/daterange', {
      RES_NAMES: name,
      datasets: 'lem,nete-volume-calcs',
      start_date: '2019-01-01',
      end_date: '2021-12-31',
    });
    const months = aggregateByHand(daily, 'RES_NAME', 'monthly', '2019-01-01', '2021-12-31').filter(
      (m) => m.start_date! >= '2019-02-01' && m.end_date! <= '2021-06-30',
    );
    expect(months).toHaveLength(29);
    const normals = await get('/timeseries/normals/reservoirs', { RES_NAMES: name, datasets: 'lem,nete-volume-calcs', ...base });
    expect(normals.map((r) => r.month)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const keys = Object.keys(daily[0]!).filter((k) => k.includes(' ('));
    for (const key of keys) {
      const byMonth = new Map<number, number[]>(Array.from({ length: 12 }, (_, i) => [i + 1, []]));
      for (const m of months) if (typeof m[key] === 'number') byMonth.get(Number(String(m.start_date).slice(5, 7)))!.push(m[key] as number);
      const expected = normalsByHand(byMonth, key);
      for (const record of normals) {
        expect(record).toMatchObject({ RES_NAME: name, start_date: base.base_start, end_date: base.base_end });
        for (const [field, value] of Object.entries(expected.get(record.month as number)!)) {
          if (field.endsWith(' n')) expect(record[field], field).toBe(value);
          else expectClose(record[field], value as number | null, field.endsWith(' mean') ? methodOf(key) : 'sum', 31, `month ${record.month} ${field}`); // each monthly value carries up to 31 roundings
        }
      }
    }

    // compare_to=normal: 100 x the month's value / that normal's mean; null for a clipped month and for directions
    const compared = await get('/timeseries/monthly/reservoirs/daterange', {
      RES_NAMES: name,
      datasets: 'lem,nete-volume-calcs',
      start_date: '2020-03-10',
      end_date: '2020-12-31',
      compare_to: 'normal',
      ...base,
    });
    expect(compared).toHaveLength(10);
    for (const record of compared) {
      for (const key of keys) {
        const normal = normals.find((n) => n.month === Number(String(record.start_date).slice(5, 7)))![`${key} mean`] as number | null;
        const pct = record[`${key} pct_of_normal`];
        if (record.start_date === '2020-03-10' || methodOf(key) === 'circular' || !normal || record[key] === null)
          expect(pct, `${record.start_date} ${key}`).toBeNull();
        else
          expect(Math.abs((pct as number) - (100 * (record[key] as number)) / normal), `${record.start_date} ${key}`).toBeLessThan(
            0.01 + Math.abs(pct as number) * 1e-4,
          );
      }
    }
  });

  it('of stations by day of the year: statistics of the daily values of each MM-DD over the whole record', async () => {
    const name = 'BLW_STATION';
    const daily = await get('/timeseries/stations/daterange', {
      STA_NAMES: name,
      variables: 'ATemp,WD,evap_3',
      start_date: '2000-01-01',
      end_date: '2030-12-31',
    });
    const normals = await get('/timeseries/normals/stations', { STA_NAMES: name, variables: 'ATemp,WD,evap_3', period: 'day' });
    expect(normals).toHaveLength(366);
    const first = String(daily[0]!.start_date);
    const last = String(daily.at(-1)!.start_date);
    for (const key of ['ATemp (degC)', 'WD (deg)', 'evap_3 (mm)']) {
      const byDay = new Map<string, number[]>();
      for (const r of daily)
        if (typeof r[key] === 'number') byDay.set(String(r.start_date).slice(5), [...(byDay.get(String(r.start_date).slice(5)) ?? []), r[key] as number]);
      const expected = normalsByHand(byDay, key);
      for (const record of normals) {
        expect(record).toMatchObject({ STA_NAME: name, start_date: first, end_date: last });
        for (const [field, value] of Object.entries(expected.get(record.day as string)!)) {
          if (field.endsWith(' n')) expect(record[field], `${record.day} ${field}`).toBe(value);
          else expectClose(record[field], value as number | null, field.endsWith(' mean') ? methodOf(key) : 'mean', 1, `${record.day} ${field}`);
        }
      }
    }
  });
});
