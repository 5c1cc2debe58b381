// Aggregates against an independent plain loop over the daily records, and on a hand-made store whose answers are
// worked out by hand: water-year and leap-year boundaries, empty periods, circular means near 0/360.
import { addDays, differenceInCalendarDays, min as earliestOf, endOfMonth, endOfYear, max as latestOf, parseISO, startOfMonth, startOfYear } from 'date-fns';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import type { WireRecord } from '../../../lib/types.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { daysFrom, directionVariables, summedVariables, tempDir, tinyReservoirs, tinyStations } from '../../helpers.js';

// metric label -> [factor, offset] to English (evap-docs appendix; exact definitions of the inch, foot, acre, mile)
const ENGLISH: Record<string, [number, number]> = {
  mm: [1 / 25.4, 0],
  degC: [1.8, 32],
  'm/s': [3600 / 1609.344, 0],
  m: [1 / 0.3048, 0],
  m2: [1 / 4046.8564224, 0],
  m3: [1 / (4046.8564224 * 0.3048), 0],
  'm3/s': [1 / 0.3048 ** 3, 0],
};

type Interval = 'monthly' | 'annual' | 'water-year';
const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function periodOf(date: Date, interval: Interval): [Date, Date] {
  if (interval === 'monthly') return [startOfMonth(date), endOfMonth(date)];
  if (interval === 'annual') return [startOfYear(date), endOfYear(date)];
  const endsIn = date.getMonth() >= 9 ? date.getFullYear() + 1 : date.getFullYear();
  return [new Date(endsIn - 1, 9, 1), new Date(endsIn, 8, 30)];
}

