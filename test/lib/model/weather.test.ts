// The demo's weather against the climate of its places: the seasons of precipitation, heat and dryness a hydrologist
// knows, from NOAA's 1991-2020 U.S. Climate Normals of a station near each reservoir (figures rounded, cited below).
import { describe, expect, it } from 'vitest';
import { createReservoirModel } from '../../../lib/model/index.js';
import { SPIN_UP_DAYS } from '../../../lib/synthetic/chunks.js';
import { demoOptions } from '../../../lib/synthetic/demo.js';
import { day, monthOf, reservoir } from './helpers.js';

const start = day(demoOptions.start);
const end = day(demoOptions.end);
const years = [2019, 2020, 2021];
// the demo's own values: the generator starts each reservoir SPIN_UP_DAYS before its first date, with the demo's seed
const demo = (name: string) => createReservoirModel(reservoir(name), demoOptions.seed, start - SPIN_UP_DAYS).simulate(start, end).values;
const yearOf = (d: number) => new Date(d * 86_400_000).getUTCFullYear();

/** Totals of a series per year and month (1-12) of the demo's span. */
function monthlyTotals(values: Float64Array): Map<string, number> {
  const totals = new Map<string, number>();
  values.forEach((x, i) => {
    const key = `${yearOf(start + i)}-${monthOf(start + i)}`;
    totals.set(key, (totals.get(key) ?? 0) + x);
  });
  return totals;
}

/** Mean over the demo's years of a month's total (or of a month's daily mean, with `mean`). */
function monthMean(values: Float64Array, month: number, mean = false): number {
  let sum = 0;
  let n = 0;
  values.forEach((x, i) => {
    if (monthOf(start + i) !== month) return;
    sum += x;
    n++;
  });
  return mean ? sum / n : sum / years.length;
}

describe('the demo weather', () => {
  it('keeps the desert foresummer dry at LAKE POWELL: under 10 mm every June (Page, AZ: 0.1 in, about 3 mm)', () => {
    const totals = monthlyTotals(demo('LAKE POWELL').pr);
    for (const year of years) expect(totals.get(`${year}-6`), `June ${year}`).toBeLessThan(10);
  });

  it('rains on the Southwest in winter and in the July-September monsoon, not in May-June (Las Vegas: 106 mm a year, 3 mm in May-June)', () => {
    for (const name of ['LAKE MEAD', 'LAKE POWELL']) {
      const pr = demo(name).pr;
      const annual = pr.reduce((s, x) => s + x, 0) / years.length;
      expect(annual, name).toBeGreaterThan(60);
      expect(annual, name).toBeLessThan(300); // Las Vegas 106 mm, Page 165 mm
      const mayJune = monthMean(pr, 5) + monthMean(pr, 6);
      const julySeptember = monthMean(pr, 7) + monthMean(pr, 8) + monthMean(pr, 9);
      const winter = monthMean(pr, 12) + monthMean(pr, 1) + monthMean(pr, 2);
      expect(julySeptember, name).toBeGreaterThan(2 * mayJune);
      expect(winter, name).toBeGreaterThan(2 * mayJune);
    }
  });

  it('has the Pacific side wet in winter and dry in summer (Sacramento: 91 mm in January, under 1 mm in July)', () => {
    const pr = demo('FOLSOM LAKE').pr;
    expect(monthMean(pr, 1)).toBeGreaterThan(40);
    expect(monthMean(pr, 7) + monthMean(pr, 8)).toBeLessThan(10);
  });

  it('has its most rain on the plains in May-August (North Platte, NE: 300 of 500 mm)', () => {
    const pr = demo('SWANSON LAKE').pr;
    const summer = [5, 6, 7, 8].reduce((s, m) => s + monthMean(pr, m), 0);
    const winter = [11, 12, 1, 2].reduce((s, m) => s + monthMean(pr, m), 0);
    expect(summer).toBeGreaterThan(3 * winter);
  });

  it('makes LAKE MEAD hot and dry in July (Las Vegas: 40 / 27 degC maximum / minimum, dew point about 5 degC)', () => {
    const v = demo('LAKE MEAD');
    expect(monthMean(v.tmmx_c, 7, true)).toBeGreaterThan(37);
    expect(monthMean(v.tmmx_c, 7, true)).toBeLessThan(44);
    expect(monthMean(v.tmmn_c, 7, true)).toBeGreaterThan(22);
    expect(monthMean(v.tmmn_c, 7, true)).toBeLessThan(30);
    // FAO-56 deficit of those normals: (es(40) + es(27)) / 2 - es(5) = 4.8 kPa
    expect(monthMean(v.vpd_kpa, 7, true)).toBeGreaterThan(3.5);
    expect(monthMean(v.vpd_kpa, 7, true)).toBeLessThan(6);
    // a clear desert June: about 8.4 kWh m-2 a day (NREL's solar atlas), 350 W m-2
    expect(monthMean(v.srad, 6, true)).toBeGreaterThan(300);
    expect(monthMean(v.srad, 6, true)).toBeLessThan(380);
  });
});
