// The forecast statistics against independent oracles: quantiles by rank counting, totals summed by hand, CRPS by
// its O(n^2) pair formula and by the integral of the squared difference of the ensemble's and the estimate's CDFs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crps, ensembleStatistics, ensembleStats, percentileOf, totalStats, type VerificationCase, verify } from '../../../lib/forecast/stats.js';

const value = fc.double({ min: -1e3, max: 1e3, noNaN: true, noDefaultInfinity: true });
const ensemble = fc.array(value, { minLength: 1, maxLength: 48 });
const close = (a: number, b: number, scale = 1) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, scale));

// type 7 by its definition, written from the order statistics found by counting, not by sorting
function oracleQuantile(values: readonly number[], p: number): number {
  const n = values.length;
  const kth = (k: number) => values.find((v) => values.filter((w) => w < v).length <= k && values.filter((w) => w <= v).length > k)!;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  return kth(lo) + (h - lo) * (kth(Math.min(n - 1, lo + 1)) - kth(lo));
}

function pairCrps(x: readonly number[], y: number): number {
  let a = 0;
  let b = 0;
  for (const xi of x) a += Math.abs(xi - y);
  for (const xi of x) for (const xj of x) b += Math.abs(xi - xj);
  return a / x.length - b / (2 * x.length * x.length);
}

// the integral of (F(t) - H(t - y))^2 dt, F the ensemble's step CDF: exact over the pieces between the sorted points
function integralCrps(x: readonly number[], y: number): number {
  const points = [...x, y].sort((a, b) => a - b);
  let total = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const t = points[i]!;
    const f = x.filter((v) => v <= t).length / x.length;
    const h = y <= t ? 1 : 0;
    total += (f - h) ** 2 * (points[i + 1]! - t);
  }
  return total;
}

describe('ensemble statistics', () => {
  it('are the mean and type-7 quantiles of the members, ordered, the mean within their range', () => {
    fc.assert(
      fc.property(ensemble, (members) => {
        const stats = ensembleStats(members);
        const scale = Math.max(...members.map(Math.abs));
        close(stats.mean, members.reduce((s, v) => s + v, 0) / members.length, scale);
        for (const [s, p] of Object.entries(percentileOf)) close(stats[s as keyof typeof percentileOf], oracleQuantile(members, p), scale);
        const ordered = ensembleStatistics.filter((s) => s !== 'mean').map((s) => stats[s]);
        for (let i = 1; i < ordered.length; i++) expect(ordered[i]).toBeGreaterThanOrEqual(ordered[i - 1]!);
        expect(stats.mean).toBeGreaterThanOrEqual(Math.min(...members) - 1e-9 * scale);
        expect(stats.mean).toBeLessThanOrEqual(Math.max(...members) + 1e-9 * scale);
        expect(stats.p05).toBeGreaterThanOrEqual(Math.min(...members));
        expect(stats.p95).toBeLessThanOrEqual(Math.max(...members));
      }),
    );
  });

  it('of a total are those of each member summed first, not the sum of the daily statistics', () => {
    const members = fc
      .integer({ min: 1, max: 28 })
      .chain((leads) => fc.array(fc.array(value, { minLength: leads, maxLength: leads }), { minLength: 2, maxLength: 20 }));
    fc.assert(
      fc.property(members, fc.nat(), fc.nat(), (m, a, b) => {
        const leads = m[0]!.length;
        const from = 1 + (a % leads);
        const to = from + (b % (leads - from + 1));
        const sums = m.map((member) => {
          let s = 0;
          for (let i = from - 1; i < to; i++) s += member[i]!;
          return s;
        });
        const stats = totalStats(m, from, to);
        const scale = Math.max(1, ...sums.map(Math.abs)) * 28;
        for (const [s, p] of Object.entries(percentileOf)) close(stats[s as keyof typeof percentileOf], oracleQuantile(sums, p), scale);
      }),
    );
    // a case where they differ: two members, each wet on another day
    const total = totalStats(
      [
        [0, 10],
        [10, 0],
      ],
      1,
      2,
    );
    expect(total.p90).toBe(10);
    expect(ensembleStats([0, 10]).p90 + ensembleStats([10, 0]).p90).toBe(18);
  });

  it('give NaN for an ensemble of no member', () => {
    expect(Number.isNaN(ensembleStats([]).p50)).toBe(true);
    expect(Number.isNaN(ensembleStats([Number.NaN]).mean)).toBe(true);
  });
});

describe('CRPS', () => {
  it("equals the pair formula mean|X - y| - 1/2 mean|X - X'| and the integral of the CDFs", () => {
    fc.assert(
      fc.property(ensemble, value, (x, y) => {
        const scale = Math.max(Math.abs(y), ...x.map(Math.abs));
        close(crps(x, y), pairCrps(x, y), scale);
        close(crps(x, y), integralCrps(x, y), scale);
      }),
    );
  });

  it('is the absolute error for one member, and zero for a perfect certain ensemble', () => {
    expect(crps([3], 5)).toBe(2);
    expect(crps([5, 5, 5], 5)).toBe(0);
  });
});

describe('verification metrics', () => {
  const caseOf = fc.record({
    members: fc.array(value, { minLength: 1, maxLength: 16 }),
    observed: value,
    normal: value,
  });
  it('equal plain loops over the cases', () => {
    fc.assert(
      fc.property(fc.array(caseOf, { minLength: 1, maxLength: 30 }), (raw) => {
        const cases: VerificationCase[] = raw.map((c) => {
          const s = ensembleStats(c.members);
          return { mean: s.mean, p10: s.p10, p90: s.p90, members: c.members, observed: c.observed, normal: c.normal };
        });
        const m = verify(cases);
        const n = cases.length;
        let bias = 0;
        let mae = 0;
        let mse = 0;
        let inside = 0;
        let maeNormal = 0;
        let score = 0;
        for (const c of cases) {
          bias += (c.mean - c.observed) / n;
          mae += Math.abs(c.mean - c.observed) / n;
          mse += (c.mean - c.observed) ** 2 / n;
          if (c.p10 <= c.observed && c.observed <= c.p90) inside++;
          maeNormal += Math.abs(c.normal! - c.observed) / n;
          score += pairCrps(c.members as number[], c.observed) / n;
        }
        const scale = 1e3 * 16;
        expect(m.n).toBe(n);
        close(m.bias!, bias, scale);
        close(m.mae!, mae, scale);
        close(m.rmse!, Math.sqrt(mse), scale);
        close(m.crps!, score, scale);
        expect(m.n_crps).toBe(n);
        expect(m.coverage_80).toBe(inside / n);
        close(m.mae_normal!, maeNormal, scale);
        if (maeNormal > 1e-6) close(m.skill!, 1 - mae / maeNormal, 1e6);
      }),
    );
  });

  it('leave out cases with no estimate, score CRPS over the cases with members, give null where normals are missing', () => {
    const full = { mean: 2, p10: 1, p90: 3, members: [1, 2, 3], observed: 2.5, normal: 1.5 };
    expect(verify([{ ...full, observed: Number.NaN }]).n).toBe(0);
    expect(verify([{ ...full, observed: Number.NaN }]).mae).toBeNull();
    const m = verify([full, { ...full, members: undefined, normal: undefined }]);
    expect(m.n).toBe(2);
    expect(m.mae).toBe(0.5);
    expect(m.crps).toBe(pairCrps([1, 2, 3], 2.5)); // the one case with members
    expect(m.n_crps).toBe(1);
    expect(verify([{ ...full, members: undefined }]).crps).toBeNull();
    expect(m.mae_normal).toBeNull();
    expect(m.skill).toBeNull();
  });
});
