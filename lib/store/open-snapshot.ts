// A snapshot opened for reading: what every query reads (the manifest, a reader of its files, partitions by year,
// names, metadata), built when a store opens, when it moves to a newer snapshot, and when it is asked as of a past one.
import { stationVariableNames } from '../catalogue.js';
import type { Manifest, ReservoirPartition } from './manifest.js';
import { lazyMetadata, type MetadataTable } from './metadata.js';
import { NameIndex } from './name-index.js';
import { nameLinesOf } from './names-file.js';
import type { PartitionReader } from './partitions.js';

/** What record building needs from an opened snapshot. */
export interface TimeseriesSource {
  manifest: Manifest;
  reader: PartitionReader;
  reservoirIndex: Pick<ReadonlyMap<string, number>, 'get'>; // name -> position in manifest.reservoirs.names
  codegen: boolean; // whether records may be built by generated code (lib/format/frame-records.ts)
  partitionsByYear: ReadonlyMap<string, ReadonlyMap<number, ReservoirPartition>>; // dataset -> year -> partition
}

/** An opened snapshot: what the queries (lib/query/) check names and variables against and read. */
export interface Snapshot extends TimeseriesSource {
  reservoirs: MetadataTable;
  stations: MetadataTable;
  reservoirNames: ReadonlySet<string>;
  reservoirCount: number; // how many reservoirs the snapshot lists, known without making the list of their names
  stationNames: ReadonlySet<string>;
  stationVariablesHeld: ReadonlyMap<string, readonly string[]>; // station -> variables it measures, catalogue order
  stationVariablesAll: readonly string[]; // what any station measures
}

/** Opens a snapshot for reading: its metadata files are read (decoded on first use), its indexes built. */
export async function openSnapshot(manifest: Manifest, reader: PartitionReader, codegen: boolean): Promise<Snapshot> {
  const stationVariablesHeld = new Map(
    Object.entries(manifest.stations.partitions).map(([n, p]) => [n, stationVariableNames.filter((v) => p.variables.includes(v))]),
  );
  const partitionsByYear = new Map<string, Map<number, ReservoirPartition>>();
  for (const [dataset, entry] of Object.entries(manifest.datasets)) {
    partitionsByYear.set(dataset, new Map(entry.partitions.map((p) => [p.year, p])));
  }
  // one index serves as the set of names and their positions; neither is built whole until many names are looked up
  const lines = nameLinesOf(manifest);
  const reservoirIndex = new NameIndex(manifest.reservoirs, lines);
  const [reservoirs, stations] = await Promise.all([readMetadataTable(manifest, reader, 'reservoirs'), readMetadataTable(manifest, reader, 'stations')]);
  return {
    manifest,
    reader,
    partitionsByYear,
    reservoirIndex,
    codegen,
    reservoirs,
    stations,
    reservoirNames: reservoirIndex,
    reservoirCount: lines?.count ?? manifest.reservoirs.names.length,
    stationNames: new NameIndex(manifest.stations),
    stationVariablesHeld,
    stationVariablesAll: heldBy(stationVariablesHeld, manifest.stations.names),
  };
}

/**
 * The metadata of reservoirs or stations of a snapshot, read whole; verified and decoded on first use (most answers
 * never look in it, and its checksum was a tenth of opening a store of 44,000 reservoirs).
 */
export async function readMetadataTable(manifest: Manifest, reader: PartitionReader, kind: 'reservoirs' | 'stations'): Promise<MetadataTable> {
  const entry = manifest[kind].metadata;
  const key = kind === 'reservoirs' ? 'RES_NAME' : 'STA_NAME';
  if (!entry) return lazyMetadata(null, key, '');
  const bytes = await reader.wholeFile(entry);
  return lazyMetadata(bytes, key, entry.path, () => reader.checkWhole(entry, bytes));
}

/** The variables any of the named stations measures, in catalogue order. */
export function heldBy(held: ReadonlyMap<string, readonly string[]>, names: readonly string[]): readonly string[] {
  if (names.length === 1) return held.get(names[0]!) ?? [];
  const union = new Set(names.flatMap((n) => held.get(n) ?? []));
  return stationVariableNames.filter((v) => union.has(v));
}
