// Answers as typed Arrow tables, and those tables as Parquet or Arrow IPC bytes that pandas, R, DuckDB and QGIS read.
import {
  type DataType,
  DateDay,
  Field,
  Float64,
  Int32,
  makeVector,
  RecordBatch,
  Schema,
  Table,
  tableToIPC,
  Utf8,
  type Vector,
  vectorFromArray,
} from 'apache-arrow';
import * as wasm from 'parquet-wasm';
import { attributeUnit } from '../catalogue.js';
import { parseDay } from '../dates.js';
import type { WireRecord, WireValue } from '../types.js';
import { floatVector, utf8Vector } from '../writer/vectors.js';

const intColumns = new Set(['n_days', 'month', 'n_qflag_M', 'n_qflag_S', 'n_qflag_R']);
const textColumns = new Set(['RES_NAME', 'STA_NAME', 'day']);
const dateColumns = new Set(['start_date', 'end_date', 'date']);

/** A column's type from its name (so an empty answer keeps its schema), else from its values. */
export function columnType(column: string, records: readonly WireRecord[]): DataType {
  return columnTypeOf(column, () => {
    const values = records.map((r) => r[column]);
    return values.some((v) => typeof v === 'number') && values.every((v) => v === null || v === undefined || typeof v === 'number');
  });
}

/** A column's type from its name, else numbers (Float64) when `numeric()` says its values are numbers and gaps, some numbers. */
export function columnTypeOf(column: string, numeric: () => boolean): DataType {
  if (dateColumns.has(column)) return new DateDay();
  if (textColumns.has(column)) return new Utf8();
  if (intColumns.has(column) || column.endsWith(' n')) return new Int32();
  if (column.includes(' (')) return new Float64(); // "<variable> (<unit>)" and the keys derived from it
  return numeric() ? new Float64() : new Utf8(); // no values at all: text, as in an empty answer
}

/** A column's unit, for its field metadata: a variable's "<name> (<unit>)" and what derives from it, counts in days, a metadata attribute's. */
function columnUnit(column: string): string | undefined {
  if (column === 'n_days' || column.startsWith('n_qflag_') || column.endsWith(' n')) return 'days';
  const label = /^[^ ]+ \(([^)]+)\)(?: (mean|min|max|p\d\d))?$/.exec(column)?.[1];
  return label ?? attributeUnit(column);
}

/**
 * An Arrow table of records under the given columns: names Utf8, dates Date32 (days), counts Int32, measurements
 * Float64, gaps null; each field with a unit carries it in its metadata (`unit`), and `metadata` goes into the schema's.
 */
export function recordsToTable(
  records: readonly WireRecord[],
  columns: readonly string[],
  metadata: ReadonlyMap<string, string> = new Map(),
  types?: ReadonlyMap<string, DataType>, // each column's type when known (a piece of a larger answer: table-pieces.ts)
): Table {
  const vectors: Record<string, Vector> = {};
  for (const column of columns)
    vectors[column] = vectorOf(
      types?.get(column) ?? columnType(column, records),
      records.map((r) => r[column] ?? null),
      column,
    );
  return annotate(new Table(vectors), metadata);
}

/** A column's wire values (null for gaps) as a vector of its type: dates are parsed, numbers made doubles or integers. */
export function vectorOf(type: DataType, values: readonly WireValue[], column: string): Vector {
  const nulls = values.some((v) => v === null);
  if (type instanceof DateDay) return makeVector({ type, data: Int32Array.from(values, (v) => parseDay(String(v), column)) });
  // typed arrays straight into vectors where possible: vectorFromArray's builder took 0.3-0.7 s for 16,800 x 27 values
  if (type instanceof Float64)
    return floatVector(
      Float64Array.from(values, (v) => (v === null ? NaN : (v as number))),
      false,
    );
  if (type instanceof Int32 && !nulls) return makeVector(Int32Array.from(values as number[]));
  if (type instanceof Utf8 && !nulls) return utf8Vector(values.map(String));
  return vectorFromArray(
    values.map((v) => (v === null || type instanceof Int32 ? v : String(v))),
    type,
  );
}

/** Doubles (already rounded) as a Float64 vector, null where NaN. */
export function doubleVector(values: Float64Array): Vector {
  return floatVector(values, false);
}

/** An Arrow table of vectors under their columns, each field with a unit carrying it (as recordsToTable's). */
export function vectorsToTable(vectors: Record<string, Vector>): Table {
  return annotate(new Table(vectors), new Map());
}

/** An Arrow table of any records, with one column per record key in the records' key order, typed as recordsToTable types an answer. */
export function recordsToArrow(records: readonly WireRecord[]): Table {
  return recordsToTable(records, [...new Set(records.flatMap((r) => Object.keys(r)))]);
}

// the units as field metadata and the answer's metadata as the schema's (a Table's schema is fixed: rebuilt around its batches)
function annotate(table: Table, metadata: ReadonlyMap<string, string>): Table {
  const fields = table.schema.fields.map((f) => {
    const unit = columnUnit(f.name);
    return unit === undefined ? f : new Field(f.name, f.type, f.nullable, new Map([['unit', unit]]));
  });
  const schema = new Schema(fields, new Map(metadata));
  return new Table(
    schema,
    table.batches.map((b) => new RecordBatch(schema, b.data)),
  );
}

/** The table with `metadata` added to its schema's (an answer's provenance). */
export function withTableMetadata(table: Table, metadata: ReadonlyMap<string, string>): Table {
  return annotate(table, new Map([...table.schema.metadata, ...metadata]));
}

/** A table as one Arrow IPC stream (`application/vnd.apache.arrow.stream`). */
export function tableToArrowStream(table: Table): Uint8Array {
  return tableToIPC(table, 'stream');
}

/** Rows per row group of an answer's Parquet file. */
export const PARQUET_ROW_GROUP_ROWS = 65_536;

/** A table as a Parquet file (zstd-free: gzip pages, which every reader decodes), one row group per 65,536 rows. */
export function tableToParquet(table: Table): Uint8Array {
  // the schema's metadata (the provenance) also as the file's own key-value metadata, which every Parquet reader lists
  const properties = new wasm.WriterPropertiesBuilder()
    .setCompression(wasm.Compression.GZIP)
    .setMaxRowGroupSize(PARQUET_ROW_GROUP_ROWS)
    .setCreatedBy('evap')
    .setKeyValueMetadata(new Map(table.schema.metadata))
    .build();
  return wasm.writeParquet(wasm.Table.fromIPCStream(tableToIPC(table, 'stream')), properties);
}
