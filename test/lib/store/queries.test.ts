// Every query function against the demo store, checked by physics and by the wire format's rules.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetNames, reservoirVariables, stationVariableNames } from '../../../lib/catalogue.js';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import type { WireRecord } from '../../../lib/types.js';

let store: EvapStore;
beforeAll(async () => {
  store = await openStore(process.env.EVAP_TEST_STORE || undefined); // test/lib/store/bucket-queries.test.ts runs this suite over a bucket
});

const num = (r: WireRecord, key: string) => r[key] as number;
const hasAtMost4Decimals = (v: number) => Math.abs(v * 1e4 - Math.round(v * 1e4)) < 1e-6 * Math.max(1, Math.abs(v * 1e4));

function sortedByNameThenDate(records: readonly WireRecord[], nameKey: string): boolean {
  return records.every((r, i) => {
    if (i === 0) return true;
    const p = records[i - 1]!;
    const a = String(p[nameKey]);
    const b = String(r[nameKey]);
    return a < b || (a === b && String(p.start_date) < String(r.start_date));
  });
}

describe('reservoirTimeseries', () => {
  it('answers the README example: a year of LAKE ALICE with qflag attached', async () => {
    const rows = await store.reservoirTimeseries({
      names: ['LAKE ALICE'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE', 'E_volume'],
      start: '2020-01-01',
      end: '2020-12-31',
      units: 'metric',
      alsoReturn: ['qflag'],
    });
    expect(rows).toHaveLength(366); // 2020 is a leap year
    expect(Object.keys(rows[0]!)).toEqual(['RES_NAME', 'start_date', 'end_date', 'NetE (mm)', 'E_volume (m3)', 'qflag']);
    expect(rows[0]!.start_date).toBe('2020-01-01');
    expect(rows[365]!.end_date).toBe('2020-12-31');
    expect(rows[0]!.qflag).toBe('O'); // the README's line
    // qflag is the day's own (issue 13): a live reservoir's days are O, M or R, never S
    expect(rows.every((r) => r.start_date === r.end_date && ['O', 'M', 'R'].includes(r.qflag as string))).toBe(true);
  });

  it('keeps NetE = E_hs - pr and E_volume = E_hs/1000 x area_m2 on every reservoir and day', async () => {
    const names = ['FLAMING GORGE RESERVOIR', 'LAKE ALICE', 'LAKE ESTES', 'LAKE MEAD', 'LAKE POWELL', 'RUEDI RESERVOIR'];
    const rows = await store.reservoirTimeseries({
      names,
      datasets: ['rtma', 'res', 'lem', 'nete-volume-calcs'],
      variables: ['pr', 'area_m2', 'E_hs', 'NetE', 'E_volume', 'NetE_volume'],
      start: '2019-01-01',
      end: '2021-12-31',
    });
    expect(rows).toHaveLength(6 * 1096);
    for (const r of rows) {
      const area = num(r, 'area_m2 (m2)');
      expect(num(r, 'NetE (mm)')).toBeCloseTo(num(r, 'E_hs (mm)') - num(r, 'pr (mm)'), 3);
      expect(Math.abs(num(r, 'E_volume (m3)') - (num(r, 'E_hs (mm)') / 1000) * area)).toBeLessThanOrEqual((1e-4 * area) / 1000 + 1e-3);
      expect(Math.abs(num(r, 'NetE_volume (m3)') - (num(r, 'NetE (mm)') / 1000) * area)).toBeLessThanOrEqual((1e-4 * area) / 1000 + 1e-3);
    }
    expect(rows.some((r) => num(r, 'E_hs (mm)') < 0)).toBe(true); // condensation happens, as in the real data
    expect(sortedByNameThenDate(rows, 'RES_NAME')).toBe(true);
  });

  it('keeps the reservoir state within its full-pool geometry', async () => {
    const meta = new Map(store.reservoirMetadata(['LAKE MEAD', 'LAKE ALICE', 'LAKE POWELL']).map((m) => [m.RES_NAME, m]));
    const rows = await store.reservoirTimeseries({ names: [...meta.keys()] as string[], datasets: ['res'], start: '2019-01-01', end: '2021-12-31' });
    for (const r of rows) {
      const m = meta.get(r.RES_NAME as string)!;
      const area = num(r, 'area_m2 (m2)');
      const depth = num(r, 'depth_m (m)');
      expect(area).toBeGreaterThan(0);
      expect(area).toBeLessThanOrEqual((m.Shape_Area as number) * 1.0001);
      expect(depth * area).toBeLessThanOrEqual((m.CAPACITY_M3 as number) * 1.01); // depth is volume / area
      expect(num(r, 'stage_m (m)')).toBeLessThanOrEqual((m.ELEV_M as number) + 1e-4);
    }
    // the reference notes both big lakes were far below full pool in 2019-2021
    const mead = rows.filter((r) => r.RES_NAME === 'LAKE MEAD');
    expect(Math.max(...mead.map((r) => num(r, 'area_m2 (m2)')))).toBeLessThan((meta.get('LAKE MEAD')!.Shape_Area as number) * 0.9);
  });

  it('converts to English units with the labels changed', async () => {
    const query = {
      names: ['LAKE MEAD'],
      datasets: ['rtma', 'nete-volume-calcs'],
      variables: ['pr', 'tmmx_c', 'E_volume'],
      start: '2020-07-01',
      end: '2020-07-10',
    };
    const metric = await store.reservoirTimeseries(query);
    const english = await store.reservoirTimeseries({ ...query, units: 'english' });
    expect(Object.keys(english[0]!)).toEqual(['RES_NAME', 'start_date', 'end_date', 'pr (in)', 'tmmx_c (degF)', 'E_volume (acre-ft)']);
    metric.forEach((m, i) => {
      const e = english[i]!;
      expect(num(e, 'pr (in)')).toBeCloseTo(num(m, 'pr (mm)') / 25.4, 4);
      expect(num(e, 'tmmx_c (degF)')).toBeCloseTo(num(m, 'tmmx_c (degC)') * 1.8 + 32, 4);
      expect(num(e, 'E_volume (acre-ft)')).toBeCloseTo(num(m, 'E_volume (m3)') / 1233.48183754752, 4);
    });
  });

  it('rounds every value to at most 4 decimals', async () => {
    const rows = await store.reservoirTimeseries({ names: ['LAKE ESTES'], units: 'english', start: '2021-03-01', end: '2021-03-31' });
    const values = rows.flatMap((r) => Object.values(r).filter((v): v is number => typeof v === 'number'));
    expect(values.length).toBe(31 * reservoirVariables.length);
    expect(values.every(hasAtMost4Decimals)).toBe(true);
  });

  it('uses the public defaults: LAKE ALICE and LAKE ESTES, every variable, January 2020', async () => {
    const rows = await store.reservoirTimeseries();
    expect(rows).toHaveLength(62);
    expect(new Set(rows.map((r) => r.RES_NAME))).toEqual(new Set(['LAKE ALICE', 'LAKE ESTES']));
    expect(Object.keys(rows[0]!)).toHaveLength(3 + 24);
  });

  it('answers with the data it has when the range reaches outside it, and [] when it misses it', async () => {
    const rows = await store.reservoirTimeseries({
      names: ['LAKE ALICE'],
      variables: ['NetE'],
      datasets: ['nete-volume-calcs'],
      start: '2018-12-25',
      end: '2019-01-03',
    });
    expect(rows.map((r) => r.start_date)).toEqual(['2019-01-01', '2019-01-02', '2019-01-03']);
    expect(await store.reservoirTimeseries({ names: ['LAKE ALICE'], start: '1990-01-01', end: '1990-12-31' })).toEqual([]);
  });

  it('returns exactly the days of any range inside the data, sorted', async () => {
    const first = Date.UTC(2019, 0, 1) / 864e5;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1095 }), fc.integer({ min: 0, max: 60 }), async (offset, length) => {
        const start = new Date((first + offset) * 864e5).toISOString().slice(0, 10);
        const endDay = Math.min(first + offset + length, first + 1095);
        const end = new Date(endDay * 864e5).toISOString().slice(0, 10);
        const rows = await store.reservoirTimeseries({ names: ['RUEDI RESERVOIR', 'LAKE ALICE'], datasets: ['lem'], variables: ['Tw'], start, end });
        const days = endDay - (first + offset) + 1;
        return rows.length === 2 * days && rows[0]!.start_date === start && rows[rows.length - 1]!.end_date === end && sortedByNameThenDate(rows, 'RES_NAME');
      }),
      { numRuns: 40 },
    );
  });

  it('throws an error naming each bad value', async () => {
    await expect(store.reservoirTimeseries({ names: ['LAKE ALICE', 'ATLANTIS', 'ELDORADO'] })).rejects.toThrow(/reservoir not found: "ATLANTIS", "ELDORADO"/);
    await expect(store.reservoirTimeseries({ names: ['lake alice'] })).rejects.toThrow(NotFoundError);
    await expect(store.reservoirTimeseries({ datasets: ['gridmet'] })).rejects.toThrow(/unknown dataset "gridmet"; allowed: rtma, res, lem, nete-volume-calcs/);
    await expect(store.reservoirTimeseries({ variables: ['evap'] })).rejects.toThrow(/unknown variable "evap"/);
    await expect(store.reservoirTimeseries({ datasets: ['res'], variables: ['NetE'] })).rejects.toThrow(/NetE belongs to dataset nete-volume-calcs/);
    await expect(store.reservoirTimeseries({ start: '2020-02-30' })).rejects.toThrow(/^start is not a calendar date: 2020-02-30/); // the option written, not the wire's start_date;
    await expect(store.reservoirTimeseries({ end: '2020/01/31' })).rejects.toThrow(/^end must be a date in the form YYYY-MM-DD/);
    await expect(store.reservoirTimeseries({ start: '2020-03-01', end: '2020-02-01' })).rejects.toThrow(/before start 2020-03-01/);
    await expect(store.reservoirTimeseries({ names: [] })).rejects.toThrow(/^names is empty/);
    await expect(store.reservoirTimeseries({ alsoReturn: ['LAT', 'height'] })).rejects.toThrow(InvalidParameterError);
  });
});

