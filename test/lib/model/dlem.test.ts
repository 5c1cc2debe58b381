// The DLEM kernel against what its physics must do, whatever the numbers: properties over random forcing (fast-check)
// and over seasonal cycles, each an independent law, not the kernel's own arithmetic repeated.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lerr, sectorOf } from '../../../lib/model/dlem.js';
import { type ForcingColumns, runModel } from '../../../lib/model/run.js';

// consecutive ISO dates from 2001-01-01 (not a leap year: 365-day cycles repeat exactly)
const dates = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2001, 0, 1 + i)).toISOString().slice(0, 10));
const tetens = (t: number) => 0.6108 * Math.exp((17.27 * t) / (t + 237.3));

/** A smooth seasonal climate (northern mid-latitude), `years` long, at a constant depth. */
function seasonal(years: number, depth: number, shift = 0): ForcingColumns {
  const n = 365 * years;
  const season = (i: number) => Math.sin((2 * Math.PI * (i - 110)) / 365);
  const ta = Float64Array.from({ length: n }, (_, i) => 16 + 12 * season(i) + shift);
  const humidity = 0.35;
  return {
    date: dates(n),
    srad: Float64Array.from({ length: n }, (_, i) => 210 + 110 * Math.sin((2 * Math.PI * (i - 80)) / 365)),
    ta_c: ta,
    vpd_kpa: ta.map((t) => tetens(t) * (1 - humidity)),
    vs2m: new Float64Array(n).fill(3),
    th: new Float64Array(n).fill(225),
    depth_m: new Float64Array(n).fill(depth),
  };
}

const lake = { lat: 36, elev: 400, fetch: 10_000 };

// amplitude and phase (days) of the annual harmonic of the last year of a series: a plain discrete Fourier sum
function annualHarmonic(values: Float64Array): { amplitude: number; peakDay: number } {
  const last = values.subarray(values.length - 365);
  let [c, s] = [0, 0];
  last.forEach((v, i) => {
    c += v * Math.cos((2 * Math.PI * i) / 365);
    s += v * Math.sin((2 * Math.PI * i) / 365);
  });
  const amplitude = (2 * Math.hypot(c, s)) / 365;
  const angle = Math.atan2(s, c); // v ~ A cos(2πi/365 − angle): the peak at angle × 365 / 2π
  return { amplitude, peakDay: ((((angle * 365) / (2 * Math.PI)) % 365) + 365) % 365 };
}

