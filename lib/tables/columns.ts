// The columns of a metadata table, read from its Parquet file: the field ids the writer put there, or, for a file
// written before field ids, the ids the writer would give them (the table's name mapping then maps them).
import { StoreError } from '../errors.js';
import { parseFooter } from '../store/parquet.js';
import type { Storage } from '../store/storage.js';
import { metadataFieldIds, type TableField } from './fields.js';
import type { SnapshotTable } from './layout.js';

/** The fields of a metadata table's file (none: just its name column). */
export async function metadataFields(storage: Storage, table: SnapshotTable): Promise<TableField[]> {
  const file = table.groups[0]?.files[0];
  if (!file) return [{ id: 1, name: table.key, type: 'string' }];
  const bytes = await storage.read(file.path, 0, file.bytes);
  if (bytes.byteLength !== file.bytes) throw new StoreError(`store file ${file.path} is truncated: shorter than the ${file.bytes} bytes the manifest says`);
  const schema = parseFooter(bytes).metadata.schema.slice(1);
  const columns = schema.map((e) => ({ name: e.name, type: e.type === 'DOUBLE' ? ('double' as const) : ('string' as const), id: e.field_id }));
  if (columns.every((c) => c.id !== undefined)) return columns.map((c) => ({ id: c.id!, name: c.name, type: c.type }));
  return metadataFieldIds(table.key, columns);
}
