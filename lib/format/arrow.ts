// Records -> an Arrow table, for analysts who want columns rather than records.
import { tableFromJSON, type Table } from 'apache-arrow';
import type { WireRecord } from '../types.js';

/** An Arrow table with one column per record key (numbers as Float64, names and dates as strings). */
export function recordsToArrow(records: readonly WireRecord[]): Table {
  return tableFromJSON(records as Record<string, unknown>[]);
}
