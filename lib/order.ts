// The order of stored rows, which every folder shares: names in code-unit order (compareText), and days ascending within
// a name; and the one binary search over columns sorted so.

/** Code-unit order, the order names are sorted in everywhere (same as the public service's ASCII names). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first index in [lo, hi) at which `before` turns false (it must hold on a prefix of that range, and only there). */
export function partitionPoint<T>(values: ArrayLike<T>, before: (value: T) => boolean, lo = 0, hi = values.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(values[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The end of the run of equal names that starts at `start` (names ascend, so the run is a prefix from there). */
export function runEnd(names: readonly string[], start: number): number {
  const name = names[start];
  return partitionPoint(names, (n) => n === name, start);
}

/** The rows [first, last) of rows [lo, hi) dated within [startDay, endDay] (days ascend over [lo, hi)). */
export function rowsWithin(days: ArrayLike<number>, startDay: number, endDay: number, lo = 0, hi = days.length): [number, number] {
  const first = partitionPoint(days, (d) => d < startDay, lo, hi);
  return [first, partitionPoint(days, (d) => d <= endDay, first, hi)];
}
