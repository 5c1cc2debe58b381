// evap metadata --sort FIELD [--top N]: metadata rows ranked by one field ("the five largest reservoirs").
import { didYouMeanName } from '../lib/suggest.js';
import type { WireRecord, WireValue } from '../lib/types.js';
import { UsageError } from './command.js';

/**
 * The rows sorted by `field`: ascending, or with `top` the `top` largest, largest first. Numbers compare as numbers,
 * text as text with its digits as numbers (a "10" after a "9"); rows without a value come last either way. An unknown
 * field is a UsageError naming the fields.
 */
export function rankRows(rows: readonly WireRecord[], field: string, top?: number): WireRecord[] {
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (rows.length > 0 && !fields.includes(field))
    throw new UsageError(`--sort ${JSON.stringify(field)} is not a metadata field${didYouMeanName(field, fields)}; the fields: ${fields.join(', ')}`);
  const descending = top !== undefined;
  const sorted = [...rows].sort((a, b) => {
    const [x, y] = [a[field], b[field]];
    if (missing(x) || missing(y)) return Number(missing(x)) - Number(missing(y)); // missing last, in either order
    const order = compareValues(x!, y!);
    return descending ? -order : order;
  });
  return top === undefined ? sorted : sorted.slice(0, top);
}

const missing = (v: WireValue | undefined) => v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v));

const text = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compareValues(x: WireValue, y: WireValue): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return text.compare(String(x), String(y));
}
