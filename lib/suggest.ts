// "Did you mean ...": the known value closest to a mistyped one, for error messages.

/**
 * The candidate a value most likely meant: one equal but for case, else the nearest within one edit (names up to 5
 * characters) or two (longer), counting a swap of neighbours as one edit; undefined when none is that close.
 */
export function suggest(value: string, candidates: Iterable<string>): string | undefined {
  const lower = value.toLowerCase();
  const budget = value.length <= 5 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = budget + 1;
  for (const candidate of candidates) {
    if (candidate === value) continue;
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    if (Math.abs(other.length - lower.length) >= bestDistance) continue; // cheap: most names differ in length by more
    const d = editDistance(lower, other, bestDistance);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** ` (did you mean "X"?)` when a candidate is close, else ''. */
export function didYouMean(value: string, candidates: Iterable<string>): string {
  const near = suggest(value, candidates);
  return near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`;
}

/** Optimal string alignment distance, giving up (returning `limit`) once every path costs that much. */
export function editDistance(a: string, b: string, limit: number): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin >= limit) return limit;
    [before, previous] = [previous, row];
  }
  return previous[b.length]!;
}
