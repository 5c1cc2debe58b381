// A line's points thinned to what a chart's width can show: in each pixel column a series keeps its lowest and
// highest value (so peaks survive) and its first gap (so a gap still breaks the line), in their order along x.
import type { ChartPoint } from './chart-data.js';

/** The lowest and highest of numbers, in one pass (spreading 100,000 arguments into Math.min overflows the stack). */
export function extent(values: Iterable<number>): { low: number; high: number } | undefined {
  let low = Infinity;
  let high = -Infinity;
  for (const v of values) {
    if (v < low) low = v;
    if (v > high) high = v;
  }
  return low <= high ? { low, high } : undefined;
}

/** The points worth drawing when `columnOf` maps x to a pixel column; points are in x order, at most 3 per column are kept. */
export function thinPoints(points: readonly ChartPoint[], columnOf: (x: number) => number): ChartPoint[] {
  const kept: ChartPoint[] = [];
  let i = 0;
  while (i < points.length) {
    const column = columnOf(points[i]!.x);
    let [lowest, highest, gap] = [-1, -1, -1];
    let j = i;
    for (; j < points.length && columnOf(points[j]!.x) === column; j++) {
      const v = points[j]!.value;
      if (v === null) {
        if (gap < 0) gap = j;
      } else {
        if (lowest < 0 || v < points[lowest]!.value!) lowest = j;
        if (highest < 0 || v > points[highest]!.value!) highest = j;
      }
    }
    // three points or fewer are kept as they are: thinning them would only say "thinned" of an unchanged line
    if (j - i <= 3) kept.push(...points.slice(i, j));
    else for (const k of [...new Set([lowest, highest, gap])].filter((k) => k >= 0).sort((a, b) => a - b)) kept.push(points[k]!);
    i = j;
  }
  return kept;
}
