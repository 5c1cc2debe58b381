// Every name's values on one day as a frame of the daily records' shape, a batch of names at a time.
import { decodeFlag, type FlagColumn } from '../flags.js';
import { type DayFlags, type Frame, type FrameColumn, measureColumn, nans } from '../format/frame.js';
import type { WireValue } from '../types.js';
import type { Plan } from './plan.js';

/**
 * The rows of the names `at` (indexes into `labels`, the snapshot's names, whose text is then encoded once) on the
 * plan's day, from the day's values by name index (`values` by variable, `flags` by day flag): name, the day twice,
 * the values, then the attributes, each name's day flag in its place (none on the day: the metadata qflag, else null).
 */
export function dayFrame(plan: Plan, labels: readonly string[], at: Int32Array, values: readonly (ArrayLike<number> | undefined)[], flags: DayFlags): Frame {
  const rows = at.length;
  const start = at[0] ?? 0;
  let run = true; // names [start, start + rows): the values are views, not copies
  for (let r = 0; r < rows && run; r++) run = at[r] === start + r;
  const measures = plan.columns.map((v, j) => {
    const column = values[j];
    if (!column) return measureColumn(v, nans(rows));
    if (run && ArrayBuffer.isView(column)) return measureColumn(v, (column as Float64Array).subarray(start, start + rows));
    const picked = new Float64Array(rows);
    for (let r = 0; r < rows; r++) picked[r] = column[at[r]!]!;
    return measureColumn(v, picked);
  });
  const days = new Int32Array(rows).fill(plan.startDay);
  const keys = plan.attributes.filter((key) => key !== plan.nameKey);
  const attached = keys.length === 0 ? [] : Array.from(at, (i) => plan.attach(labels[i]!));
  const attributes = keys.map((key): FrameColumn => {
    const codes = flags.get(key as FlagColumn);
    const values = attached.map((record, r): WireValue => (codes ? decodeFlag(key as FlagColumn, codes[at[r]!]!) : null) ?? record[key] ?? null);
    return { key, kind: 'value', values };
  });
  const head: FrameColumn[] = [
    { key: plan.nameKey, kind: 'label', labels, at },
    { key: 'start_date', kind: 'day', days },
    { key: 'end_date', kind: 'day', days },
  ];
  return { rows, columns: [...head, ...measures, ...attributes] };
}
