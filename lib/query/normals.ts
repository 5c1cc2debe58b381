// Normals: for each calendar month (or day of the year), statistics of that month's values over the base years.
import type { Method } from './aggregate.js';

/** The statistics of a normal, in the order their keys appear: `"NetE (mm) mean"`, ..., `"NetE (mm) p90"`. */
export const normalStatistics = ['n', 'mean', 'min', 'max', 'p10', 'p25', 'p50', 'p75', 'p90'] as const;
export type NormalStatistic = (typeof normalStatistics)[number];

/** How normals group periods: calendar months of monthly values, or days of the year (`MM-DD`) of daily values. */
export type NormalPeriod = 'month' | 'day';
export const normalPeriods: readonly NormalPeriod[] = ['month', 'day'];

/**
 * The p-th quantile (0..1) of ascending values by linear interpolation between closest ranks: h = (n - 1) p, then
 * x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]) (Hyndman and Fan's type 7; numpy's and R's default).
 */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** The statistics of one group of values (NaN skipped); a circular variable gets its circular mean and nothing else. */
export function normalOf(values: readonly number[], method: Method): Record<NormalStatistic, number> {
  const held = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  const n = held.length;
  if (method === 'circular-mean') {
    const rad = Math.PI / 180;
    let s = 0;
    let c = 0;
    for (const v of held) {
      s += Math.sin(v * rad);
      c += Math.cos(v * rad);
    }
    const mean = n === 0 ? NaN : (Math.atan2(s, c) / rad + 360) % 360;
    return { n, mean, min: NaN, max: NaN, p10: NaN, p25: NaN, p50: NaN, p75: NaN, p90: NaN }; // order statistics of angles depend on where the circle is cut
  }
  let sum = 0;
  for (const v of held) sum += v;
  return {
    n,
    mean: n === 0 ? NaN : sum / n,
    min: n === 0 ? NaN : held[0]!,
    max: n === 0 ? NaN : held[n - 1]!,
    p10: quantile(held, 0.1),
    p25: quantile(held, 0.25),
    p50: quantile(held, 0.5),
    p75: quantile(held, 0.75),
    p90: quantile(held, 0.9),
  };
}
