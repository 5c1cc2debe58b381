// The manifest: one JSON document naming every file of a store snapshot. Readers open only what it names.
import { StoreError } from './errors.js';

export const MANIFEST_FILE = 'manifest.json';
export const FORMAT_VERSION = 2;

/** A file of the snapshot, with what is needed to verify it. */
export interface FileEntry {
  path: string; // relative to the store folder, always '/'-separated
  rows: number;
  bytes: number;
  sha256: string;
}

/** A data file, read piecewise: its footer first (verified here), then the column chunks a query needs (verified by the footer). */
export interface DataFile extends FileEntry {
  footerBytes: number; // the tail read first: the Parquet footer, its length and the magic
  footerSha256: string; // of those tail bytes; the footer holds a checksum of every column chunk
  start: string; // first date held
  end: string; // last date held
}

/** A file of reservoir rows, sorted by name then date: one dataset, a span of days within one year, a range of names. */
export interface ReservoirFile extends DataFile {
  first: string; // first name held
  last: string; // last name held
}

/** The files of one dataset and year; their (dates x names) rectangles never overlap. */
export interface ReservoirPartition {
  year: number;
  start: string; // first date held by any file
  end: string; // last date held by any file
  files: ReservoirFile[]; // by start date, then first name
}

/** A station's file: every date it has, sorted by date. */
export interface StationPartition extends DataFile {
  variables: string[];
}

export interface Manifest {
  format: 'evap-store';
  version: number;
  snapshot: string; // unique id of this snapshot; also part of every file name it wrote
  sequence: number; // 1 for a store's first snapshot, then one more for each published after it
  created: string; // ISO timestamp
  rowGroupSize: number;
  reservoirs: { names: string[]; metadata: FileEntry | null };
  stations: { names: string[]; metadata: FileEntry | null; partitions: Record<string, StationPartition> };
  datasets: Record<string, { variables: string[]; partitions: ReservoirPartition[] }>;
}

/** An empty manifest for a new store. */
export function emptyManifest(snapshot: string, rowGroupSize: number): Manifest {
  return {
    format: 'evap-store',
    version: FORMAT_VERSION,
    snapshot,
    sequence: 0,
    created: new Date().toISOString(),
    rowGroupSize,
    reservoirs: { names: [], metadata: null },
    stations: { names: [], metadata: null, partitions: {} },
    datasets: {},
  };
}

/** Parses and checks manifest text; every path must stay inside the store folder. */
export function parseManifest(text: string): Manifest {
  let value: Manifest;
  try {
    value = JSON.parse(text) as Manifest;
  } catch (error) {
    throw new StoreError(`manifest.json is not valid JSON: ${(error as Error).message}`);
  }
  if (value?.format !== 'evap-store') throw new StoreError('manifest.json is not an evap store manifest (format field)');
  if (value.version !== FORMAT_VERSION) {
    throw new StoreError(`manifest.json has format version ${value.version}; this library reads version ${FORMAT_VERSION}`);
  }
  for (const entry of manifestFiles(value)) checkRelativePath(entry.path);
  value.sequence ??= 0; // a store written before snapshots were numbered
  return value;
}

/** Where every published snapshot's manifest is kept (`snapshots/<sequence>.json`) until vacuum retires it. */
export const SNAPSHOTS_FOLDER = 'snapshots';

/** The history path of the snapshot with this sequence number; zero-padded so names sort in sequence order. */
export function snapshotPath(sequence: number): string {
  return `${SNAPSHOTS_FOLDER}/${String(sequence).padStart(10, '0')}.json`;
}

/** Every file a manifest names. */
export function manifestFiles(manifest: Manifest): FileEntry[] {
  const files: FileEntry[] = [];
  if (manifest.reservoirs.metadata) files.push(manifest.reservoirs.metadata);
  if (manifest.stations.metadata) files.push(manifest.stations.metadata);
  for (const dataset of Object.values(manifest.datasets)) for (const p of dataset.partitions) files.push(...p.files);
  files.push(...Object.values(manifest.stations.partitions));
  return files;
}

function checkRelativePath(path: string): void {
  const parts = path.split('/');
  if (typeof path !== 'string' || path.startsWith('/') || path.includes('\\') || parts.some((p) => p === '..' || p === '.' || p === '')) {
    throw new StoreError(`manifest.json names a file outside the store: ${JSON.stringify(path)}`);
  }
}

/** Encodes a name for a Hive-style path segment: percent-encoding leaves no '/', '\\' or '.' to escape with. */
export function encodePathName(name: string): string {
  return encodeURIComponent(name).replace(/[.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Code-unit order, the order names are sorted in everywhere (same as the public service's ASCII names). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
