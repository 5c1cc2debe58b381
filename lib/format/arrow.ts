// Records -> an Arrow table, for analysts who want columns rather than records.
import { Table, tableFromJSON, vectorFromArray } from 'apache-arrow';
import type { WireRecord } from '../types.js';
import { columnType } from './answer-table.js';

/** An Arrow table with one column per record key, in the records' key order (numbers as Float64, names and dates as strings). */
export function recordsToArrow(records: readonly WireRecord[]): Table {
  const table = tableFromJSON(records as Record<string, unknown>[]);
  // tableFromJSON leaves out a column whose every value is null, and orders columns by their first value that is not
  // null: put every key back in place, an all-null column typed as an answer table types it
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  return new Table(
    Object.fromEntries(
      keys.map((k) => [
        k,
        table.getChild(k) ??
          vectorFromArray(
            records.map(() => null),
            columnType(k, records),
          ),
      ]),
    ),
  );
}
