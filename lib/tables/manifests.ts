// Iceberg manifests (one per partition: the data files of one year, one station, or the one metadata file) and
// manifest lists (one per snapshot), as Avro files with the field ids of the Iceberg table specification (format v2).
import { type AvroSchema, decodeAvroFile, encodeAvroFile } from './avro.js';

/** A data file as a manifest lists it. */
export interface ManifestFile {
  path: string; // absolute URI: file:///... or s3://bucket/...
  rows: number;
  bytes: number;
  lower: Map<number, Uint8Array>; // field id -> single-value serialization of the least value
  upper: Map<number, Uint8Array>;
}

/** How a table is partitioned: by year(date), by station name, or not at all. */
export type PartitionKind = 'year' | 'name' | 'none';

/** The value of a file's partition field: years since 1970, a name, or none. */
export type PartitionValue = number | string | null;

/** A manifest list's record of one manifest (names as in the Avro schema). */
export interface ManifestListEntry {
  manifest_path: string;
  manifest_length: number;
  partition_spec_id: number;
  content: number;
  sequence_number: number;
  min_sequence_number: number;
  added_snapshot_id: number;
  added_files_count: number;
  existing_files_count: number;
  deleted_files_count: number;
  added_rows_count: number;
  existing_rows_count: number;
  deleted_rows_count: number;
  partitions: { contains_null: boolean; contains_nan: boolean | null; lower_bound: Buffer | null; upper_bound: Buffer | null }[] | null;
  key_metadata: Buffer | null;
}

const optional = (type: unknown) => ['null', type];
const intMap = (keyId: number, valueId: number, value: string) =>
  optional({
    type: 'array',
    logicalType: 'map',
    items: {
      type: 'record',
      name: `k${keyId}_v${valueId}`,
      fields: [
        { name: 'key', type: 'int', 'field-id': keyId },
        { name: 'value', type: value, 'field-id': valueId },
      ],
    },
  });

/** The partition field of a table's spec (id 1000, as Iceberg numbers partition fields). */
export function partitionSpec(kind: PartitionKind): { 'spec-id': number; fields: Record<string, unknown>[] } {
  if (kind === 'year') return { 'spec-id': 0, fields: [{ name: 'date_year', transform: 'year', 'source-id': 2, 'field-id': 1000 }] };
  if (kind === 'name') return { 'spec-id': 0, fields: [{ name: 'STA_NAME', transform: 'identity', 'source-id': 1, 'field-id': 1000 }] };
  return { 'spec-id': 0, fields: [] };
}

function partitionRecord(kind: PartitionKind): AvroSchema {
  const fields =
    kind === 'none' ? [] : [{ name: kind === 'year' ? 'date_year' : 'STA_NAME', type: optional(kind === 'year' ? 'int' : 'string'), 'field-id': 1000 }];
  return { type: 'record', name: 'r102', fields };
}

function entrySchema(kind: PartitionKind): AvroSchema {
  return {
    type: 'record',
    name: 'manifest_entry',
    fields: [
      { name: 'status', type: 'int', 'field-id': 0 },
      { name: 'snapshot_id', type: optional('long'), 'field-id': 1 },
      { name: 'sequence_number', type: optional('long'), 'field-id': 3 },
      { name: 'file_sequence_number', type: optional('long'), 'field-id': 4 },
      {
        name: 'data_file',
        'field-id': 2,
        type: {
          type: 'record',
          name: 'r2',
          fields: [
            { name: 'content', type: 'int', 'field-id': 134 },
            { name: 'file_path', type: 'string', 'field-id': 100 },
            { name: 'file_format', type: 'string', 'field-id': 101 },
            { name: 'partition', type: partitionRecord(kind), 'field-id': 102 },
            { name: 'record_count', type: 'long', 'field-id': 103 },
            { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
            { name: 'column_sizes', type: intMap(117, 118, 'long'), default: null, 'field-id': 108 },
            { name: 'value_counts', type: intMap(119, 120, 'long'), default: null, 'field-id': 109 },
            { name: 'null_value_counts', type: intMap(121, 122, 'long'), default: null, 'field-id': 110 },
            { name: 'nan_value_counts', type: intMap(138, 139, 'long'), default: null, 'field-id': 137 },
            { name: 'lower_bounds', type: intMap(126, 127, 'bytes'), default: null, 'field-id': 125 },
            { name: 'upper_bounds', type: intMap(129, 130, 'bytes'), default: null, 'field-id': 128 },
            { name: 'key_metadata', type: optional('bytes'), default: null, 'field-id': 131 },
            { name: 'split_offsets', type: optional({ type: 'array', items: 'long', 'element-id': 133 }), default: null, 'field-id': 132 },
            { name: 'equality_ids', type: optional({ type: 'array', items: 'int', 'element-id': 136 }), default: null, 'field-id': 135 },
            { name: 'sort_order_id', type: optional('int'), default: null, 'field-id': 140 },
          ],
        },
      },
    ],
  };
}

const listSchema: AvroSchema = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
    {
      name: 'partitions',
      type: optional({
        type: 'array',
        'element-id': 508,
        items: {
          type: 'record',
          name: 'r508',
          fields: [
            { name: 'contains_null', type: 'boolean', 'field-id': 509 },
            { name: 'contains_nan', type: optional('boolean'), 'field-id': 518 },
            { name: 'lower_bound', type: optional('bytes'), 'field-id': 510 },
            { name: 'upper_bound', type: optional('bytes'), 'field-id': 511 },
          ],
        },
      }),
      default: null,
      'field-id': 507,
    },
    { name: 'key_metadata', type: optional('bytes'), default: null, 'field-id': 519 },
  ],
};

