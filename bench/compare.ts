// Equality of the two engines' answers, checked on every query: identical JSON text of the records, or identical CSV text.
import type { WireRecord } from '../lib/types.js';

/** Thrown when DuckDB and the library disagree: the bench must fail loudly. */
export class MismatchError extends Error {}

/** Throws MismatchError naming the first difference when the answers differ. */
export function assertSameAnswer(id: string, ours: WireRecord[] | string, theirs: WireRecord[] | string): void {
  if (typeof ours === 'string' || typeof theirs === 'string') {
    if (ours === theirs) return;
    const a = String(ours).split('\n');
    const b = String(theirs).split('\n');
    const at = a.findIndex((line, i) => line !== b[i]);
    const line = at < 0 ? Math.min(a.length, b.length) : at;
    throw new MismatchError(`${id}: CSV text differs at line ${line + 1} (${a.length} vs ${b.length} lines)\n  ours:   ${a[line]}\n  duckdb: ${b[line]}`);
  }
  if (JSON.stringify(ours) === JSON.stringify(theirs)) return;
  if (ours.length !== theirs.length)
    throw new MismatchError(
      `${id}: ${ours.length} records from the library, ${theirs.length} from DuckDB\n  first ours:   ${JSON.stringify(ours[0])}\n  first duckdb: ${JSON.stringify(theirs[0])}`,
    );
  const at = ours.findIndex((r, i) => JSON.stringify(r) !== JSON.stringify(theirs[i]));
  throw new MismatchError(`${id}: record ${at} differs\n  ours:   ${JSON.stringify(ours[at])}\n  duckdb: ${JSON.stringify(theirs[at])}`);
}
