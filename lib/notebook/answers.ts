// The answers a notebook shows, told apart by shape: records, Arrow tables, and the library's streams.
import { DataType, type Table } from 'apache-arrow';
import type { RecordStream } from '../format/stream.js';
import type { WireRecord, WireValue } from '../types.js';

/** An answer held whole: records, or an Arrow table. */
export type PlainAnswer = readonly WireRecord[] | Table;

/** True for an Arrow table (by shape, so a table from another copy of apache-arrow counts too). */
function isArrowTable(value: unknown): value is Table {
  const t = value as Partial<Table> | null;
  return typeof t === 'object' && t !== null && typeof t.numRows === 'number' && typeof t.getChild === 'function' && Array.isArray(t.schema?.fields);
}

/** True for a RecordStream: columns, batches and records(). */
export function isRecordStream(value: unknown): value is RecordStream {
  const s = value as Partial<RecordStream> | null;
  return typeof s === 'object' && s !== null && Array.isArray(s.columns) && typeof s.records === 'function' && s.batches !== undefined;
}

/** An Arrow table's column names and its rows as records (64-bit integers as numbers, dates as YYYY-MM-DD as the wire has them). */
function tableRecords(table: Table): { columns: string[]; records: WireRecord[] } {
  const columns = table.schema.fields.map((f) => f.name);
  const dates = table.schema.fields.map((f) => DataType.isDate(f.type)); // answers type start_date and end_date as Date32
  const vectors = columns.map((c) => table.getChild(c));
  const records: WireRecord[] = [];
  for (let i = 0; i < table.numRows; i++) {
    const r: WireRecord = {};
    columns.forEach((c, j) => {
      const value = vectors[j]?.get(i);
      r[c] = dates[j] && value !== null && value !== undefined ? dayText(value) : wireValue(value);
    });
    records.push(r);
  }
  return { columns, records };
}

// a Date32 value as apache-arrow reads it (epoch milliseconds, or a Date) as the wire's day
function dayText(value: unknown): string {
  return new Date(value instanceof Date ? value.getTime() : Number(value)).toISOString().slice(0, 10);
}

function wireValue(value: unknown): WireValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  return String(value);
}

/** The records and columns of an answer held whole. */
export function plainRecords(answer: PlainAnswer): { columns: string[]; records: readonly WireRecord[] } {
  if (isArrowTable(answer)) return tableRecords(answer);
  const records = answer as readonly WireRecord[];
  return { columns: [...new Set(records.flatMap((r) => Object.keys(r)))], records };
}
