// A table's metadata files as they would read at another location (a folder's tables served as `s3://<bucket>/...`):
// every absolute location under the store's root rewritten, in the JSON metadata and inside the Avro manifests and
// manifest lists, so that an engine given the new locations never sees the server's file system.
import { decodeAvroFile, encodeAvroFile } from './avro.js';
import type { TableMetadata } from './metadata.js';

/** A location under `from` moved under `to`; any other value as it is. */
export function relocatePath(path: string, from: string, to: string): string {
  return path === from || path.startsWith(`${from}/`) ? `${to}${path.slice(from.length)}` : path;
}

/** The metadata with its table location, manifest lists and logged metadata files moved from `from` to `to`. */
export function relocateMetadata(metadata: TableMetadata, from: string, to: string): TableMetadata {
  const move = (path: string) => relocatePath(path, from, to);
  return {
    ...metadata,
    location: move(metadata.location),
    snapshots: metadata.snapshots.map((s) => ({ ...s, 'manifest-list': move(s['manifest-list']) })),
    'metadata-log': metadata['metadata-log'].map((e) => ({ ...e, 'metadata-file': move(e['metadata-file']) })),
  };
}

/** A manifest (Avro) with each data file's path moved; the same schema and header metadata. */
export function relocateManifest(bytes: Uint8Array, from: string, to: string): Uint8Array {
  const { records, meta, schema } = readAvro(bytes);
  for (const r of records as { data_file: { file_path: string } }[]) r.data_file.file_path = relocatePath(r.data_file.file_path, from, to);
  return encodeAvroFile(schema, records, meta);
}

/**
 * A manifest list (Avro) with each manifest's path moved and its length made that of the moved manifest
 * (`lengthOf`, given the manifest's original location), which readers check.
 */
export function relocateManifestList(bytes: Uint8Array, from: string, to: string, lengthOf: (path: string) => number): Uint8Array {
  const { records, meta, schema } = readAvro(bytes);
  for (const r of records as { manifest_path: string; manifest_length: number }[]) {
    r.manifest_length = lengthOf(r.manifest_path);
    r.manifest_path = relocatePath(r.manifest_path, from, to);
  }
  return encodeAvroFile(schema, records, meta);
}

// the records, the writer's schema and the header metadata without Avro's own keys (encodeAvroFile writes them again)
function readAvro(bytes: Uint8Array): { records: unknown[]; meta: Record<string, string>; schema: Record<string, unknown> } {
  const { records, meta } = decodeAvroFile(bytes);
  const { 'avro.schema': schema, 'avro.codec': _codec, ...rest } = meta;
  return { records, meta: rest, schema: JSON.parse(schema!) as Record<string, unknown> };
}
