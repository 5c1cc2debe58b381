// Builders of wire records, generated per record shape: as objects, or straight as their JSON text.

import { formatDay } from '../dates.js';
import { decodeFlag, type FlagColumn } from '../flags.js';
import type { WireRecord, WireValue } from '../types.js';
import { convert, roundValue } from '../units.js';
import { csvField, formatNumber } from './csv.js';
import type { Emitter, ResolvedVariable } from './emitter.js';
import { blockFrame } from './frame.js';
import { byteEmitter } from './row-bytes.js';

/** Rows of several columns for one name, aligned on `days`. */
export interface Block {
  days: ArrayLike<number>;
  columns: (ArrayLike<number> | undefined)[]; // parallel to the variables; undefined when not held
}

/** What a builder produces per block: record objects, JSON text (objects separated by commas, no brackets), or CSV rows. */
export type OutputKind = 'records' | 'json' | 'csv';

/** An output kind, or frames (frame.ts: the columns an Arrow or Parquet answer is built from). */
export type BuilderKind = OutputKind | 'frames';

const emitters = new Map<string, Emitter>();
const MAX_EMITTERS = 512; // shapes are few in practice; the bound keeps hostile variety from growing the map

/** Builds records of one shape: one emitter lookup per block, none per record. */
export class RecordBuilder {
  private extraKeys: string[] | undefined;
  private emitters: ((columns: Block['columns']) => Emitter) | undefined;
  private last: { columns: Block['columns']; emit: Emitter } | undefined; // blocks that share their columns (one date of every name) share the emitter

  constructor(
    private readonly nameKey: string,
    private readonly variables: readonly ResolvedVariable[],
    readonly kind: BuilderKind = 'records',
    private readonly codegen = true, // false: the interpreted emitter, where generating code is forbidden (a content security policy)
  ) {}

  /** Appends the records (or their JSON text) of rows [from, to) of a block (default: all its rows). */
  emit(out: unknown[], name: string, block: Block, extra: WireRecord, from = 0, to = block.days.length): void {
    if (this.kind === 'frames') return void out.push(blockFrame(this.nameKey, this.variables, name, block, extra, from, to));
    const keys = Object.keys(extra).filter((k) => k !== this.nameKey);
    const emit = this.emitterOf(keys, block.columns);
    const asText = textOf[this.kind];
    const values: WireValue[] = new Array(keys.length);
    for (let e = 0; e < keys.length; e++) values[e] = asText(extra[keys[e]!]!);
    emit(out, asText(name) as string, block.days, block.columns, from, to, values);
  }

  /**
   * Appends rows [from, to) of a block whose row i is `names[i]`'s, those with `seen[i]` set, without attributes (one
   * date of every name): as one string where the emitter can (row-bytes.ts), else record by record.
   */
  emitNames(out: unknown[], names: readonly string[], seen: ArrayLike<number>, block: Block, from: number, to: number): void {
    const emit = this.kind === 'frames' ? undefined : this.emitterOf([], block.columns);
    if (emit?.names?.(out, names, seen, block.days, block.columns, from, to)) return;
    for (let i = from; i < to; i++) if (seen[i]) this.emit(out, names[i]!, block, {}, i, i + 1);
  }

  // the emitter of a block's columns and attribute keys: made again only when the keys change
  private emitterOf(keys: string[], columns: Block['columns']): Emitter {
    if (!this.emitters || !sameKeys(keys, this.extraKeys!)) {
      const kind = this.kind as OutputKind; // frames are made without an emitter
      this.extraKeys = keys;
      this.last = undefined;
      this.emitters = this.codegen
        ? emittersOf(this.nameKey, this.variables, keys, kind)
        : (columns) =>
            interpretedEmitter(
              this.nameKey,
              this.variables,
              columns.map((c) => c !== undefined),
              keys,
              kind,
            );
    }
    if (this.last?.columns !== columns) this.last = { columns, emit: this.emitters(columns) };
    return this.last.emit;
  }
}

