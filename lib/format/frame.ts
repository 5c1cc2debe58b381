// The one value a read yields and every encoder consumes: a batch of rows as typed columns, in the answer's key order.
// A wire record is one of the encoders' outputs (frame-stream.ts), never something a query builds.
import { formatDay } from '../dates.js';
import type { WireValue } from '../types.js';
import { convert, roundValue } from '../units.js';
import type { ResolvedVariable } from './emitter.js';

/** A frame's column under its wire key: how its values are held says how they are written. */
export type FrameColumn =
  | { key: string; kind: 'day'; days: ArrayLike<number> } // days since 1970-01-01, written YYYY-MM-DD
  | ({ key: string; kind: 'number'; values: ArrayLike<number> } & Measure) // in the answer's units, unrounded; NaN: null; written to 4 decimals
  | { key: string; kind: 'value'; values: readonly WireValue[] } // a value a row, written as it is (a label, a lead range)
  | { key: string; kind: 'same'; value: WireValue }; // one value in every row (the name, an attribute)

/** What a number column measures (absent for counts and labels): the answer's variable, unit label and statistic. */
export interface Measure {
  variable?: string;
  unit?: string;
  statistic?: string;
}

/** Rows [0, rows) of the columns; a key given twice keeps its first place and its last column's values (as Object.assign). */
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

/**
 * Rows [from, to) of a name's block of the daily reader (`days`, and metric values by variable, undefined when not
 * held) as a frame of the answer's record shape: name, start and end date, the values in the answer's units, `extra`.
 */
export function blockFrame(
  nameKey: string,
  variables: readonly ResolvedVariable[],
  name: string,
  block: { days: ArrayLike<number>; columns: readonly (ArrayLike<number> | undefined)[] },
  extra: Readonly<Record<string, WireValue>>,
  from: number,
  to: number,
): Frame {
  const rows = to - from;
  // plain loops: TypedArray.from with a function cost a what-if year of 20 reservoirs as much as writing its JSON
  const days = new Int32Array(rows);
  for (let i = 0; i < rows; i++) days[i] = block.days[from + i]!;
  const values = variables.map((v, j): FrameColumn => {
    const column = block.columns[j];
    const converted = new Float64Array(rows);
    if (!column) converted.fill(NaN);
    else for (let i = 0; i < rows; i++) converted[i] = convert(column[from + i]!, v);
    return { key: v.key, kind: 'number', values: converted, variable: v.name };
  });
  const head: FrameColumn[] = [
    { key: nameKey, kind: 'same', value: name },
    { key: 'start_date', kind: 'day', days },
    { key: 'end_date', kind: 'day', days },
  ];
  return { rows, columns: [...head, ...values, ...attributeColumns(extra, nameKey)] };
}

/** The value a frame's column holds in row `i`, as a wire record holds it (rounded to 4 decimals, null for none). */
export function wireValueAt(column: FrameColumn, i: number): WireValue {
  switch (column.kind) {
    case 'day':
      return formatDay(column.days[i]!);
    case 'number': {
      const x = column.values[i]!;
      return x !== x ? null : roundValue(x);
    }
    case 'value':
      return column.values[i]!;
    case 'same':
      return column.value;
  }
}
