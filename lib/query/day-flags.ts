// Records with per-day attributes (qflag, status): a block is emitted in runs of days whose flags agree, each run
// with its flags in place of the name's attributes, so the generated emitters stay as they are.
import { decodeFlag, type FlagColumn } from '../flags.js';
import type { Block, RecordBuilder } from '../format/emit.js';
import type { WireRecord } from '../types.js';

/** Flag codes of a block's days, by flag column (undefined: the files hold none, so null). */
export type DayFlags = ReadonlyMap<FlagColumn, ArrayLike<number> | undefined>;

/** Appends rows [from, to) of a block, each record carrying its own day's flags among its attributes. */
export function emitWithFlags(
  builder: RecordBuilder,
  out: unknown[],
  name: string,
  block: Block,
  extra: WireRecord,
  flags: DayFlags,
  from = 0,
  to = block.days.length,
): void {
  if (flags.size === 0) return builder.emit(out, name, block, extra, from, to);
  const columns = [...flags];
  for (let start = from; start < to; ) {
    let end = start + 1;
    while (end < to && columns.every(([, codes]) => same(codes?.[end], codes?.[start]))) end++;
    const run: WireRecord = { ...extra };
    // a day without a flag (files written before flags) keeps the name's attribute: the metadata qflag, else null
    for (const [column, codes] of columns) run[column] = (codes ? decodeFlag(column, codes[start]!) : null) ?? extra[column] ?? null;
    builder.emit(out, name, block, run, start, end);
    start = end;
  }
}

function same(a: number | undefined, b: number | undefined): boolean {
  return a === b || (a !== a && b !== b); // NaN (no flag) equals NaN
}