// How a name or an attribute value enters each kind of output.
const textOf: Record<BuilderKind, (value: WireValue) => WireValue> = {
  records: (value) => value,
  frames: (value) => value,
  json: (value) => JSON.stringify(value),
  csv: (value) => (value === null ? '' : typeof value === 'number' ? formatNumber(value) : csvField(value)),
};

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The emitters of one query's record shape, by which columns a block holds (resolved once per query, then a lookup). */
function emittersOf(
  nameKey: string,
  variables: readonly ResolvedVariable[],
  extraKeys: readonly string[],
  kind: OutputKind,
): (columns: Block['columns']) => Emitter {
  const base = JSON.stringify([kind, nameKey, variables.map((v) => [v.key, v.factor, v.offset]), extraKeys]);
  const local = new Map<number | string, Emitter>();
  return (columns) => {
    // which columns are held, as a number while it is exact (52 variables), else as text: a cheap key per block
    let mask: number | string = 0;
    if (columns.length <= 52) for (let j = 0; j < columns.length; j++) mask += columns[j] === undefined ? 0 : 2 ** j;
    else mask = columns.map((c) => (c === undefined ? '0' : '1')).join('');
    let emit = local.get(mask);
    if (!emit) {
      const held = columns.map((c) => c !== undefined);
      local.set(mask, (emit = emitterFor(`${base}|${held.map(Number).join('')}`, nameKey, variables, held, extraKeys, kind)));
    }
    return emit;
  };
}

function emitterFor(
  signature: string,
  nameKey: string,
  variables: readonly ResolvedVariable[],
  held: readonly boolean[],
  extraKeys: readonly string[],
  kind: OutputKind,
): Emitter {
  let emit = emitters.get(signature);
  if (emit) return emit;
  // an array-index key ("1") comes first in a JS object whatever the literal's order: text must then come from objects
  const indexLike = [nameKey, ...variables.map((v) => v.key), ...extraKeys].some((k) => /^(0|[1-9]\d*)$/.test(k));
  emit =
    kind === 'json' && indexLike ? viaObjects(compile(nameKey, variables, held, extraKeys, 'records')) : compile(nameKey, variables, held, extraKeys, kind);
  // text is written as bytes straight from the columns where the shape allows (row-bytes.ts), the compiled strings elsewhere
  if (kind !== 'records') emit = byteEmitter(nameKey, variables, held, extraKeys, kind, emit) ?? emit;
  if (emitters.size >= MAX_EMITTERS) emitters.clear();
  emitters.set(signature, emit);
  return emit;
}

function compile(nameKey: string, variables: readonly ResolvedVariable[], held: readonly boolean[], extraKeys: readonly string[], kind: OutputKind): Emitter {
  const json = kind === 'json';
  const text = kind !== 'records';
  const lines: string[] = [];
  const fields: [key: string, value: string][] = [
    [nameKey, 'name'],
    ['start_date', 'date'],
    ['end_date', 'date'],
  ];
  variables.forEach((v, j) => {
    if (!held[j]) return void fields.push([v.key, json ? '"null"' : text ? "''" : 'null']);
    const { factor, offset } = v; // convert() inlined: the identity leaves the value as it is
    const raw = factor === 1 && offset === 0 ? `c${j}[i]` : `c${j}[i] * ${numberLiteral(factor)} + ${numberLiteral(offset)}`;
    lines.push(`let v${j} = ${raw};`);
    if (text) lines.push(`const t${j} = v${j} !== v${j} ? ${json ? "'null'" : "''"} : formatNumber(roundValue(v${j}));`);
    else lines.push(`if (v${j} !== v${j}) v${j} = null; else v${j} = roundValue(v${j});`);
    fields.push([v.key, text ? `t${j}` : `v${j}`]);
  });
  extraKeys.forEach((k, e) => fields.push([k, `extra[${e}]`]));
  const record =
    kind === 'json'
      ? fields
          .map(([k, value], f) => `${JSON.stringify(`${f === 0 ? '{' : ','}${JSON.stringify(k)}:`)} + ${value === 'date' ? "'\"' + date + '\"'" : value}`)
          .join(' + ') + " + '}'"
      : kind === 'csv'
        ? `${fields.map(([, value]) => value).join(" + ',' + ")} + '\\n'`
        : `{ ${fields.map(([k, value]) => `${propertyName(k)}: ${value}`).join(', ')} }`;
  const body = [
    ...variables.flatMap((_, j) => (held[j] ? [`const c${j} = columns[${j}];`] : [])),
    text ? 'const rows = [];' : '',
    'for (let i = from; i < to; i++) {',
    '  const date = formatDay(days[i]);',
    ...lines.map((l) => `  ${l}`),
    text ? `  rows.push(${record});` : `  out.push(${record});`,
    '}',
    // join copies each row once into one flat string: cheaper than growing a rope row by row on large answers
    text ? `if (to > from) out.push(rows.join(${json ? "','" : "''"}));` : '',
  ].join('\n');
  const make = new Function('formatDay', 'formatNumber', 'roundValue', `return function emit(out, name, days, columns, from, to, extra) {\n${body}\n};`);
  return make(formatDay, formatNumber, roundValue) as Emitter;
}

