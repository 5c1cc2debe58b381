// The manifest: one JSON document naming every file of a store snapshot. Readers open only what it names.
import { StoreError } from './errors.js';

export const MANIFEST_FILE = 'manifest.json';
export const FORMAT_VERSION = 1;

/** A file of the snapshot, with what is needed to verify it. */
export interface FileEntry {
  path: string; // relative to the store folder, always '/'-separated
  rows: number;
  bytes: number;
  sha256: string;
}

/** A reservoir partition (one dataset, one year); rows sorted by name then date. */
export interface ReservoirPartition extends FileEntry {
  year: number;
  start: string; // first date held
  end: string; // last date held
  runs: { names: number[]; starts: number[] }; // names: ascending indices into reservoirs.names; run i spans starts[i]..starts[i+1]
}

/** A station partition: one station, every date it has, sorted by date. */
export interface StationPartition extends FileEntry {
  variables: string[];
  start: string;
  end: string;
  groupFirstDays: number[]; // epoch day of the first row of each row group, to find a date's group without reading
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
  for (const dataset of Object.values(manifest.datasets)) files.push(...dataset.partitions);
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

/** The row span [start, end) of a name in a partition, found by binary search on its sorted runs. */
export function findRun(partition: ReservoirPartition, nameIndex: number): { start: number; end: number } | undefined {
  const { names, starts } = partition.runs;
  let lo = 0;
  let hi = names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = names[mid]!;
    if (value === nameIndex) return { start: starts[mid]!, end: mid + 1 < starts.length ? starts[mid + 1]! : partition.rows };
    if (value < nameIndex) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** Code-unit order, the order names are sorted in everywhere (same as the public service's ASCII names). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
