import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReservoirDays, ReservoirSpec } from '../../../lib/model/index.js';
import { createReservoirModel, referenceReservoirs } from '../../../lib/model/index.js';
import { SPIN_UP_DAYS } from '../../../lib/synthetic/chunks.js';
import { demoOptions } from '../../../lib/synthetic/demo.js';
import { day, hasFourDecimals, meanWhere, monthOf, reservoir, tetens } from './helpers.js';

const y2019 = day('2019-01-01');
const y2021end = day('2021-12-31');

function run(spec: ReservoirSpec, start: string, end: string, seed = 1): ReservoirDays {
  return createReservoirModel(spec, seed).simulate(day(start), day(end));
}

/** Every invariant that holds day by day, whatever the reservoir and dates. */
function checkInvariants(spec: ReservoirSpec, d: ReservoirDays): void {
  const v = d.values;
  for (const [name, series] of Object.entries(v)) {
    expect(series, name).toHaveLength(d.days);
    for (const x of series) {
      expect(Number.isFinite(x), name).toBe(true);
      expect(hasFourDecimals(x), `${name} ${x}`).toBe(true);
    }
  }
  const pressure = 101.3 * ((293 - 0.0065 * spec.elevM) / 293) ** 5.26 * 1000; // FAO-56 eq. 7, Pa
  for (let i = 0; i < d.days; i++) {
    expect(v.tmmx_c[i]!).toBeGreaterThan(v.tmmn_c[i]!);
    expect(v.pr[i]!).toBeGreaterThanOrEqual(0);
    expect(v.vpd_kpa[i]!).toBeGreaterThanOrEqual(0);
    expect(v.vs2m[i]!).toBeGreaterThanOrEqual(0);
    expect(v.th[i]!).toBeGreaterThanOrEqual(0);
    expect(v.th[i]!).toBeLessThan(360);
    expect(v.srad[i]!).toBeGreaterThan(0);
    expect(v.srad[i]!).toBeLessThan(500); // daily mean top-of-atmosphere radiation never reaches 500 W/m2
    expect(v.eto[i]!).toBeGreaterThanOrEqual(0);
    expect(Math.abs(v.pres_pa[i]! / pressure - 1)).toBeLessThan(0.03);
    // specific humidity agrees with the vapour pressure implied by vpd (FAO-56 es = mean of es(tmax), es(tmin))
    const ea = (tetens(v.tmmx_c[i]!) + tetens(v.tmmn_c[i]!)) / 2 - v.vpd_kpa[i]!;
    const p = v.pres_pa[i]! / 1000;
    expect(Math.abs(v.sph_kgkg[i]! - (0.622 * ea) / (p - 0.378 * ea))).toBeLessThan(1e-4);
    // reservoir state within the full-pool box
    expect(v.area_m2[i]!).toBeGreaterThan(0);
    expect(v.area_m2[i]!).toBeLessThanOrEqual(spec.fullAreaM2 + 1e-4);
    expect(v.stage_m[i]!).toBeLessThanOrEqual(spec.elevM + 1e-4);
    expect(v.stage_m[i]!).toBeGreaterThan(spec.elevM - spec.maxDepthM);
    const roundingM3 = 5e-5 * (v.area_m2[i]! + v.depth_m[i]!) + 1e-6; // depth and area are each rounded to 4 decimals
    expect(v.depth_m[i]! * v.area_m2[i]!).toBeLessThanOrEqual(spec.capacityM3 + roundingM3);
    expect(v.depth_m[i]!).toBeLessThan(spec.maxDepthM);
    expect(Math.abs(v.Fetch[i]! - Math.sqrt(Math.PI * v.area_m2[i]!) / 2)).toBeLessThan(1e-3); // a round lake's mean chord, area / diameter
    expect(v.Tw[i]!).toBeGreaterThanOrEqual(0);
    // the published identities, up to 4-decimal rounding of the result
    const half = 5e-5 + 1e-12 * Math.abs(v.E_volume[i]!);
    expect(Math.abs(v.NetE[i]! - (v.E_hs[i]! - v.pr[i]!))).toBeLessThanOrEqual(5e-5 + 1e-12);
    expect(Math.abs(v.E_volume[i]! - (v.E_hs[i]! / 1000) * v.area_m2[i]!)).toBeLessThanOrEqual(half);
    expect(Math.abs(v.NetE_volume[i]! - (v.NetE[i]! / 1000) * v.area_m2[i]!)).toBeLessThanOrEqual(5e-5 + 1e-12 * Math.abs(v.NetE_volume[i]!));
    // Lerr, the DLEM's error code: 0, or the code of a day's out-of-range input (2-7); never 1
    expect([0, 2, 3, 4, 5, 6, 7]).toContain(v.Lerr[i]);
    // the water starts each day where it ended the day before
    if (i > 0) expect(v.Tw0[i]).toBe(v.Tw[i - 1]);
  }
}