/**
 * The same records, JSON or CSV rows as the generated emitters, made one value at a time with units.ts's convert
 * and roundValue: the oracle of the generated ones in the tests, and the fallback where code cannot be generated.
 */
function interpretedEmitter(
  nameKey: string,
  variables: readonly ResolvedVariable[],
  held: readonly boolean[],
  extraKeys: readonly string[],
  kind: OutputKind,
): Emitter {
  return (out, name, days, columns, from, to, extra) => {
    const rows: string[] = [];
    for (let i = from; i < to; i++) {
      const date = formatDay(days[i]!);
      const values = variables.map((v, j) => {
        const value = held[j] ? convert(columns[j]![i]!, v) : NaN;
        return value !== value ? null : roundValue(value);
      });
      if (kind === 'csv') {
        const fields = [name as string, date, date, ...values.map((v) => (v === null ? '' : formatNumber(v))), ...(extra as string[])];
        rows.push(`${fields.join(',')}\n`);
        continue;
      }
      const text = kind === 'json';
      const record: Record<string, WireValue> = {};
      const entries: [string, WireValue][] = [
        [nameKey, text ? (JSON.parse(name) as WireValue) : name],
        ['start_date', date],
        ['end_date', date],
      ];
      variables.forEach((v, j) => entries.push([v.key, values[j]!]));
      extraKeys.forEach((k, e) => entries.push([k, text ? (JSON.parse(extra[e] as string) as WireValue) : extra[e]!]));
      for (const [key, value] of entries) Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true }); // "__proto__" as a key
      if (text) rows.push(JSON.stringify(record));
      else out.push(record);
    }
    if (rows.length > 0) out.push(rows.join(kind === 'json' ? ',' : ''));
  };
}

// JSON text through record objects and JSON.stringify, for the rare shapes whose key order objects would change.
function viaObjects(records: Emitter): Emitter {
  return (out, name, days, columns, from, to, extra) => {
    const built: unknown[] = [];
    records(
      built,
      JSON.parse(name) as string,
      days,
      columns,
      from,
      to,
      extra.map((e) => JSON.parse(e as string) as WireValue),
    );
    if (built.length > 0) out.push(JSON.stringify(built).slice(1, -1));
  };
}

// A key as object-literal source; `__proto__` must be computed, or the literal would set the prototype instead.
function propertyName(key: string): string {
  return key === '__proto__' ? '["__proto__"]' : JSON.stringify(key);
}

// A number as JavaScript source that reads back as the same double.
function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return Object.is(value, -0) ? '-0' : `(${String(value)})`;
}

// Records with per-day attributes (qflag, status): a block is emitted in runs of days whose flags agree, each run
// with its flags in place of the name's attributes, so the generated emitters stay as they are.

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