describe('reservoirTimeseriesOnDate', () => {
  it('answers every reservoir on the date, sorted by name, consistent with the range query', async () => {
    const rows = await store.reservoirTimeseriesOnDate({ datasets: ['nete-volume-calcs'], variables: ['NetE', 'E_volume'], date: '2020-01-01' });
    const names = await store.listReservoirNames();
    expect(rows.map((r) => r.RES_NAME)).toEqual(names);
    const alice = await store.reservoirTimeseries({
      names: ['LAKE ALICE'],
      datasets: ['nete-volume-calcs'],
      variables: ['NetE', 'E_volume'],
      start: '2020-01-01',
      end: '2020-01-01',
    });
    expect(rows.find((r) => r.RES_NAME === 'LAKE ALICE')).toEqual(alice[0]);
  });

  it('answers nothing for a date without data', async () => {
    expect(await store.reservoirTimeseriesOnDate({ date: '2030-01-01' })).toEqual([]);
  });
});

describe('stationTimeseries', () => {
  it('answers the public example: LAKE MEAD_STATION ATemp and RH in January 2020', async () => {
    const rows = await store.stationTimeseries({
      names: ['LAKE MEAD_STATION'],
      variables: ['ATemp', 'RH'],
      start: '2020-01-01',
      end: '2020-01-31',
      units: 'metric',
    });
    expect(rows.length).toBeGreaterThan(20); // stations have a few gaps, as real ones do
    expect(Object.keys(rows[0]!)).toEqual(['STA_NAME', 'start_date', 'end_date', 'ATemp (degC)', 'RH (percent)']);
    for (const r of rows) {
      expect(num(r, 'RH (percent)')).toBeGreaterThanOrEqual(0);
      expect(num(r, 'RH (percent)')).toBeLessThanOrEqual(100);
    }
  });

  it('keeps ATemp_Min <= ATemp <= ATemp_Max and converts to degF', async () => {
    const query = { names: ['ABERDEEN_STATION', 'BLW_STATION'], variables: ['ATemp_Min', 'ATemp', 'ATemp_Max'], start: '2019-01-01', end: '2021-12-31' };
    const rows = await store.stationTimeseries(query);
    for (const r of rows) {
      if (r['ATemp (degC)'] === null) continue;
      expect(num(r, 'ATemp_Min (degC)')).toBeLessThanOrEqual(num(r, 'ATemp (degC)') + 1e-4);
      expect(num(r, 'ATemp (degC)')).toBeLessThanOrEqual(num(r, 'ATemp_Max (degC)') + 1e-4);
    }
    expect(sortedByNameThenDate(rows, 'STA_NAME')).toBe(true);
    const english = await store.stationTimeseries({ ...query, units: 'english' });
    expect(num(english[0]!, 'ATemp (degF)')).toBeCloseTo(num(rows[0]!, 'ATemp (degC)') * 1.8 + 32, 3);
  });

  it('gives null for a variable the station does not measure, and attaches metadata', async () => {
    const rows = await store.stationTimeseries({
      names: ['ABERDEEN_STATION'],
      variables: ['ATemp', 'PH'],
      start: '2020-05-01',
      end: '2020-05-03',
      alsoReturn: ['RES_NAME', 'STATION_TYPE'],
    });
    expect(store.listStationVariables(['ABERDEEN_STATION']).map((v) => v.api_name)).not.toContain('PH'); // a shore weather station
    expect(rows.every((r) => r['PH (ph)'] === null && r.RES_NAME === 'AMERICAN FALLS RESERVOIR' && r.STATION_TYPE === 'shore-weather')).toBe(true);
  });

  it('rejects unknown stations and variables', async () => {
    await expect(store.stationTimeseries({ names: ['LAKE MEAD'] })).rejects.toThrow(/station not found: "LAKE MEAD"/);
    await expect(store.stationTimeseries({ variables: ['NetE'] })).rejects.toThrow(/unknown station variable "NetE"/);
  });
});