describe('createReservoirModel', () => {
  it('keeps the daily invariants and published identities for LAKE ALICE', () => {
    const spec = reservoir('LAKE ALICE');
    checkInvariants(spec, run(spec, '2019-01-01', '2021-12-31'));
  });

  it('keeps the invariants for random reference reservoirs, dates and seeds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: referenceReservoirs.length - 1 }),
        fc.integer({ min: day('1980-01-01'), max: day('2025-06-30') }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (index, start, length, seed) => {
          const spec = referenceReservoirs[index]!;
          checkInvariants(spec, createReservoirModel(spec, seed).simulate(start, start + length - 1));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('rains on some days and not on others', () => {
    const pr = run(reservoir('LAKE MEAD'), '2019-01-01', '2021-12-31').values.pr;
    const dry = pr.filter((x) => x === 0).length;
    expect(dry).toBeGreaterThan(pr.length / 2); // a desert
    expect(pr.length - dry).toBeGreaterThan(10);
  });

  it('makes summer warmer than winter at mid latitudes', () => {
    const v = run(reservoir('CANYON FERRY LAKE'), '2011-01-01', '2020-12-31').values;
    const start = day('2011-01-01');
    const july = meanWhere(v.tmmx_c, start, (d) => monthOf(d) === 7);
    const january = meanWhere(v.tmmx_c, start, (d) => monthOf(d) === 1);
    expect(july - january).toBeGreaterThan(15);
    expect(meanWhere(v.srad, start, (d) => monthOf(d) === 6)).toBeGreaterThan(2 * meanWhere(v.srad, start, (d) => monthOf(d) === 12));
  });

  it('cools with elevation at about the standard lapse rate', () => {
    const low = { ...reservoir('PUEBLO RESERVOIR'), elevM: 1000 };
    const high = { ...low, elevM: 2500 }; // same name, so the same random draws
    const tLow = run(low, '2015-01-01', '2019-12-31').values;
    const tHigh = run(high, '2015-01-01', '2019-12-31').values;
    const mean = (a: Float64Array, b: Float64Array) => a.reduce((s, x, i) => s + (x + b[i]!) / 2, 0) / a.length;
    const difference = mean(tLow.tmmx_c, tLow.tmmn_c) - mean(tHigh.tmmx_c, tHigh.tmmn_c);
    expect(difference).toBeGreaterThan(1.5 * 5); // 1.5 km at 5 to 8 K/km
    expect(difference).toBeLessThan(1.5 * 8);
    expect(meanWhere(tHigh.pres_pa, 0, () => true)).toBeLessThan(meanWhere(tLow.pres_pa, 0, () => true));
  });

  it('keeps storage, area and stage on one area-capacity curve (dV = A dh)', () => {
    const spec = reservoir('ELEPHANT BUTTE RESERVOIR');
    const v = run(spec, '2000-01-01', '2009-12-31').values;
    let checked = 0;
    for (let i = 1; i < v.stage_m.length; i++) {
      const dh = v.stage_m[i]! - v.stage_m[i - 1]!;
      if (Math.abs(dh) < 0.02) continue;
      const dV = v.depth_m[i]! * v.area_m2[i]! - v.depth_m[i - 1]! * v.area_m2[i - 1]!;
      const trapezoid = ((v.area_m2[i]! + v.area_m2[i - 1]!) / 2) * dh;
      expect(Math.abs(dV / trapezoid - 1)).toBeLessThan(0.02);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(Math.max(...v.stage_m) - Math.min(...v.stage_m)).toBeGreaterThan(2);
  });

  it('draws LAKE MEAD and LAKE POWELL far below full pool in 2019-2021 but not in the 1980s', () => {
    for (const name of ['LAKE MEAD', 'LAKE POWELL']) {
      const spec = reservoir(name);
      const dry = run(spec, '2019-01-01', '2021-12-31').values;
      const wet = run(spec, '1984-01-01', '1986-12-31').values;
      expect(Math.max(...dry.stage_m)).toBeLessThan(spec.elevM - 25);
      expect(Math.max(...dry.area_m2)).toBeLessThan(0.8 * spec.fullAreaM2);
      expect(Math.max(...wet.stage_m)).toBeGreaterThan(spec.elevM - 10);
    }
  });

  it('holds small static reservoirs at full pool', () => {
    const spec = reservoir('ANITA RESERVOIR');
    const v = run(spec, '2019-01-01', '2020-12-31').values;
    expect(new Set(v.area_m2)).toEqual(new Set([spec.fullAreaM2]));
    expect(new Set(v.stage_m)).toEqual(new Set([spec.elevM]));
    expect(new Set(v.depth_m).size).toBe(1);
    expect(v.depth_m[0]! * v.area_m2[0]!).toBeCloseTo(spec.capacityM3, -1);
  });

  it('condenses (negative E_hs) sometimes, but rarely, over a set of reservoirs', () => {
    let negative = 0;
    let total = 0;
    for (const spec of referenceReservoirs.slice(0, 20)) {
      const e = run(spec, '2010-01-01', '2014-12-31', 5).values.E_hs;
      negative += e.filter((x) => x < 0).length;
      total += e.length;
    }
    expect(negative).toBeGreaterThan(0);
    expect(negative / total).toBeLessThan(0.05);
  });

  it('looks like the public service at LAKE ALICE', () => {
    const start = day('2011-01-01');
    const v = run(reservoir('LAKE ALICE'), '2011-01-01', '2020-12-31').values;
    const january = meanWhere(v.NetE, start, (d) => monthOf(d) === 1);
    const summer = meanWhere(v.NetE, start, (d) => [6, 7, 8].includes(monthOf(d)));
    expect(january).toBeGreaterThan(-0.5);
    expect(january).toBeLessThan(1.5);
    expect(summer).toBeGreaterThan(3);
    expect(summer).toBeLessThan(7);
    expect(meanWhere(v.E_volume, start, (d) => monthOf(d) === 1)).toBeGreaterThan(1000);
    expect(meanWhere(v.E_volume, start, (d) => monthOf(d) === 7)).toBeLessThan(60000);
  });

  it('lags and damps water temperature more in deep water (heat storage)', () => {
    const deep = reservoir('LAKE MEAD');
    const start = day('2011-01-01');
    const v = run(deep, '2011-01-01', '2020-12-31').values;
    // a deep lake releases stored heat in autumn and takes it up in spring
    const autumn = (d: number) => [9, 10, 11].includes(monthOf(d));
    const spring = (d: number) => [3, 4, 5].includes(monthOf(d));
    expect(meanWhere(v.E_hs, start, autumn)).toBeGreaterThan(meanWhere(v.E_nhs, start, autumn) + 1);
    expect(meanWhere(v.E_hs, start, spring)).toBeLessThan(meanWhere(v.E_nhs, start, spring) - 1);
    // the deep lake is warmest in August or later; a shallow lake in the same weather peaks earlier
    const shallow = { ...deep, capacityM3: deep.fullAreaM2 * 2, maxDepthM: 5 };
    const s = run(shallow, '2011-01-01', '2020-12-31').values;
    const warmestMonth = (tw: Float64Array) => {
      const means = Array.from({ length: 12 }, (_, m) => meanWhere(tw, start, (d) => monthOf(d) === m + 1));
      return means.indexOf(Math.max(...means)) + 1;
    };
    expect(warmestMonth(v.Tw)).toBeGreaterThanOrEqual(8);
    expect(warmestMonth(s.Tw)).toBeLessThan(warmestMonth(v.Tw));
  });

  it('evaporates about 2 m a year from LAKE MEAD in 2020, near the public tutorial volume', () => {
    const start = day('2019-01-01');
    const v = createReservoirModel(reservoir('LAKE MEAD'), demoOptions.seed, start - SPIN_UP_DAYS).simulate(start, day('2021-12-31')).values;
    const year = (values: Float64Array) => values.subarray(day('2020-01-01') - start, day('2020-12-31') - start + 1).reduce((s, x) => s + x, 0);
    // energy budgets and eddy covariance give 1.8-2.6 m a year (Moreo and Swancar 2013, USGS SIR 2013-5229: 2.1 m)
    expect(year(v.E_hs) / 1000).toBeGreaterThan(1.8);
    expect(year(v.E_hs) / 1000).toBeLessThan(2.6);
    // the evap-docs tutorial's 2020 total: 1,062,245,636 m3 (861,000 acre-ft); over 2020's 300-400 km2 that is ~3 m of
    // water, above what the energy budget gives the demo's plausible weather, so the band is wide below
    expect(year(v.E_volume) / 1_062_245_636).toBeGreaterThan(0.55);
    expect(year(v.E_volume) / 1_062_245_636).toBeLessThan(1.25);
  });

  it('is deterministic in the seed and name', () => {
    const spec = reservoir('LAKE ESTES');
    const a = run(spec, '2020-01-01', '2020-12-31', 11);
    const b = run(spec, '2020-01-01', '2020-12-31', 11);
    const c = run(spec, '2020-01-01', '2020-12-31', 12);
    expect(a).toEqual(b);
    expect(c.values.tmmx_c).not.toEqual(a.values.tmmx_c);
    expect(c.values.E_hs).not.toEqual(a.values.E_hs);
  });

  it('continues its state across consecutive calls', () => {
    const spec = reservoir('FLAMING GORGE RESERVOIR');
    const whole = createReservoirModel(spec, 3).simulate(y2019, y2021end);
    const model = createReservoirModel(spec, 3);
    const first = model.simulate(y2019, day('2019-12-31'));
    const second = model.simulate(day('2020-01-01'), y2021end);
    for (const [name, series] of Object.entries(whole.values)) {
      expect(Array.from(first.values[name as keyof typeof first.values]).concat(Array.from(second.values[name as keyof typeof second.values])), name).toEqual(
        Array.from(series),
      );
    }
  });

  it('gives a day the same values whatever range asks for it, even going back', () => {
    const spec = reservoir('RUEDI RESERVOIR');
    const model = createReservoirModel(spec, 9);
    const late = model.simulate(day('2021-03-01'), day('2021-03-31'));
    const early = model.simulate(day('2019-01-01'), day('2021-12-31'));
    const offset = day('2021-03-01') - y2019;
    expect(Array.from(late.values.E_hs)).toEqual(Array.from(early.values.E_hs.subarray(offset, offset + 31)));
    expect(Array.from(late.values.stage_m)).toEqual(Array.from(early.values.stage_m.subarray(offset, offset + 31)));
  });

  it('returns empty series for an empty range and rejects reversed ranges', () => {
    const model = createReservoirModel(reservoir('LAKE ALICE'), 1);
    expect(model.simulate(y2019, y2019 - 1).days).toBe(0);
    expect(() => model.simulate(y2019, y2019 - 5)).toThrow(RangeError);
  });
});
