// The statistics of a normal against DuckDB's count, avg, min, max and quantile_cont (linear interpolation between
// closest ranks) over random groups, and the circular mean against its rotation and symmetry.
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalOf, normalStatistics, quantile } from '../../../lib/query/normals.js';

let duck: DuckDBConnection;
beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => duck.closeSync());

// the values go to DuckDB as text cast to double: exactly the doubles held here, whatever their digits
const asDoubles = (values: readonly number[]) => `[${values.map((v) => (Number.isNaN(v) ? 'NULL' : `'${v}'::double`)).join(', ')}]::double[]`;
const value = fc.oneof(
  { weight: 8, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constant(NaN) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 5 }) },
);
const close = (a: number, b: number) => (Number.isNaN(a) && (b === null || Number.isNaN(b))) || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

describe('quantile', () => {
  it('interpolates percentiles between closest ranks as numpy and R do by default', () => {
    // numpy.percentile([1, 2, 3, 4], [10, 25, 50, 75, 90]) = [1.3, 1.75, 2.5, 3.25, 3.7]
    expect([0.1, 0.25, 0.5, 0.75, 0.9].map((p) => quantile([1, 2, 3, 4], p))).toEqual([1.3, 1.75, 2.5, 3.25, expect.closeTo(3.7, 12)]);
    expect(quantile([7], 0.9)).toBe(7);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it("equals DuckDB's quantile_cont for any sorted values and any p", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (values, p) => {
          const sorted = [...values].sort((a, b) => a - b);
          const [row] = (await duck.runAndReadAll(`select quantile_cont(x, '${p}'::double) as q from unnest(${asDoubles(values)}) t(x)`)).getRowObjects();
          return close(quantile(sorted, p), row!.q as number);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('normalOf', () => {
  it("gives DuckDB's count, avg, min, max and quantiles of the values held, NaN skipped", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(value, { maxLength: 25 }),
        fc.constantFrom('sum' as const, 'mean' as const, 'min' as const, 'max' as const),
        async (values, method) => {
          const [row] = (
            await duck.runAndReadAll(`
            select count(x)::int as n, avg(x) as mean, min(x) as min, max(x) as max, quantile_cont(x, 0.1) as p10, quantile_cont(x, 0.25) as p25,
                   quantile_cont(x, 0.5) as p50, quantile_cont(x, 0.75) as p75, quantile_cont(x, 0.9) as p90
            from unnest(${values.length > 0 ? asDoubles(values) : '[]::double[]'}) t(x)`)
          ).getRowObjects();
          const ours = normalOf(values, method);
          return JSON.stringify(Object.keys(ours)) === JSON.stringify(normalStatistics) && normalStatistics.every((s) => close(ours[s], row![s] as number));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('gives a circular variable its circular mean only: turning every angle turns the mean, symmetric angles average to their axis', () => {
    const turn = (a: number) => ((a % 360) + 360) % 360;
    const gap = (a: number, b: number) => Math.min(turn(a - b), turn(b - a));
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 359.9, noNaN: true }), { minLength: 1, maxLength: 12 }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (angles, by) => {
          const mean = normalOf(angles, 'circular-mean').mean;
          const turned = normalOf(
            angles.map((a) => turn(a + by)),
            'circular-mean',
          ).mean;
          return Number.isNaN(mean) || gap(turned, turn(mean + by)) < 1e-6 || resultant(angles) < 1e-6; // no mean direction when the angles cancel out
        },
      ),
    );
    fc.assert(
      fc.property(fc.double({ min: 0, max: 359.9, noNaN: true }), fc.double({ min: 0.1, max: 80, noNaN: true }), (axis, spread) => {
        const circular = normalOf([turn(axis - spread), turn(axis + spread), NaN], 'circular-mean');
        return (
          gap(circular.mean, axis) < 1e-6 &&
          circular.mean >= 0 &&
          circular.mean < 360 &&
          circular.n === 2 &&
          Number.isNaN(circular.p50) &&
          Number.isNaN(circular.min)
        );
      }),
    );
    expect(normalOf([350, 10], 'circular-mean').mean).toBeCloseTo(0, 9); // not 180, the arithmetic mean
    expect(normalOf([NaN], 'circular-mean')).toMatchObject({ n: 0, mean: NaN });
  });
});

// The length of the mean unit vector of some angles (0: they cancel out and have no mean direction).
function resultant(angles: readonly number[]): number {
  let s = 0;
  let c = 0;
  for (const a of angles) {
    s += Math.sin((a * Math.PI) / 180);
    c += Math.cos((a * Math.PI) / 180);
  }
  return Math.hypot(s, c) / angles.length;
}