describe('the DLEM kernel', () => {
  it('E_nhs does not depend on the depth, day by day', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 300, noNaN: true }), fc.double({ min: 0.05, max: 300, noNaN: true }), (a, b) => {
        const one = runModel(seasonal(1, a), lake).values.E_nhs;
        const other = runModel(seasonal(1, b), lake).values.E_nhs;
        expect(Array.from(one)).toEqual(Array.from(other));
      }),
      { numRuns: 25 },
    );
  });

  it('deeper water delays and damps the seasonal cycle of E_hs, up to the 20 m the heat storage reaches', () => {
    const depths = [1, 3, 8, 20];
    const cycles = depths.map((d) => annualHarmonic(runModel(seasonal(3, d), lake).values.E_hs));
    for (let k = 1; k < depths.length; k++) {
      expect(cycles[k]!.amplitude, `amplitude at ${depths[k]} m`).toBeLessThan(cycles[k - 1]!.amplitude);
      expect(cycles[k]!.peakDay, `peak at ${depths[k]} m`).toBeGreaterThan(cycles[k - 1]!.peakDay);
    }
    // past 20 m nothing changes: the depth is capped
    expect(Array.from(runModel(seasonal(2, 60), lake).values.E_hs)).toEqual(Array.from(runModel(seasonal(2, 20), lake).values.E_hs));
  });

  it('very shallow water makes E_hs approach E_nhs', () => {
    const gap = (depth: number) => {
      const { E_hs, E_nhs } = runModel(seasonal(1, depth), lake).values;
      return Math.max(...E_hs.map((e, i) => Math.abs(e - E_nhs[i]!)));
    };
    const gaps = [1, 0.1, 0.01, 0.001].map(gap);
    for (let k = 1; k < gaps.length; k++) expect(gaps[k]).toBeLessThan(gaps[k - 1]!);
    expect(gaps[3]).toBeLessThan(0.02); // mm/day
  });

  it('the energy balance closes: the latent heat E_nhs has and E_hs lacks is the heat the water stored', () => {
    // textbook forms, written here: latent heat (Harrison 1963), the saturation slope (FAO-56 eq. 13), the
    // psychrometric constant of the pressure at the elevation; stored heat ρc × depth (capped at 20 m) × ΔTw
    for (const depth of [2, 10, 20, 45]) {
      const forcing = seasonal(3, depth);
      const { E_hs, E_nhs, Tw, Tw0 } = runModel(forcing, lake).values;
      const ta = forcing.ta_c!;
      for (let i = 0; i < E_hs.length; i += 7) {
        const t = ta[i]!;
        const lambda = 2.501 - 0.002361 * t;
        const slope = (4098 * tetens(t)) / (t + 237.3) ** 2;
        const pressure = 101.3 * ((273.15 + t - 0.0065 * lake.elev) / (273.15 + t)) ** 5.26;
        const gamma = (0.00163 * pressure) / lambda;
        const latent = ((E_nhs[i]! - E_hs[i]!) * lambda * (slope + gamma)) / slope;
        const stored = 4.2 * Math.min(depth, 20) * (Tw[i]! - Tw0[i]!);
        expect(latent).toBeCloseTo(stored, 9);
      }
      // and over a year that repeats the water gives back what it stored: it ends the year as it began
      expect(Math.abs(Tw[Tw.length - 1]! - Tw0[Tw.length - 365]!)).toBeLessThan(0.01);
    }
  });

  it('warmer air at the same relative humidity raises E_nhs', () => {
    fc.assert(
      fc.property(
        fc.record({
          ta: fc.double({ min: 0, max: 35, noNaN: true }),
          humidity: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
          srad: fc.double({ min: 50, max: 350, noNaN: true }),
          wind: fc.double({ min: 0.5, max: 8, noNaN: true }),
          warmer: fc.double({ min: 0.5, max: 5, noNaN: true }),
        }),
        ({ ta, humidity, srad, wind, warmer }) => {
          const day = (t: number) =>
            runModel({ date: ['2001-07-01'], srad: [srad], ta_c: [t], vpd_kpa: [tetens(t) * (1 - humidity)], vs2m: [wind], th: [0], depth_m: [5] }, lake).values
              .E_nhs[0]!;
          expect(day(ta + warmer)).toBeGreaterThan(day(ta));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the water relaxes: two starting temperatures end the day closer together, in the same order, never below ice', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0.2, max: 30, noNaN: true }),
        (a, b, depth) => {
          fc.pre(Math.abs(a - b) > 1e-6);
          const end = (tw0: number) =>
            runModel({ date: ['2001-01-15'], srad: [120], ta_c: [8], vpd_kpa: [0.4], vs2m: [2], th: [0], depth_m: [depth] }, lake, { tw0 }).values.Tw[0]!;
          const [low, high] = a < b ? [a, b] : [b, a];
          expect(end(low)).toBeGreaterThanOrEqual(0);
          expect(end(high)).toBeGreaterThanOrEqual(end(low));
          expect(end(high) - end(low)).toBeLessThan(high - low);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('NetE, E_volume and NetE_volume follow from E_hs, pr and the area', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ pr: fc.double({ min: 0, max: 80, noNaN: true }), area: fc.double({ min: 1e3, max: 1e9, noNaN: true }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        (days) => {
          const n = days.length;
          const base = seasonal(1, 6);
          const forcing = {
            ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, k === 'date' ? (v as string[]).slice(0, n) : (v as Float64Array).slice(0, n)])),
            pr: days.map((d) => d.pr),
            area_m2: days.map((d) => d.area),
          } as unknown as ForcingColumns;
          const v = runModel(forcing, lake).values;
          days.forEach(({ pr, area }, i) => {
            expect(v.NetE[i]! + pr).toBeCloseTo(v.E_hs[i]!, 9);
            expect((v.E_volume[i]! * 1000) / area).toBeCloseTo(v.E_hs[i]!, 9);
            expect((v.NetE_volume[i]! * 1000) / area).toBeCloseTo(v.NetE[i]!, 9);
          });
        },
      ),
      { numRuns: 50 },
    );
  });

  it('each error code on the input that sets it, the later check winning', () => {
    const day = (over: Partial<Record<'srad' | 'ta_c' | 'vpd_kpa' | 'vs2m' | 'depth_m', number>>) =>
      runModel(
        {
          date: ['2001-06-01'],
          srad: [250],
          ta_c: [20],
          vpd_kpa: [1.2],
          vs2m: [3],
          th: [0],
          depth_m: [10],
          ...Object.fromEntries(Object.entries(over).map(([k, v]) => [k, [v]])),
        },
        lake,
      ).values;
    expect(day({}).Lerr[0]).toBe(Lerr.ok);
    expect(day({ depth_m: 0 }).Lerr[0]).toBe(2);
    expect(day({ depth_m: -3 }).Lerr[0]).toBe(2);
    expect(day({ srad: 0 }).Lerr[0]).toBe(3);
    expect(day({ vs2m: 0.01 }).Lerr[0]).toBe(4);
    expect(day({ vpd_kpa: 0 }).Lerr[0]).toBe(5);
    expect(day({ vpd_kpa: 5 }).Lerr[0]).toBe(6); // above the 2.34 kPa saturation at 20 °C
    expect(day({ depth_m: 0, vs2m: 0 }).Lerr[0]).toBe(4); // both wrong: the wind's check comes later
    expect(day({ srad: -1, vpd_kpa: -1 }).Lerr[0]).toBe(5);
    // a clamped wind computes as the clamp: the same outputs as 0.01 m/s itself
    expect(day({ vs2m: 0 }).E_hs[0]).toBe(day({ vs2m: 0.01 }).E_hs[0]);
    // a deficit equal to the saturation vapour pressure (air with no vapour at all) is out of range too, and the days
    // after it compute as ever
    const dry = runModel(
      { date: ['2001-06-01', '2001-06-02'], srad: [250, 250], ta_c: [20, 20], vpd_kpa: [tetens(20), 1], vs2m: [3, 3], th: [0, 0], depth_m: [10, 10] },
      lake,
    ).values;
    expect(Array.from(dry.Lerr)).toEqual([6, 0]);
    expect(Number.isFinite(dry.E_hs[1]!)).toBe(true);
    // a day with a missing input has no outputs and leaves the water as it was
    const gap = runModel(
      { date: ['2001-06-01', '2001-06-02'], srad: [Number.NaN, 250], ta_c: [20, 20], vpd_kpa: [1, 1], vs2m: [3, 3], th: [0, 0], depth_m: [10, 10] },
      lake,
      { tw0: 12 },
    ).values;
    expect(Number.isNaN(gap.E_hs[0]!)).toBe(true);
    expect(gap.Tw0[1]).toBe(12);
  });

  it('picks the fetch of the sector the wind comes from', () => {
    fc.assert(
      fc.property(fc.double({ min: -720, max: 720, noNaN: true }), (th) => {
        const k = sectorOf(th);
        const normal = ((th % 360) + 360) % 360;
        // the sector centred on 30k holds every direction within 15° of it (360 ≡ 0)
        const distance = Math.min(Math.abs(normal - 30 * k), 360 - Math.abs(normal - 30 * k));
        expect(distance).toBeLessThanOrEqual(15 + 1e-9);
      }),
    );
    const table = Array.from({ length: 12 }, (_, k) => 1000 * (k + 1));
    const v = runModel(
      {
        date: ['2001-06-01', '2001-06-02', '2001-06-03'],
        srad: [250, 250, 250],
        ta_c: [20, 20, 20],
        vpd_kpa: [1, 1, 1],
        vs2m: [3, 3, 3],
        th: [14.9, 15, 359],
        depth_m: [10, 10, 10],
      },
      { ...lake, fetch: table },
    ).values.Fetch;
    expect(Array.from(v)).toEqual([1000, 2000, 1000]);
  });
});