/** The expected aggregate records, from daily metric records by a plain loop. */
function expectedAggregates(
  daily: readonly WireRecord[],
  nameKey: string,
  variables: readonly string[],
  interval: Interval,
  start: string,
  end: string,
  english: boolean,
  statistic?: string,
): WireRecord[] {
  const groups = new Map<string, WireRecord[]>();
  for (const r of daily) {
    const [first] = periodOf(parseISO(r.start_date as string), interval);
    const key = `${r[nameKey]}|${iso(first)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out: WireRecord[] = [];
  for (const rows of groups.values()) {
    const [first, last] = periodOf(parseISO(rows[0]!.start_date as string), interval);
    const from = latestOf([first, parseISO(start)]);
    const to = earliestOf([last, parseISO(end)]);
    const record: WireRecord = { [nameKey]: rows[0]![nameKey]!, start_date: iso(from), end_date: iso(to), n_days: differenceInCalendarDays(to, from) + 1 };
    for (const v of variables) {
      const metricKey = Object.keys(rows[0]!).find((k) => k.startsWith(`${v} (`))!;
      const label = metricKey.slice(v.length + 2, -1);
      const [factor, offset] = english ? (ENGLISH[label] ?? [1, 0]) : [1, 0];
      const values = rows
        .map((r) => r[metricKey])
        .filter((x): x is number => typeof x === 'number')
        .map((x) => x * factor + offset);
      const how =
        statistic === undefined || (statistic === 'mean' && directionVariables.has(v))
          ? summedVariables.has(v)
            ? 'sum'
            : directionVariables.has(v)
              ? 'circular'
              : 'mean'
          : statistic;
      let value: number | null = null;
      if (values.length > 0) {
        if (how === 'sum') value = values.reduce((a, b) => a + b, 0);
        else if (how === 'mean') value = values.reduce((a, b) => a + b, 0) / values.length;
        else if (how === 'min') value = Math.min(...values);
        else if (how === 'max') value = Math.max(...values);
        else {
          const s = values.reduce((a, x) => a + Math.sin((x * Math.PI) / 180), 0);
          const c = values.reduce((a, x) => a + Math.cos((x * Math.PI) / 180), 0);
          value = ((((Math.atan2(s, c) * 180) / Math.PI) % 360) + 360) % 360;
        }
      }
      record[v] = value;
    }
    out.push(record);
  }
  return out;
}

// the answer's record reduced to the oracle's keys (variable names without units), checked for the unit labels
function comparable(records: readonly WireRecord[], nameKey: string, variables: readonly string[]): WireRecord[] {
  return records.map((r) => {
    const out: WireRecord = { [nameKey]: r[nameKey]!, start_date: r.start_date!, end_date: r.end_date!, n_days: r.n_days! };
    for (const v of variables) out[v] = r[Object.keys(r).find((k) => k.startsWith(`${v} (`))!]!;
    return out;
  });
}

function expectClose(actual: WireRecord[], expected: WireRecord[], variables: readonly string[], what: string): void {
  expect(
    actual.map((r) => [r.RES_NAME ?? r.STA_NAME, r.start_date, r.end_date, r.n_days]),
    what,
  ).toEqual(expected.map((r) => [r.RES_NAME ?? r.STA_NAME, r.start_date, r.end_date, r.n_days]));
  actual.forEach((r, i) => {
    for (const v of variables) {
      const a = r[v] as number | null;
      const e = expected[i]![v] as number | null;
      if (e === null || a === null) {
        expect(a, `${what} ${v} ${r.start_date}`).toBe(e);
        continue;
      }
      const diff = directionVariables.has(v) && !/min|max|sum/.test(what) ? Math.min(Math.abs(a - e), 360 - Math.abs(a - e)) : Math.abs(a - e);
      expect(diff, `${what} ${v} ${r.start_date}: ${a} vs ${e}`).toBeLessThanOrEqual(5.1e-5 + 1e-9 * Math.abs(e)); // the answer is rounded to 4 decimals
    }
  });
}

let store: EvapStore;
beforeAll(async () => {
  store = await openStore();
});

const reservoirVariables = ['pr', 'tmmx_c', 'vs2m', 'etr', 'th', 'stage_m', 'area_m2', 'E_hs', 'Tw', 'NetE', 'E_volume', 'NetE_volume'];
const dateIn = (from: string, days: number) => fc.integer({ min: 0, max: days }).map((n) => iso(addDays(parseISO(from), n)));

describe('reservoir aggregates', () => {
  it('equal a plain loop over the daily records for random names, ranges, variables, intervals, units and statistics', async () => {
    const names = store.manifest.reservoirs.names;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 2 }),
        fc.uniqueArray(fc.constantFrom(...reservoirVariables), { minLength: 1, maxLength: 4 }),
        dateIn('2018-11-01', 1250),
        fc.integer({ min: 0, max: 500 }),
        fc.constantFrom<Interval>('monthly', 'annual', 'water-year'),
        fc.boolean(),
        fc.constantFrom(undefined, 'sum', 'mean', 'min', 'max'),
        async (chosen, variables, start, length, interval, english, statistic) => {
          const end = iso(addDays(parseISO(start), length));
          const daily = await store.reservoirTimeseries({ names: chosen, variables, start, end });
          const ours = await store.reservoirAggregates({
            names: chosen,
            variables,
            start,
            end,
            interval,
            units: english ? 'english' : 'metric',
            statistic: statistic as never,
          });
          const what = `${chosen} ${start}..${end} ${interval} ${english ? 'english' : 'metric'} ${statistic ?? 'default'}`;
          expectClose(
            comparable(ours, 'RES_NAME', variables),
            expectedAggregates(daily, 'RES_NAME', variables, interval, start, end, english, statistic),
            variables,
            what,
          );
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('many reservoirs at once', () => {
  it('gives every reservoir the records it gets when asked for alone', async () => {
    const names = store.manifest.reservoirs.names;
    const query = {
      datasets: ['rtma', 'nete-volume-calcs'],
      variables: ['pr', 'th', 'NetE'],
      start: '2019-06-10',
      end: '2021-02-03',
      interval: 'water-year' as const,
    };
    const together = await store.reservoirAggregates({ ...query, names });
    const alone = (await Promise.all(names.map((n) => store.reservoirAggregates({ ...query, names: [n] })))).flat();
    expect(together.length).toBe(names.length * 3);
    expect(together).toEqual(alone);
  });
});

describe('station aggregates', () => {
  it('equal a plain loop over the daily records, gaps and missing days included', async () => {
    const names = store.manifest.stations.names;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...names),
        dateIn('2009-06-01', 4600),
        fc.integer({ min: 0, max: 800 }),
        fc.constantFrom<Interval>('monthly', 'annual', 'water-year'),
        fc.boolean(),
        fc.constantFrom(undefined, 'sum', 'min'),
        async (name, start, length, interval, english, statistic) => {
          const variables = store
            .listStationVariables([name])
            .map((v) => v.api_name)
            .slice(0, 6);
          fc.pre(variables.length > 0);
          const end = iso(addDays(parseISO(start), length));
          const daily = await store.stationTimeseries({ names: [name], variables, start, end });
          const ours = await store.stationAggregates({
            names: [name],
            variables,
            start,
            end,
            interval,
            units: english ? 'english' : 'metric',
            statistic: statistic as never,
          });
          expectClose(
            comparable(ours, 'STA_NAME', variables),
            expectedAggregates(daily, 'STA_NAME', variables, interval, start, end, english, statistic),
            variables,
            `${name} ${start}..${end} ${interval} ${statistic ?? 'default'}`,
          );
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('aggregates on a hand-made store', () => {
  let tiny: EvapStore;
  beforeAll(async () => {
    // ALPHA LAKE: pr = 1 mm every day from 2019-09-25 to 2020-10-05; th in 2020 by month: January 350/10, February
    // 359/1, March 90/180, April 340/350/20, otherwise 180. BETA RESERVOIR: the same days, pr and th all gaps.
    const dir = await tempDir();
    const writer = createStoreWriter(dir, { rowGroupSize: 64 });
    await writer.writeReservoirMetadata(tinyReservoirs);
    await writer.writeStationMetadata(tinyStations);
    const thOf = (d: number) => {
      const date = new Date(d * 86_400_000);
      const [year, month, dom] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()];
      if (year !== 2020) return 180;
      if (month === 0) return dom === 31 ? 0 : dom % 2 ? 350 : 10; // 15 of each, and 0
      if (month === 1) return dom === 29 ? 0 : dom % 2 ? 359 : 1; // 14 of each, and 0: the sum of sines is a rounding error either side of 0
      if (month === 2) return dom === 31 ? 135 : dom % 2 ? 90 : 180;
      if (month === 3) return [340, 350, 20][(dom - 1) % 3]!;
      return 180;
    };
    for (const [year, start, count] of [
      [2019, '2019-09-25', 98],
      [2020, '2020-01-01', 279],
    ] as const) {
      const days = daysFrom(start, count);
      const names = [...Array.from(days, () => 'ALPHA LAKE'), ...Array.from(days, () => 'BETA RESERVOIR')];
      const both = Int32Array.from([...days, ...days]);
      const pr = Float64Array.from(both, (_, i) => (i < count ? 1 : NaN));
      const th = Float64Array.from(both, (d, i) => (i < count ? thOf(d) : NaN));
      await writer.writeReservoirPartition('rtma', year, { names, days: both, values: { pr, th } });
    }
    await writer.writeStationPartition('ALPHA_STATION', {
      days: daysFrom('2020-01-30', 4),
      values: { WD: Float64Array.from([350, 20, 355, 5]), ATemp: Float64Array.from([0, 10, 20, 30]) },
    });
    await writer.commit();
    tiny = await openStore(dir);
  });
  const query = { names: ['ALPHA LAKE', 'BETA RESERVOIR'], datasets: ['rtma'], variables: ['pr', 'th'] };

  it('cuts water years at October 1, counts February 29, and clips the first and last period to the range', async () => {
    const years = await tiny.reservoirAggregates({ ...query, names: ['ALPHA LAKE'], interval: 'water-year', start: '2019-09-01', end: '2020-12-31' });
    expect(years.map((r) => [r.start_date, r.end_date, r.n_days, r['pr (mm)']])).toEqual([
      ['2019-09-01', '2019-09-30', 30, 6], // data from 09-25: 6 days, n_days counts the range's days
      ['2019-10-01', '2020-09-30', 366, 366],
      ['2020-10-01', '2020-12-31', 92, 5],
    ]);
    const months = await tiny.reservoirAggregates({ ...query, names: ['ALPHA LAKE'], start: '2020-02-15', end: '2020-03-02' });
    expect(months.map((r) => [r.start_date, r.end_date, r.n_days, r['pr (mm)']])).toEqual([
      ['2020-02-15', '2020-02-29', 15, 15],
      ['2020-03-01', '2020-03-02', 2, 2],
    ]);
    const annual = await tiny.reservoirAggregates({
      ...query,
      names: ['ALPHA LAKE'],
      interval: 'annual',
      start: '2019-01-01',
      end: '2021-06-30',
      units: 'english',
    });
    expect(annual.map((r) => [r.start_date, r.end_date, r['pr (in)']])).toEqual([
      ['2019-01-01', '2019-12-31', 3.8583],
      ['2020-01-01', '2020-12-31', 10.9843],
    ]); // 98 mm and 279 mm in inches
  });

  it('takes the circular mean of directions: 350 and 10 average to 0, not 180', async () => {
    const months = await tiny.reservoirAggregates({ ...query, names: ['ALPHA LAKE'], start: '2020-01-01', end: '2020-05-31' });
    expect(months.map((r) => r['th (deg)'])).toEqual([0, 0, 135, 356.5306, 180]);
    const override = await tiny.reservoirAggregates({ ...query, names: ['ALPHA LAKE'], start: '2020-01-01', end: '2020-01-31', statistic: 'max' });
    expect(override[0]!['th (deg)']).toBe(350);
    const station = await tiny.stationAggregates({
      names: ['ALPHA_STATION'],
      variables: ['WD', 'ATemp'],
      start: '2020-01-01',
      end: '2020-02-29',
      units: 'english',
    });
    expect(station.map((r) => [r.start_date, r.n_days, r['WD (deg)'], r['ATemp (degF)']])).toEqual([
      ['2020-01-01', 31, 5, 41],
      ['2020-02-01', 29, 0, 77],
    ]);
  });

  it('answers null for a period whose days hold no value, and leaves out periods without days', async () => {
    const months = await tiny.reservoirAggregates({ ...query, start: '2019-08-01', end: '2019-10-31' });
    expect(months.map((r) => [r.RES_NAME, r.start_date, r['pr (mm)'], r['th (deg)']])).toEqual([
      ['ALPHA LAKE', '2019-09-01', 6, 180],
      ['ALPHA LAKE', '2019-10-01', 31, 180],
      ['BETA RESERVOIR', '2019-09-01', null, null],
      ['BETA RESERVOIR', '2019-10-01', null, null],
    ]);
  });

  it('converts a sum of temperatures to degrees F day by day', async () => {
    const [january] = await tiny.stationAggregates({
      names: ['ALPHA_STATION'],
      variables: ['ATemp'],
      start: '2020-01-01',
      end: '2020-01-31',
      statistic: 'sum',
      units: 'english',
    });
    expect(january!['ATemp (degF)']).toBe(32 + 50); // 0 C and 10 C are 32 F and 50 F
  });
});
