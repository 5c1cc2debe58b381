// The one value a read yields and every encoder consumes: a batch of rows as typed columns, in the answer's key order.
// A wire record is one of the encoders' outputs (stream.ts), never something a query builds.
import { formatDay } from '../dates.js';
import { decodeFlag, type FlagColumn } from '../flags.js';
import type { WireValue } from '../types.js';
import { roundValue } from '../units.js';
import type { ResolvedVariable } from './variable.js';

/**
 * A frame's column under its wire key: how its values are held says how they are written. A number column may hold
 * the stored values and their linear conversion into the answer's units (value = values[i] * factor + offset), so a
 * block read from the store is written without a converted copy; absent, the values are in the answer's units.
 */
export type FrameColumn =
  | { key: string; kind: 'day'; days: ArrayLike<number> } // days since 1970-01-01, written YYYY-MM-DD
  | ({ key: string; kind: 'number'; values: ArrayLike<number>; factor?: number; offset?: number } & Measure) // unrounded; NaN: null; written to 4 decimals
  | { key: string; kind: 'value'; values: readonly WireValue[] } // a value a row, written as it is (a label, a lead range)
  | { key: string; kind: 'label'; labels: readonly string[]; at: ArrayLike<number> } // row i: labels[at[i]], a list kept long (the snapshot's names), whose text is encoded once
  | { key: string; kind: 'same'; value: WireValue }; // one value in every row (the name, an attribute)

/** What a number column measures (absent for counts and labels): the answer's variable, unit label and statistic. */
export interface Measure {
  variable?: string;
  unit?: string;
  statistic?: string;
}

/**
 * Rows [0, rows) of the columns; a key given twice keeps its first place and its last column's values (as Object.assign).
 * A frame's arrays may be views of the reader's caches or shared between frames: they are read, never written.
 */
export interface Frame {
  rows: number;
  columns: readonly FrameColumn[];
}

/** A column of `rows` days all `day` (an issue date in every row of a frame). */
export function sameDay(key: string, day: number, rows: number): FrameColumn {
  return { key, kind: 'day', days: new Int32Array(rows).fill(day) };
}

/** The attributes of a name as columns of one value each, in their order. */
export function attributeColumns(attributes: Readonly<Record<string, WireValue>>, except?: string): FrameColumn[] {
  return Object.keys(attributes)
    .filter((k) => k !== except)
    .map((key) => ({ key, kind: 'same', value: attributes[key]! }));
}

/** Rows of several columns for one name, aligned on `days`: what the daily reader gives. */
export interface Block {
  days: ArrayLike<number>;
  columns: (ArrayLike<number> | undefined)[]; // parallel to the variables; undefined when not held
}

/** Codes of a block's days by day flag (undefined: the files hold none), decoded into the flag's attribute. */
export type DayFlags = ReadonlyMap<FlagColumn, ArrayLike<number> | undefined>;

/**
 * Rows [from, to) of a name's block (metric values by variable) as a frame of the daily records' shape: name, start
 * and end date, the values with their conversion into the answer's units, then the attributes `extra`, each day's
 * flag in its place (a day without a flag keeps the name's attribute: the metadata qflag, else null).
 */
export function blockFrame(
  nameKey: string,
  variables: readonly ResolvedVariable[],
  name: string,
  block: Block,
  extra: Readonly<Record<string, WireValue>>,
  from: number,
  to: number,
  flags: DayFlags = NO_FLAGS,
): Frame {
  const rows = to - from;
  const days = rowsOf(block.days, from, to);
  const values = variables.map((v, j) => {
    const column = block.columns[j];
    return measureColumn(v, column ? rowsOf(column, from, to) : nans(rows));
  });
  const head: FrameColumn[] = [
    { key: nameKey, kind: 'same', value: name },
    { key: 'start_date', kind: 'day', days },
    { key: 'end_date', kind: 'day', days },
  ];
  const attributes = attributeColumns(extra, nameKey);
  for (const [flag, codes] of flags) {
    const at = attributes.findIndex((c) => c.key === flag);
    const kept = extra[flag] ?? null;
    const column: FrameColumn = codes
      ? { key: flag, kind: 'value', values: Array.from({ length: rows }, (_, i) => decodeFlag(flag, codes[from + i]!) ?? kept) }
      : { key: flag, kind: 'same', value: kept };
    if (at < 0) attributes.push(column);
    else attributes[at] = column;
  }
  return { rows, columns: [...head, ...values, ...attributes] };
}

const NO_FLAGS: DayFlags = new Map();

// rows [from, to) of a column: a view of a typed array, a copy of anything else
function rowsOf(column: ArrayLike<number>, from: number, to: number): ArrayLike<number> {
  if (ArrayBuffer.isView(column)) return from === 0 && to === column.length ? column : (column as Float64Array).subarray(from, to);
  return Float64Array.from({ length: to - from }, (_, i) => column[from + i]!);
}

/** A variable's column of stored (metric) values, converted into the answer's units as it is written. */
export function measureColumn(v: ResolvedVariable, values: ArrayLike<number>): FrameColumn {
  if (v.factor === 1 && v.offset === 0) return { key: v.key, kind: 'number', values, variable: v.name };
  return { key: v.key, kind: 'number', values, factor: v.factor, offset: v.offset, variable: v.name };
}

let nanRows = new Float64Array(0); // NaN, grown as asked

/** `rows` NaN (a column not held: null in every row), a view of one array kept: frames are read, never written. */
export function nans(rows: number): Float64Array {
  if (nanRows.length < rows) nanRows = new Float64Array(Math.max(rows, 2 * nanRows.length)).fill(NaN);
  return nanRows.subarray(0, rows);
}

/** A number column's value in row `i`, in the answer's units (unrounded). */
export function numberAt(column: Extract<FrameColumn, { kind: 'number' }>, i: number): number {
  const x = column.values[i]!;
  return column.factor === undefined ? x : x * column.factor + (column.offset ?? 0);
}

/** The value a frame's column holds in row `i`, as a wire record holds it (rounded to 4 decimals, null for none). */
export function wireValueAt(column: FrameColumn, i: number): WireValue {
  switch (column.kind) {
    case 'day':
      return formatDay(column.days[i]!);
    case 'number': {
      const x = numberAt(column, i);
      return x !== x ? null : roundValue(x);
    }
    case 'value':
      return column.values[i]!;
    case 'label':
      return column.labels[column.at[i]!]!;
    case 'same':
      return column.value;
  }
}

// What an encoder works out once per shape of frame (its text's layout, its records' maker) is kept for the shapes last
// seen: a stream's frames come in one or a few shapes, so a frame's is found in a comparison or two, where a signature
// string made a frame cost a year of every reservoir 10% more.
/** Entries for the shapes last seen, most recent first, at most `keep` of them. */
export class RecentShapes<T> {
  private readonly entries: T[] = [];

  constructor(private readonly keep: number) {}

  /** The entry `fits` accepts (moved to the front), else the one `make` gives, kept in front of the others. */
  find(fits: (entry: T) => boolean, make: () => T): T {
    const entries = this.entries;
    for (let m = 0; m < entries.length; m++) {
      const entry = entries[m]!;
      if (!fits(entry)) continue;
      if (m > 0) entries.unshift(...entries.splice(m, 1));
      return entry;
    }
    const entry = make();
    entries.unshift(entry);
    if (entries.length > this.keep) entries.pop();
    return entry;
  }
}
