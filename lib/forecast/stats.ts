// The ensemble's statistics, totals over leads and the verification metrics, each a plain function of numbers.
import { quantile } from '../query/normals.js';

/** The statistics kept for every issue, lead and variable, in the order they are listed. */
export const ensembleStatistics = ['mean', 'p05', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95'] as const;
export type EnsembleStatistic = (typeof ensembleStatistics)[number];

/** The probability of each percentile statistic. */
export const percentileOf: Readonly<Record<Exclude<EnsembleStatistic, 'mean'>, number>> = {
  p05: 0.05,
  p10: 0.1,
  p25: 0.25,
  p50: 0.5,
  p75: 0.75,
  p90: 0.9,
  p95: 0.95,
};

// Quantiles are Hyndman and Fan's type 7, linear interpolation between order statistics (R's default, numpy's
// 'linear'): h = (n - 1) p, x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]); the normals' own function.

/** The eight statistics of an ensemble (NaN members are left out; all NaN: all NaN). */
export function ensembleStats(members: ArrayLike<number>): Record<EnsembleStatistic, number> {
  const values = Float64Array.from(members)
    .filter((v) => !Number.isNaN(v))
    .sort();
  let sum = 0;
  for (const v of values) sum += v;
  const out = { mean: values.length === 0 ? Number.NaN : sum / values.length } as Record<EnsembleStatistic, number>;
  for (const [s, p] of Object.entries(percentileOf)) out[s as EnsembleStatistic] = quantile(values, p);
  return out;
}

/**
 * The statistics of the total over leads `from..to` (1-based, inclusive) from the members: each member's sum first,
 * then the statistics of those sums (a quantile of a sum is not the sum of the quantiles). `members[m][lead - 1]`.
 */
export function totalStats(members: readonly ArrayLike<number>[], from: number, to: number): Record<EnsembleStatistic, number> {
  return ensembleStats(members.map((m) => sumLeads(m, from, to)));
}

/** One member's sum over leads `from..to`. */
function sumLeads(member: ArrayLike<number>, from: number, to: number): number {
  let sum = 0;
  for (let lead = from; lead <= to; lead++) sum += member[lead - 1]!;
  return sum;
}

/**
 * The continuous ranked probability score of an ensemble for an observation y, in its energy form
 * mean|X - y| - 1/2 mean|X - X'| (X, X' members drawn independently, the pair of a member with itself included),
 * computed in O(n log n): over the sorted members, sum_{i,j} |x_i - x_j| = 2 sum_k (2k - n + 1) x_(k), k from 0.
 */
export function crps(members: ArrayLike<number>, y: number): number {
  const x = Float64Array.from(members).sort();
  const n = x.length;
  if (n === 0) return Number.NaN;
  let toObservation = 0;
  let spread = 0;
  for (let k = 0; k < n; k++) {
    toObservation += Math.abs(x[k]! - y);
    spread += (2 * k - n + 1) * x[k]!;
  }
  return toObservation / n - spread / (n * n);
}

/** One forecast case: the ensemble's mean and p10-p90 range, its members where kept, the estimate that came, the day's normal. */
export interface VerificationCase {
  mean: number;
  p10: number;
  p90: number;
  members?: ArrayLike<number>; // undefined where the members were not kept
  observed: number;
  normal?: number; // the reference forecast (reference.ts), undefined where none could be made
}

/** The verification metrics of a set of cases; null where a metric has no case to be computed from. */
export interface VerificationMetrics {
  n: number;
  bias: number | null; // mean (forecast mean - estimate)
  mae: number | null; // mean |forecast mean - estimate|
  rmse: number | null; // sqrt mean (forecast mean - estimate)^2
  crps: number | null; // mean CRPS of the ensemble over the cases whose members are kept; null if none
  n_crps: number; // those cases
  coverage_80: number | null; // share of estimates within [p10, p90]
  mae_normal: number | null; // mean |normal - estimate|; null unless every case has a normal
  skill: number | null; // 1 - mae / mae_normal
}

/** The metrics over cases (those without an estimate, NaN, are not cases and are left out). */
export function verify(cases: readonly VerificationCase[]): VerificationMetrics {
  const held = cases.filter((c) => !Number.isNaN(c.observed) && !Number.isNaN(c.mean));
  const n = held.length;
  if (n === 0) return { n: 0, bias: null, mae: null, rmse: null, crps: null, n_crps: 0, coverage_80: null, mae_normal: null, skill: null };
  let bias = 0;
  let abs = 0;
  let square = 0;
  let covered = 0;
  for (const c of held) {
    const error = c.mean - c.observed;
    bias += error;
    abs += Math.abs(error);
    square += error * error;
    if (c.observed >= c.p10 && c.observed <= c.p90) covered++;
  }
  const withMembers = held.filter((c) => c.members !== undefined && c.members.length > 0);
  const withNormal = held.every((c) => c.normal !== undefined && !Number.isNaN(c.normal));
  const mae = abs / n;
  const maeNormal = withNormal ? held.reduce((s, c) => s + Math.abs(c.normal! - c.observed), 0) / n : null;
  return {
    n,
    bias: bias / n,
    mae,
    rmse: Math.sqrt(square / n),
    crps: withMembers.length > 0 ? withMembers.reduce((s, c) => s + crps(c.members!, c.observed), 0) / withMembers.length : null,
    n_crps: withMembers.length,
    coverage_80: covered / n,
    mae_normal: maeNormal,
    skill: maeNormal === null || maeNormal === 0 ? null : 1 - mae / maeNormal,
  };
}
