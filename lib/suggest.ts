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

/**
 * The names a mistyped or partial name may mean, at most `max`: the nearest by edits (as suggest), then those holding
 * it as a word ("MEAD" in "LAKE MEAD"), then those holding it as a part ("LAKE MEAD" in "LAKE MEAD_STATION"), shorter
 * first. A word of fewer than 3 characters, or a part of fewer than 4, is in too many names to point at one.
 */
export function suggestNames(value: string, candidates: Iterable<string>, max = 3): string[] {
  const list = [...candidates];
  const near = suggest(value, list);
  const needle = value.trim().toLowerCase();
  const words: string[] = [];
  const parts: string[] = [];
  if (needle.length >= 3) {
    for (const candidate of list) {
      const other = candidate.toLowerCase();
      if (candidate === value || candidate === near || other === needle || !other.includes(needle)) continue;
      if (holdsWords(other, needle)) words.push(candidate);
      else if (needle.length >= 4) parts.push(candidate);
    }
  }
  const byLength = (a: string, b: string) => a.length - b.length || (a < b ? -1 : 1);
  return [...(near === undefined ? [] : [near]), ...words.sort(byLength), ...parts.sort(byLength)].slice(0, max);
}

/** ` (did you mean "A"?)`, ` (did you mean "A" or "B"?)`: the names suggestNames gives, else ''. */
export function didYouMeanName(value: string, candidates: Iterable<string>): string {
  const names = suggestNames(value, candidates).map((n) => JSON.stringify(n));
  if (names.length === 0) return '';
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  return ` (did you mean ${listed}?)`;
}

// words of a name: split at spaces, underscores and hyphens ("LAKE MEAD_STATION" -> lake, mead, station)
const wordsOf = (name: string) => name.split(/[\s_-]+/).filter((w) => w !== '');

// whether the needle's words are whole words of the name, in a row ("lake mead" in "big lake mead dam")
function holdsWords(name: string, needle: string): boolean {
  const have = ` ${wordsOf(name).join(' ')} `;
  return have.includes(` ${wordsOf(needle).join(' ')} `);
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