describe('stationTimeseriesOnDate', () => {
  it('answers every station with data on the date, consistent with the range query', async () => {
    const rows = await store.stationTimeseriesOnDate({ variables: ['ATemp', 'RH'], date: '2020-06-15' });
    expect(rows.length).toBeGreaterThan(10);
    expect(sortedByNameThenDate(rows, 'STA_NAME')).toBe(true);
    const first = rows[0]!;
    const same = await store.stationTimeseries({ names: [first.STA_NAME as string], variables: ['ATemp', 'RH'], start: '2020-06-15', end: '2020-06-15' });
    expect(same).toEqual([first]);
  });
});

describe('info', () => {
  it('lists the datasets, their variables and date ranges', () => {
    expect(store.listDatasets()).toEqual(['rtma', 'res', 'lem', 'nete-volume-calcs']);
    expect(store.listVariables().map((v) => v.api_name)).toEqual(['NetE', 'E_volume', 'NetE_volume']);
    expect(datasetNames.flatMap((d) => store.listVariables(d).map((v) => v.api_name))).toEqual(reservoirVariables.map((v) => v.name));
    expect(store.listVariables('rtma').find((v) => v.api_name === 'pr')).toMatchObject({ units_metric: 'mm', units_english: 'in' });
    expect(store.listDates('nete-volume-calcs', 'NetE')).toEqual([{ start_date: '2019-01-01', end_date: '2021-12-31' }]);
    expect(() => store.listDates('rtma', 'NetE')).toThrow(/variable "NetE" is not in dataset rtma/);
    expect(() => store.listVariables('nope')).toThrow(/unknown dataset "nope"/);
  });

  it('lists names sorted and including the public examples', async () => {
    const reservoirs = await store.listReservoirNames();
    expect(reservoirs).toHaveLength(67);
    expect(reservoirs).toEqual([...reservoirs].sort());
    for (const n of ['LAKE ALICE', 'LAKE ESTES', 'RUEDI RESERVOIR', 'LAKE MEAD', 'LAKE POWELL', 'FLAMING GORGE RESERVOIR']) expect(reservoirs).toContain(n);
    const stations = await store.listStationNames();
    expect(stations).toHaveLength(27);
    for (const n of ['LAKE MEAD_STATION', 'BLW_STATION', 'ABERDEEN_STATION', 'ABIQUIU DAM_STATION']) expect(stations).toContain(n);
  });

  it('lists station variables and dates for some or all stations', () => {
    const all = store.listStationVariables(['ALL_STATIONS']).map((v) => v.api_name);
    expect(all.every((v) => stationVariableNames.includes(v as never))).toBe(true);
    expect(store.listStationVariables().map((v) => v.api_name)).toEqual(all);
    const mead = store.listStationVariables(['LAKE MEAD_STATION']).map((v) => v.api_name);
    expect(mead.length).toBeLessThan(all.length + 1);
    const [meadDates] = store.listStationDates(['LAKE MEAD_STATION']);
    expect(meadDates!.start_date >= '2010-01-01' && meadDates!.end_date === '2021-12-31').toBe(true); // the demo's station span
    const [allDates] = store.listStationDates();
    expect(allDates!.start_date <= meadDates!.start_date && allDates!.end_date >= meadDates!.end_date).toBe(true);
    expect(() => store.listStationDates(['NOPE_STATION'])).toThrow(NotFoundError);
  });
});

