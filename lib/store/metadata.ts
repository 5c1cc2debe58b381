// Reservoir and station metadata rows, decoded once when a store opens.
import { StoreError } from '../errors.js';
import type { WireRecord, WireValue } from '../types.js';
import { decodeColumns, parseFooter } from './parquet.js';

/** Metadata of one kind (reservoirs or stations): rows by name and the attributes they carry. */
export interface MetadataTable {
  readonly attributes: string[];
  readonly byName: Map<string, WireRecord>;
}

/**
 * Metadata read from a Parquet file, decoded on first use: most queries never need it, and decoding 44,000 rows took
 * a quarter of a second of every open. `verify`, when given, checks the bytes (or throws) before anything is decoded.
 */
export function lazyMetadata(bytes: Uint8Array | null, key: string, where: string, verify?: () => void): MetadataTable {
  if (!bytes) return decodeMetadata(null, key);
  let verified = verify === undefined;
  const decode = <T>(what: () => T): T => {
    if (!verified) {
      verify!(); // its own error: the file is corrupt, not undecodable
      verified = true;
    }
    try {
      return what();
    } catch (error) {
      throw new StoreError(`store file ${where} cannot be decoded: ${(error as Error).message}`);
    }
  };
  // the footer too is parsed on first use: at 44,000 rows, a tenth of opening a store that most answers never look in
  let attributes: string[] | undefined;
  let rows: Map<string, WireRecord> | undefined;
  return {
    get attributes() {
      return (attributes ??= decode(() => [...parseFooter(bytes).columns.keys()].filter((a) => a !== '__proto__')));
    },
    get byName() {
      return (rows ??= decode(() => decodeMetadata(decodeColumns(bytes), key).byName));
    },
  };
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
  if (attributes.length === 0) return {}; // without touching the rows: they are decoded on first use
  const row = table.byName.get(name);
  const out: WireRecord = {};
  for (const a of attributes) out[a] = row?.[a] ?? null;
  return out;
}
