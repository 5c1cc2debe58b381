// A frame's rows as wire records: the library's arrays, and the text of the rare shapes whose key order an object sets.
import { formatDay } from '../dates.js';
import type { WireRecord } from '../types.js';
import { roundValue } from '../units.js';
import { type Frame, type FrameColumn, RecentShapes, wireValueAt } from './frame.js';

/**
 * The frame's rows [from, to) as records, keys in its columns' order (a key given twice: its first place, its last
 * value). Each is one object literal of a function made per shape, so all share one hidden class, built without
 * transitions; `codegen` false (where code may not be generated: a content security policy) builds them key by key.
 */
export function frameRecords(frame: Frame, from = 0, to = frame.rows, codegen = canGenerate()): WireRecord[] {
  const out: WireRecord[] = new Array(Math.max(0, to - from));
  if (to <= from) return out;
  if (codegen) {
    makerOf(frame.columns)(frame.columns, from, to, out, formatDay, roundValue);
    return out;
  }
  for (let i = from; i < to; i++) {
    const record: WireRecord = {};
    for (const column of frame.columns) {
      const value = wireValueAt(column, i);
      if (column.key === '__proto__') Object.defineProperty(record, column.key, { value, enumerable: true, writable: true, configurable: true });
      else record[column.key] = value;
    }
    out[i - from] = record;
  }
  return out;
}

type Make = (columns: readonly FrameColumn[], from: number, to: number, out: WireRecord[], day: typeof formatDay, round: typeof roundValue) => void;

/** A maker of records and the shape it was made for: keys, kinds, converted numbers, day columns sharing their days. */
interface Maker {
  keys: string[];
  kinds: FrameColumn['kind'][];
  converted: boolean[];
  sharedDays: number[]; // a day column's first column of the same days (itself when none before)
  make: Make;
}

const makers = new RecentShapes<Maker>(16);
let generates: boolean | undefined;

// whether this process may compile code from strings (node --disallow-code-generation-from-strings: an EvalError)
function canGenerate(): boolean {
  if (generates === undefined)
    try {
      generates = new Function('return true')() as boolean;
    } catch {
      generates = false;
    }
  return generates;
}

function makerOf(columns: readonly FrameColumn[]): Make {
  return makers.find(
    (maker) => fits(maker, columns),
    () => makeMaker(columns),
  ).make;
}

function fits(maker: Maker, columns: readonly FrameColumn[]): boolean {
  const { keys, kinds, converted, sharedDays } = maker;
  if (keys.length !== columns.length) return false;
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k]!;
    if (c.key !== keys[k] || c.kind !== kinds[k]) return false;
    if (c.kind === 'number' && (c.factor !== undefined) !== converted[k]) return false;
    if (c.kind === 'day' && sharedDays[k] !== k && c.days !== (columns[sharedDays[k]!] as { days: unknown }).days) return false;
  }
  return true;
}

// one function a shape: the columns' arrays read once, a record a row as one object literal
function makeMaker(columns: readonly FrameColumn[]): Maker {
  const sharedDays = columns.map((c, k) => (c.kind === 'day' ? columns.findIndex((d) => d.kind === 'day' && d.days === c.days) : k));
  const setup: string[] = [];
  const perRow: string[] = [];
  const fields = columns.map((c, k) => {
    const name = c.key === '__proto__' ? '["__proto__"]' : JSON.stringify(c.key); // a literal's __proto__ would set the prototype
    switch (c.kind) {
      case 'same':
        setup.push(`const c${k} = columns[${k}].value;`);
        return `${name}: c${k}`;
      case 'value':
        setup.push(`const c${k} = columns[${k}].values;`);
        return `${name}: c${k}[i]`;
      case 'label':
        setup.push(`const c${k} = columns[${k}].labels, a${k} = columns[${k}].at;`);
        return `${name}: c${k}[a${k}[i]]`;
      case 'day': {
        const first = sharedDays[k]!;
        if (first === k) {
          setup.push(`const c${k} = columns[${k}].days;`);
          perRow.push(`const d${k} = day(c${k}[i]);`);
        }
        return `${name}: d${first}`;
      }
      case 'number':
        setup.push(`const c${k} = columns[${k}].values, f${k} = columns[${k}].factor, o${k} = columns[${k}].offset ?? 0;`);
        perRow.push(`const v${k} = ${c.factor !== undefined ? `c${k}[i] * f${k} + o${k}` : `c${k}[i]`};`);
        return `${name}: v${k} !== v${k} ? null : round(v${k})`;
    }
  });
  const body = [...setup, 'for (let i = from, n = 0; i < to; i++) {', ...perRow, `out[n++] = { ${fields.join(', ')} };`, '}'].join('\n');
  return {
    keys: columns.map((c) => c.key),
    kinds: columns.map((c) => c.kind),
    converted: columns.map((c) => c.kind === 'number' && c.factor !== undefined),
    sharedDays,
    make: new Function('columns', 'from', 'to', 'out', 'day', 'round', body) as Make,
  };
}
