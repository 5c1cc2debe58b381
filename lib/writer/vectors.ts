// Arrow tables of the store's files: Float64 columns with nulls for gaps, metadata with inferred column types.
import { DataType, Field, Float64, makeData, makeVector, RecordBatch, Schema, Table, Utf8, type Vector, vectorFromArray } from 'apache-arrow';
import { WriterMisuseError } from '../errors.js';
import { type FlagColumn, flagColumns } from '../flags.js';
import { compareText } from '../order.js';
import { FIELD_ID_KEY, type TableField } from '../tables/fields.js';
import type { MetadataRow } from '../types.js';
import { roundValue } from '../units.js';

/** A Float64 vector with nulls where the values are NaN; measurements are rounded to the wire's 4 decimals. */
export function floatVector(values: Float64Array, round = true): Vector {
  const rounded = new Float64Array(values.length);
  let nulls = 0;
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === Infinity || v === -Infinity) throw new WriterMisuseError(`a value is ${v}: the store holds finite numbers only`);
    if (Number.isNaN(v)) nulls++;
    else {
      rounded[i] = round ? roundValue(v) : v;
      bitmap[i >> 3]! |= 1 << (i & 7);
    }
  }
  if (nulls === 0) return makeVector(rounded);
  return makeVector(makeData({ type: new Float64(), data: rounded, length: values.length, nullCount: nulls, nullBitmap: bitmap }));
}

/**
 * A Utf8 vector of names, built from their bytes directly (apache-arrow's builder takes ~2 µs a string). Each string
 * is encoded once: names repeat in runs, and a forecast's statistic column cycles through eight words (encoded a row
 * at a time, they were 7% of writing an issue).
 */
export function utf8Vector(values: readonly string[]): Vector {
  const encoder = new TextEncoder();
  const offsets = new Int32Array(values.length + 1);
  const parts: Uint8Array[] = [];
  const encoded = new Map<string, Uint8Array>();
  let last: string | undefined;
  let bytes: Uint8Array = new Uint8Array(0);
  let length = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== last) {
      last = values[i]!;
      let known = encoded.get(last);
      if (!known) encoded.set(last, (known = encoder.encode(last)));
      bytes = known;
    }
    parts.push(bytes);
    length += bytes.byteLength;
    offsets[i + 1] = length;
  }
  const data = new Uint8Array(length);
  parts.forEach((part, i) => data.set(part, offsets[i]!));
  return makeVector(makeData({ type: new Utf8(), length: values.length, nullCount: 0, valueOffsets: offsets, data }));
}

export function metadataTable(rows: readonly MetadataRow[], key: string): Table {
  const sorted = [...rows].sort((a, b) => compareText(String(a[key]), String(b[key])));
  const attributes = [...new Set(sorted.flatMap((r) => Object.keys(r)))];
  const columns: Record<string, Vector> = {};
  for (const a of [key, ...attributes.filter((x) => x !== key)]) {
    const values = sorted.map((r) => r[a] ?? null);
    const numeric = values.every((v) => v === null || typeof v === 'number');
    columns[a] = numeric
      ? floatVector(
          Float64Array.from(values, (v) => (v === null ? NaN : (v as number))),
          false,
        )
      : vectorFromArray(
          values.map((v) => (v === null ? null : String(v))),
          new Utf8(),
        );
  }
  return new Table(columns);
}

/** A Utf8 vector of per-day flags from their codes (flags.ts), null where a code is NaN. */
export function flagVector(column: FlagColumn, codes: Float64Array): Vector {
  const texts = flagColumns[column].map((t) => new TextEncoder().encode(t));
  const offsets = new Int32Array(codes.length + 1);
  const bitmap = new Uint8Array((codes.length + 7) >> 3);
  let nulls = 0;
  let length = 0;
  for (let i = 0; i < codes.length; i++) {
    const text = texts[codes[i]!];
    if (codes[i] !== codes[i]) nulls++;
    else if (!text) throw new WriterMisuseError(`${column} code ${codes[i]} is not one of ${flagColumns[column].join(', ')}`);
    else {
      length += text.byteLength;
      bitmap[i >> 3]! |= 1 << (i & 7);
    }
    offsets[i + 1] = length;
  }
  const data = new Uint8Array(length);
  for (let i = 0; i < codes.length; i++) if (codes[i] === codes[i]) data.set(texts[codes[i]!]!, offsets[i]!);
  return makeVector(
    makeData({ type: new Utf8(), length: codes.length, nullCount: nulls, nullBitmap: nulls > 0 ? bitmap : undefined, valueOffsets: offsets, data }),
  );
}

/** The same table with each column's Iceberg field id in its Arrow field metadata, which the Parquet writer keeps. */
export function withFieldIds(table: Table, ids: ReadonlyMap<string, number>): Table {
  const schema = new Schema(
    table.schema.fields.map((f) => new Field(f.name, f.type, f.nullable, new Map([[FIELD_ID_KEY, String(ids.get(f.name))]]))),
    table.schema.metadata,
  );
  return new Table(
    schema,
    table.batches.map((b) => new RecordBatch(schema, b.data)),
  );
}

/** The Iceberg types of a metadata table's columns (numbers are doubles, everything else text). */
export function metadataColumnTypes(table: Table): { name: string; type: TableField['type'] }[] {
  return table.schema.fields.map((f) => ({ name: f.name, type: DataType.isFloat(f.type) ? 'double' : 'string' }));
}
