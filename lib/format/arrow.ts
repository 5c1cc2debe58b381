// Records -> an Arrow table, for analysts who want columns rather than records: the answer table's types (answer-table.ts).
import type { Table } from 'apache-arrow';
import type { WireRecord } from '../types.js';
import { recordsToTable } from './answer-table.js';

/** An Arrow table with one column per record key, in the records' key order, typed as every answer table is (names and dates Utf8, counts Int32, measurements Float64). */
export function recordsToArrow(records: readonly WireRecord[]): Table {
  return recordsToTable(records, [...new Set(records.flatMap((r) => Object.keys(r)))]);
}