/** Single-value serialization of a partition value (Iceberg appendix D): an int little-endian, a string as UTF-8. */
function partitionBound(value: PartitionValue): Buffer | null {
  if (value === null) return null;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  const out = Buffer.alloc(4);
  out.writeInt32LE(value);
  return out;
}

/**
 * A manifest of files added by one snapshot (status 1, sequence numbers inherited from the manifest list), and its
 * record in a manifest list.
 */
export function encodeManifest(options: {
  kind: PartitionKind;
  partition: PartitionValue;
  files: readonly ManifestFile[];
  snapshotId: number;
  schema: unknown; // the table schema, JSON
  path: string; // where it will be, for its manifest-list record
}): { bytes: Uint8Array; entry: ManifestListEntry } {
  const { kind, partition, files, snapshotId } = options;
  const partitionValue = kind === 'none' ? {} : { [kind === 'year' ? 'date_year' : 'STA_NAME']: partition };
  const bounds = (m: Map<number, Uint8Array>) => [...m].map(([key, value]) => ({ key, value: Buffer.from(value) }));
  const records = files.map((f) => ({
    status: 1,
    snapshot_id: snapshotId,
    sequence_number: null,
    file_sequence_number: null,
    data_file: {
      content: 0,
      file_path: f.path,
      file_format: 'PARQUET',
      partition: partitionValue,
      record_count: f.rows,
      file_size_in_bytes: f.bytes,
      column_sizes: null,
      value_counts: null,
      null_value_counts: null,
      nan_value_counts: null,
      lower_bounds: bounds(f.lower),
      upper_bounds: bounds(f.upper),
      key_metadata: null,
      split_offsets: null,
      equality_ids: null,
      sort_order_id: null,
    },
  }));
  const bytes = encodeAvroFile(entrySchema(kind), records, {
    schema: JSON.stringify(options.schema),
    'schema-id': String((options.schema as { 'schema-id': number })['schema-id']),
    'partition-spec': JSON.stringify(partitionSpec(kind).fields),
    'partition-spec-id': '0',
    'format-version': '2',
    content: 'data',
  });
  const bound = partitionBound(partition);
  const entry: ManifestListEntry = {
    manifest_path: options.path,
    manifest_length: bytes.byteLength,
    partition_spec_id: 0,
    content: 0,
    sequence_number: snapshotId,
    min_sequence_number: snapshotId,
    added_snapshot_id: snapshotId,
    added_files_count: files.length,
    existing_files_count: 0,
    deleted_files_count: 0,
    added_rows_count: files.reduce((n, f) => n + f.rows, 0),
    existing_rows_count: 0,
    deleted_rows_count: 0,
    partitions: kind === 'none' ? [] : [{ contains_null: false, contains_nan: null, lower_bound: bound, upper_bound: bound }],
    key_metadata: null,
  };
  return { bytes, entry };
}

/** A snapshot's manifest list. */
export function encodeManifestList(entries: readonly ManifestListEntry[], snapshotId: number, parentId: number | null): Uint8Array {
  return encodeAvroFile(listSchema, entries, {
    'snapshot-id': String(snapshotId),
    'parent-snapshot-id': parentId === null ? 'null' : String(parentId),
    'sequence-number': String(snapshotId),
    'format-version': '2',
  });
}

/** The records of a manifest list. */
export function decodeManifestList(bytes: Uint8Array): ManifestListEntry[] {
  return decodeAvroFile(bytes).records as ManifestListEntry[];
}
