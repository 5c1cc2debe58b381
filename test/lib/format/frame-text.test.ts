// A frame's records, JSON and CSV against independent oracles: records built by a plain loop, JSON.stringify of them,
// and csv-stringify of their fields, over any values, keys (a key twice, an array index, "__proto__"), unicode and
// lone surrogates; its text is cut into pieces at rows.
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEXT_PIECE_CHARS } from '../../../lib/format/bytes.js';
import type { Frame, FrameColumn } from '../../../lib/format/frame.js';
import { frameRecords } from '../../../lib/format/frame-records.js';
import { frameText } from '../../../lib/format/frame-text.js';
import type { WireValue } from '../../../lib/types.js';
import { roundValue } from '../../../lib/units.js';

const isoDay = (day: number) => new Date(day * 864e5).toISOString().slice(0, 10);

const number = fc.oneof(
  fc.double(),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map((k) => k / 1e4),
  fc.constantFrom(NaN, -0, 0, 5e-324, -0.00004, 0.00005, 99999999999.99995, 1e11, 1e15, 1e21, Infinity, -Infinity),
);
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.constantFrom('LAKE MEAD', 'O"NEIL, LAKE', 'two\nlines', 'cr\rhere', 'Réservoir ñ 湖 🌊', '', 'lone \uD800 half', '\uDFFF'),
);
const wireValue: fc.Arbitrary<WireValue> = fc.oneof(text, number, fc.constant(null));
// keys from a small pool, so that a frame gives a key twice at times; '7' is an array index, which objects put first
const key = fc.constantFrom('RES_NAME', 'start_date', 'a (mm) mean', 'ünï "code"', 'a,b', '7', '__proto__', 'n');

function columnOf(kind: FrameColumn['kind'], k: string, rows: number): fc.Arbitrary<FrameColumn> {
  if (kind === 'day')
    return fc
      .array(fc.oneof(fc.integer({ min: -40_000, max: 80_000 }), fc.integer({ min: 18_000, max: 21_000 })), { minLength: rows, maxLength: rows })
      .map((days) => ({ key: k, kind, days: Int32Array.from(days) }));
  if (kind === 'number')
    return fc
      .tuple(
        fc.array(number, { minLength: rows, maxLength: rows }),
        fc.option(fc.tuple(fc.constantFrom(1, 0.0393701, 1 / 1233.48, 1.8, -2.5), fc.constantFrom(0, 32, -0.5))),
      )
      .map(([v, conversion]) => ({ key: k, kind, values: Float64Array.from(v), ...(conversion ? { factor: conversion[0], offset: conversion[1] } : {}) }));
  if (kind === 'label')
    return fc
      .array(text, { minLength: 1, maxLength: 6 })
      .chain((labels) =>
        fc.array(fc.nat(labels.length - 1), { minLength: rows, maxLength: rows }).map((at) => ({ key: k, kind, labels, at: Int32Array.from(at) })),
      );
  if (kind === 'value') return fc.array(wireValue, { minLength: rows, maxLength: rows }).map((values) => ({ key: k, kind, values }));
  return wireValue.map((value) => ({ key: k, kind: 'same' as const, value }));
}

const frame: fc.Arbitrary<Frame> = fc.integer({ min: 0, max: 8 }).chain((rows) =>
  fc
    .array(fc.tuple(key, fc.constantFrom('day', 'number', 'value', 'label', 'same') as fc.Arbitrary<FrameColumn['kind']>), { maxLength: 8 })
    .chain((specs) => fc.tuple(...specs.map(([k, kind]) => columnOf(kind, k, rows))))
    .map((columns) => ({ rows, columns })),
);

// a row's value of a column as a wire record holds it, made here without the library's encoders
function plainValue(column: FrameColumn, i: number): WireValue {
  if (column.kind === 'day') return isoDay(column.days[i]!);
  if (column.kind === 'number') {
    const x = column.factor === undefined ? column.values[i]! : column.values[i]! * column.factor + column.offset!;
    return Number.isNaN(x) ? null : roundValue(x);
  }
  if (column.kind === 'label') return column.labels[column.at[i]!]!;
  return column.kind === 'value' ? column.values[i]! : column.value;
}

// the records of a plain loop: each column in turn assigned (a key twice keeps its first place and takes its last value)
function plainRecords(f: Frame): Record<string, WireValue>[] {
  const out = [];
  for (let i = 0; i < f.rows; i++) {
    const record: Record<string, WireValue> = {};
    for (const c of f.columns) Object.defineProperty(record, c.key, { value: plainValue(c, i), enumerable: true, writable: true, configurable: true });
    out.push(record);
  }
  return out;
}

describe('frameRecords', () => {
  it('gives the records of a plain loop over the columns', () => {
    fc.assert(
      fc.property(frame, (f) => {
        expect(frameRecords(f)).toStrictEqual(plainRecords(f));
        expect(frameRecords(f, 0, f.rows, false)).toStrictEqual(plainRecords(f)); // built key by key, as where code may not be generated
      }),
      { numRuns: 300 },
    );
  });
});

describe('frameText', () => {
  it('writes JSON.stringify of the plain records, and csv-stringify of their fields under any columns', () => {
    const csvColumns = fc.uniqueArray(fc.constantFrom('RES_NAME', 'start_date', 'a (mm) mean', 'ünï "code"', 'a,b', '7', 'n', 'absent'), { minLength: 1 });
    fc.assert(
      fc.property(frame, csvColumns, (f, columns) => {
        const records = plainRecords(f);
        expect(frameText(f, 'json', columns).join(',')).toBe(JSON.stringify(records).slice(1, -1));
        const fields = records.map((r) => columns.map((c) => (Object.hasOwn(r, c) ? r[c]! : null)));
        expect(frameText(f, 'csv', columns).join('')).toBe(records.length === 0 ? '' : stringify(fields, { cast: { number: String } }));
      }),
      { numRuns: 1500 },
    );
  });

  it('cuts a large frame into strings of about TEXT_PIECE_CHARS, at rows', () => {
    const rows = 20_000;
    const f: Frame = {
      rows,
      columns: [
        { key: 'RES_NAME', kind: 'same', value: 'LAKE 湖' },
        { key: 'start_date', kind: 'day', days: Int32Array.from({ length: rows }, (_, i) => 18_000 + i) },
        { key: 'v', kind: 'number', values: Float64Array.from({ length: rows }, (_, i) => Math.sin(i) * 1000) },
      ],
    };
    const json = frameText(f, 'json', []);
    const csv = frameText(f, 'csv', ['RES_NAME', 'start_date', 'v']);
    expect(json.length).toBeGreaterThan(1);
    for (const piece of [...json, ...csv]) expect(piece.length).toBeLessThan(TEXT_PIECE_CHARS + 100);
    for (const piece of json) expect(JSON.parse(`[${piece}]`).length).toBeGreaterThan(0);
    expect(json.join(',')).toBe(JSON.stringify(plainRecords(f)).slice(1, -1));
    expect(csv.every((piece) => piece.endsWith('\n'))).toBe(true);
  });
});
