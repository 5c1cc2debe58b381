// An Iceberg table's metadata file (`v<N>.metadata.json`, format v2): its schemas, partition spec, snapshots and logs.
// Each snapshot is a store snapshot: its id and sequence number are the store's sequence number, its time the store's.
import { randomUUID } from 'node:crypto';
import type { TableField } from './fields.js';
import { type PartitionKind, partitionSpec } from './manifests.js';

interface IcebergSchema {
  type: 'struct';
  'schema-id': number;
  fields: { id: number; name: string; required: boolean; type: string }[];
}

interface IcebergSnapshot {
  'snapshot-id': number;
  'parent-snapshot-id'?: number;
  'sequence-number': number;
  'timestamp-ms': number;
  'manifest-list': string;
  'schema-id': number;
  summary: Record<string, string>;
}

export interface TableMetadata {
  'format-version': 2;
  'table-uuid': string;
  location: string;
  'last-sequence-number': number;
  'last-updated-ms': number;
  'last-column-id': number;
  'current-schema-id': number;
  schemas: IcebergSchema[];
  'default-spec-id': 0;
  'partition-specs': ReturnType<typeof partitionSpec>[];
  'last-partition-id': number;
  'default-sort-order-id': 0;
  'sort-orders': { 'order-id': 0; fields: [] }[];
  properties: Record<string, string>;
  'current-snapshot-id': number;
  refs: Record<string, { 'snapshot-id': number; type: 'branch' }>;
  snapshots: IcebergSnapshot[];
  'snapshot-log': { 'timestamp-ms': number; 'snapshot-id': number }[];
  'metadata-log': { 'timestamp-ms': number; 'metadata-file': string }[];
}

/** How many earlier metadata files a metadata file lists (the ones vacuum keeps while readers may still hold them). */
const METADATA_LOG_LENGTH = 5;

/** The metadata of a table with no snapshot yet. */
export function emptyTableMetadata(location: string, kind: PartitionKind, fields: readonly TableField[]): TableMetadata {
  const schema = schemaOf(fields, 0);
  return {
    'format-version': 2,
    'table-uuid': randomUUID(),
    location,
    'last-sequence-number': 0,
    'last-updated-ms': Date.now(),
    'last-column-id': Math.max(0, ...fields.map((f) => f.id)),
    'current-schema-id': 0,
    schemas: [schema],
    'default-spec-id': 0,
    'partition-specs': [partitionSpec(kind)],
    'last-partition-id': kind === 'none' ? 999 : 1000,
    'default-sort-order-id': 0,
    'sort-orders': [{ 'order-id': 0, fields: [] }],
    properties: { 'schema.name-mapping.default': nameMapping(fields) },
    'current-snapshot-id': -1,
    refs: {},
    snapshots: [],
    'snapshot-log': [],
    'metadata-log': [],
  };
}

/** The name mapping engines use for files written without field ids (`schema.name-mapping.default`). */
function nameMapping(fields: readonly TableField[]): string {
  return JSON.stringify(fields.map((f) => ({ 'field-id': f.id, names: [f.name] })));
}

function schemaOf(fields: readonly TableField[], id: number): IcebergSchema {
  return { type: 'struct', 'schema-id': id, fields: fields.map((f) => ({ id: f.id, name: f.name, required: false, type: f.type })) };
}

/** Makes `fields` the current schema (an existing identical schema is reused) and returns its id. */
export function useSchema(metadata: TableMetadata, fields: readonly TableField[]): number {
  const text = JSON.stringify(schemaOf(fields, 0).fields);
  let schema = metadata.schemas.find((s) => JSON.stringify(s.fields) === text);
  if (!schema) {
    schema = schemaOf(fields, Math.max(...metadata.schemas.map((s) => s['schema-id'])) + 1);
    metadata.schemas.push(schema);
  }
  metadata['current-schema-id'] = schema['schema-id'];
  metadata['last-column-id'] = Math.max(metadata['last-column-id'], ...fields.map((f) => f.id));
  // every name any schema used, so files of any age map
  const all = new Map<string, TableField>();
  for (const s of metadata.schemas) for (const f of s.fields) all.set(`${f.id}`, { id: f.id, name: f.name, type: f.type as TableField['type'] });
  metadata.properties['schema.name-mapping.default'] = nameMapping([...all.values()]);
  return schema['schema-id'];
}

/** Adds a snapshot and makes it current. */
export function addSnapshot(metadata: TableMetadata, snapshot: IcebergSnapshot): void {
  metadata.snapshots.push(snapshot);
  metadata['snapshot-log'].push({ 'timestamp-ms': snapshot['timestamp-ms'], 'snapshot-id': snapshot['snapshot-id'] });
  metadata['current-snapshot-id'] = snapshot['snapshot-id'];
  metadata['last-sequence-number'] = Math.max(metadata['last-sequence-number'], snapshot['sequence-number']);
  metadata.refs = { main: { 'snapshot-id': snapshot['snapshot-id'], type: 'branch' } };
}

/** Keeps only the snapshots in `keep` (the current one always), in the list and in the log. */
export function expireSnapshots(metadata: TableMetadata, keep: ReadonlySet<number>): number {
  const before = metadata.snapshots.length;
  const kept = (id: number) => keep.has(id) || id === metadata['current-snapshot-id'];
  metadata.snapshots = metadata.snapshots.filter((s) => kept(s['snapshot-id']));
  metadata['snapshot-log'] = metadata['snapshot-log'].filter((e) => kept(e['snapshot-id']));
  return before - metadata.snapshots.length;
}

/** The metadata as the next version: logs the one it replaces, and its time. */
export function nextVersion(metadata: TableMetadata, previousFile: string | undefined): TableMetadata {
  const next = structuredClone(metadata);
  if (previousFile) {
    next['metadata-log'] = [...next['metadata-log'], { 'timestamp-ms': metadata['last-updated-ms'], 'metadata-file': previousFile }].slice(
      -METADATA_LOG_LENGTH,
    );
  }
  next['last-updated-ms'] = Math.max(Date.now(), ...next.snapshots.map((s) => s['timestamp-ms']));
  return next;
}
