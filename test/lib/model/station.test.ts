import { describe, expect, it } from 'vitest';
import type { StationVariable } from '../../../lib/catalogue.js';
import type { StationSpec } from '../../../lib/model/index.js';
import { createReservoirModel, referenceStations, simulateStation } from '../../../lib/model/index.js';
import { day, reservoir } from './helpers.js';

const station = (name: string): StationSpec => referenceStations.find((s) => s.name === name)!;
const resOf = (s: StationSpec) => (s.reservoir === null ? null : reservoir(s.reservoir));
const start = day('2019-01-01');
const end = day('2020-12-31');

function present(a: Float64Array | undefined): number[] {
  return Array.from(a ?? []).filter((x) => !Number.isNaN(x));
}

describe('simulateStation', () => {
  it('keeps physical ranges at every reference station', () => {
    for (const s of referenceStations) {
      const { variables, values } = simulateStation(s, resOf(s), start, end, 1);
      expect(variables.length, s.name).toBeGreaterThan(10);
      expect(Object.keys(values).sort()).toEqual([...variables].sort());
      const v = (name: StationVariable) => values[name]!;
      for (let i = 0; i < end - start + 1; i++) {
        if (Number.isNaN(v('ATemp')[i]!)) continue;
        expect(v('ATemp_Min')[i]!).toBeLessThanOrEqual(v('ATemp')[i]!);
        expect(v('ATemp')[i]!).toBeLessThanOrEqual(v('ATemp_Max')[i]!);
        expect(v('RH')[i]!).toBeGreaterThanOrEqual(0);
        expect(v('RH')[i]!).toBeLessThanOrEqual(100);
        expect(v('PofDays')[i]!).toBeGreaterThanOrEqual(0);
        expect(v('PofDays')[i]!).toBeLessThanOrEqual(100);
        expect(v('WD')[i]!).toBeGreaterThanOrEqual(0);
        expect(v('WD')[i]!).toBeLessThan(360);
        expect(v('WS')[i]!).toBeGreaterThanOrEqual(0);
        expect(v('VPD')[i]!).toBeGreaterThanOrEqual(0);
        expect(v('BP')[i]!).toBeGreaterThan(60);
        expect(v('BP')[i]!).toBeLessThan(105);
      }
    }
  });

  it('records the variables of its type', () => {
    const vars = (name: string) => simulateStation(station(name), resOf(station(name)), start, start + 9, 1).variables;
    expect(vars('BLW_STATION')).toEqual(expect.arrayContaining(['DO', 'PH', 'WTemp', 'evap_3', 'ATemp']));
    expect(vars('BLW_STATION')).not.toContain('ETo');
    expect(vars('ABIQUIU DAM_STATION')).toContain('evap_5');
    expect(vars('ABIQUIU DAM_STATION')).not.toContain('DO');
    expect(vars('ABERDEEN_STATION')).toEqual(expect.arrayContaining(['ETo', 'ETr']));
    expect(vars('ABERDEEN_STATION')).not.toContain('evap_1');
    expect(vars('LAKE MEAD_STATION')).toEqual(expect.arrayContaining(['evap_1', 'evap_2', 'NR', 'HSEnergyFlux', 'inflow', 'outflow']));
  });

  it('measures evaporation close to the reservoir model E_hs', () => {
    const s = station('LAKE MEAD_STATION');
    const { values } = simulateStation(s, resOf(s), start, end, 4);
    const eHs = createReservoirModel(reservoir('LAKE MEAD'), 4).simulate(start, end).values.E_hs;
    for (const k of ['evap_1', 'evap_2', 'evap_3', 'evap_4'] as const) {
      const e = values[k]!;
      let diff = 0;
      let n = 0;
      e.forEach((x, i) => {
        if (!Number.isNaN(x)) {
          diff += Math.abs(x - eHs[i]!);
          n++;
        }
      });
      expect(n).toBeGreaterThan(600);
      expect(diff / n, k).toBeLessThan(0.6);
    }
  });

  it('closes the water balance with inflow and outflow', () => {
    const s = station('LAKE POWELL_STATION');
    const { values } = simulateStation(s, resOf(s), start, end, 2);
    const r = createReservoirModel(reservoir('LAKE POWELL'), 2).simulate(start - 1, end).values;
    let checked = 0;
    values.inflow!.forEach((inflow, i) => {
      if (Number.isNaN(inflow)) return;
      const j = i + 1;
      const dVdt = (r.depth_m[j]! * r.area_m2[j]! - r.depth_m[j - 1]! * r.area_m2[j - 1]!) / 86400;
      const netLoss = ((r.E_hs[j]! - r.pr[j]!) / 1000) * (r.area_m2[j]! / 86400);
      expect(inflow).toBeGreaterThanOrEqual(0);
      expect(values.outflow![i]!).toBeGreaterThanOrEqual(0);
      expect(Math.abs(inflow - values.outflow![i]! - netLoss - dVdt)).toBeLessThan(1e-3 + 1e-6 * inflow);
      checked++;
    });
    expect(checked).toBeGreaterThan(600);
  });

  it('has a few gaps at an active station', () => {
    const s = station('BLW_STATION');
    const atemp = simulateStation(s, resOf(s), day('2016-01-01'), day('2020-12-31'), 8).values.ATemp!;
    const gaps = atemp.filter((x) => Number.isNaN(x)).length;
    expect(gaps).toBeGreaterThan(0);
    expect(gaps).toBeLessThan(0.1 * atemp.length);
  });

  it('stops an inactive station before June 2021', () => {
    for (const s of referenceStations.filter((x) => x.status === 'inactive')) {
      const { variables, values } = simulateStation(s, resOf(s), day('2015-01-01'), day('2022-12-31'), 1);
      const after = day('2021-06-01') - day('2015-01-01');
      for (const v of variables) expect(present(values[v]!.subarray(after)), `${s.name} ${v}`).toEqual([]);
      expect(present(values.ATemp!.subarray(0, after)).length, s.name).toBeGreaterThan(100);
    }
  });

  it('works without a reservoir, at an off-lake weather station', () => {
    const s = station('KIMBERLY_STATION');
    const { values } = simulateStation(s, null, start, end, 1);
    const eto = present(values.ETo);
    expect(eto.length).toBeGreaterThan(600);
    expect(Math.max(...eto)).toBeGreaterThan(4); // summer in southern Idaho
  });

  it('gives a day the same values whatever range asks for it, and depends on the seed', () => {
    const s = station('ABERDEEN_STATION');
    const whole = simulateStation(s, resOf(s), start, end, 6).values.ATemp!;
    const part = simulateStation(s, resOf(s), day('2020-03-01'), day('2020-03-31'), 6).values.ATemp!;
    const offset = day('2020-03-01') - start;
    expect(Array.from(part)).toEqual(Array.from(whole.subarray(offset, offset + 31)));
    const other = simulateStation(s, resOf(s), start, end, 7).values.ATemp!;
    expect(Array.from(other)).not.toEqual(Array.from(whole));
  });
});
