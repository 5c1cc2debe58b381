// Names for what was typed, forgiving typos and word order: "maed" and "mead lake" find LAKE MEAD. The whole-name
// suggestion is the API's own (lib/suggest.ts), so the page says the same "did you mean" as a 404 does.
import { editDistance, suggest } from '../lib/suggest.js';

/** Edits a word may differ by and still match: as the API's suggestions allow (one up to 5 characters, else two). */
const budget = (word: string) => (word.length <= 5 ? 1 : 2);

// the cost of matching a typed word to the name's cheapest unused word: 0 for a prefix, else the edits to the word or
// to its beginning (a word still being typed), within the budget; short words match as prefixes only
function wordCost(word: string, words: readonly string[], used: Set<number>): [number, number] | undefined {
  let best: [number, number] | undefined;
  words.forEach((w, k) => {
    if (used.has(k)) return;
    const limit = budget(word) + 1;
    const cost = w.startsWith(word) ? 0 : word.length < 3 ? limit : Math.min(editDistance(word, w, limit), editDistance(word, w.slice(0, word.length), limit));
    if (cost < limit && (best === undefined || cost < best[0])) best = [cost, k];
  });
  return best;
}

/** The cost of a name for the typed words (every word matched to a different word of the name), or undefined when it does not match. */
export function nameCost(typed: string, name: string): number | undefined {
  const words = name.toUpperCase().split(/[\s_-]+/);
  const used = new Set<number>();
  let total = 0;
  for (const word of typed
    .toUpperCase()
    .split(/[\s_-]+/)
    .filter(Boolean)) {
    const found = wordCost(word, words, used);
    if (!found) return undefined;
    used.add(found[1]);
    total += found[0];
  }
  return total;
}

/** Up to `limit` indexes of names matching what was typed with typos or words in any order, the closest first. */
export function fuzzyMatches(typed: string, names: readonly string[], limit: number): number[] {
  const scored: [number, number][] = [];
  names.forEach((name, i) => {
    const cost = nameCost(typed, name);
    if (cost !== undefined) scored.push([cost, i]);
  });
  return scored
    .sort((a, b) => a[0] - b[0] || names[a[1]]!.localeCompare(names[b[1]]!))
    .slice(0, limit)
    .map(([, i]) => i);
}

/** The API's "did you mean" for a whole name, or undefined. */
export function didYouMeanName(typed: string, names: readonly string[]): string | undefined {
  return suggest(typed.toUpperCase(), names);
}
