// The order of stored rows, which every folder shares: names in code-unit order (compareText), and days ascending within
// a name; and the one binary search over columns sorted so.

/** Code-unit order, the order names are sorted in everywhere (same as the public service's ASCII names). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first index in [lo, hi) at which `before` turns false (it must hold on a prefix of that range, and only there). */
export function partitionPoint<T>(values: ArrayLike<T>, before: (value: T) => boolean, lo = 0, hi = values.length): number {
  return firstAfter(lo, hi, (i) => before(values[i]!));
}

/** The first integer in [lo, hi) at which `before` turns false (it must hold on a prefix of that range, and only there). */
export function firstAfter(lo: number, hi: number, before: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** firstAfter for a test that must await (a count read from the store). */
export async function firstAfterAwaited(lo: number, hi: number, before: (i: number) => Promise<boolean>): Promise<number> {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (await before(mid)) lo = mid + 1;
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

/**
 * Calls `visit(start, row)` for each run of one name in rows [0, names.length) (names ascend, days ascend within a
 * name): its first row, and its first row dated `day` or -1. A name's days are most often consecutive, so the day's row is
 * guessed from the run's first day before it is searched; runs are found by doubling steps. No closure per row: a cold
 * answer of every reservoir on one date walks 10,000 runs before the optimizing compiler has seen this code.
 */
export function runsOnDay(names: readonly string[], days: ArrayLike<number>, day: number, visit: (start: number, row: number) => void): void {
  const n = names.length;
  for (let start = 0; start < n; ) {
    const name = names[start];
    let step = 1;
    while (start + step < n && names[start + step] === name) step *= 2;
    let lo = start + (step >>> 1) + 1; // names[lo - 1] is the name's
    let hi = Math.min(start + step, n); // names[hi] is not (or hi is n)
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (names[mid] === name) lo = mid + 1;
      else hi = mid;
    }
    const end = lo;
    let row = start + (day - days[start]!);
    if (row < start || row >= end || days[row] !== day || (row > start && days[row - 1] === day)) {
      const first = partitionPoint(days, (d) => d < day, start, end); // the guess missed (a gap or a repeat): rare
      row = first < end && days[first] === day ? first : -1;
    }
    visit(start, row);
    start = end;
  }
}
