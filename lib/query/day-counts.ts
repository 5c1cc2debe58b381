// How many days of a period are flagged: a total over modelled, static or removed days is visibly partial.
import { type QFlag, qflagValues } from '../flags.js';
import { rowsWithin } from '../order.js';
import type { Period } from './periods.js';

/** The qflag codes counted per period, and the column each count is answered in. */
const countedFlags = ['M', 'S', 'R'] as const satisfies readonly QFlag[];
export const flagCountColumns = countedFlags.map((flag) => `n_qflag_${flag}`);

const codes = countedFlags.map((flag) => qflagValues.indexOf(flag));

/**
 * The days of `period` flagged M, S and R, from the day flag codes (index in qflagValues, NaN for none) of a name's
 * days (ascending); null each when the store holds no day flags (files written before them).
 */
export function countFlags(days: ArrayLike<number>, flags: ArrayLike<number> | undefined, period: Period): (number | null)[] {
  if (!flags) return codes.map(() => null);
  const counts = codes.map(() => 0);
  const [from, to] = rowsWithin(days, period.start, period.end);
  for (let i = from; i < to; i++) {
    const at = codes.indexOf(flags[i]!);
    if (at >= 0) counts[at]!++;
  }
  return counts;
}
