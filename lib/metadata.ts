// Reservoir and station metadata rows, decoded once when a store opens.
import type { WireRecord, WireValue } from './types.js';

/** Metadata of one kind (reservoirs or stations): rows by name and the attributes they carry. */
export interface MetadataTable {
  attributes: string[];
  byName: Map<string, WireRecord>;
}

/** Decodes a metadata table's columns into records keyed by the name column; NaN and null become null. */
export function decodeMetadata(table: Map<string, ArrayLike<WireValue>> | null, key: string): MetadataTable {
  if (!table) return { attributes: [key], byName: new Map() };
  const attributes = [...table.keys()].filter((a) => a !== '__proto__'); // not a safe record key
  const columns = attributes.map((a) => table.get(a)!);
  const byName = new Map<string, WireRecord>();
  const rows = columns[0]?.length ?? 0;
  for (let i = 0; i < rows; i++) {
    const record: WireRecord = {};
    for (let j = 0; j < attributes.length; j++) {
      const value = columns[j]![i];
      record[attributes[j]!] = value === undefined || (typeof value === 'number' && Number.isNaN(value)) ? null : value;
    }
    byName.set(String(record[key]), record);
  }
  return { attributes, byName };
}

/** The attributes of a name picked for also_return (the name key itself is already in every record). */
export function pickAttributes(table: MetadataTable, name: string, attributes: readonly string[]): WireRecord {
  const row = table.byName.get(name);
  const out: WireRecord = {};
  for (const a of attributes) out[a] = row?.[a] ?? null;
  return out;
}