describe('metadata', () => {
  it('returns the public fields of reservoirs and stations', () => {
    const [alice, estes] = store.reservoirMetadata();
    expect(alice).toMatchObject({ RES_NAME: 'LAKE ALICE', LAT: 41.98899, LON: -103.61366, Shape_Area: 4557804 });
    expect(estes).toMatchObject({ RES_NAME: 'LAKE ESTES', Shape_Area: 964972 });
    const stations = store.stationMetadata();
    expect(stations.map((s) => s.STA_NAME)).toEqual(['ABERDEEN_STATION', 'ABIQUIU DAM_STATION']);
    expect(stations[0]).toMatchObject({ LAT: 42.95, LON: -112.83, STATION_TYPE: 'shore-weather', STATUS: 'active' });
    expect(() => store.reservoirMetadata(['LAKE ALICE', 'NOPE'])).toThrow(/reservoir not found: "NOPE"/);
  });
});

describe('reservoirTimeseriesTable', () => {
  it('gives the same values as an Arrow table', async () => {
    const query = { names: ['LAKE ALICE'], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2020-01-01', end: '2020-01-10' };
    const table = await store.reservoirTimeseriesTable(query);
    const rows = await store.reservoirTimeseries(query);
    expect(table.numRows).toBe(10);
    expect([...table.getChild('NetE (mm)')!.toArray()]).toEqual(rows.map((r) => r['NetE (mm)']));
  });
});
