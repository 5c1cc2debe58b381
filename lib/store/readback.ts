// What a writer reads back of the snapshot it builds on: whole files as the rows the writer takes (what an ingest
// merges its new rows into) and the metadata rows. It reads the store's files directly, not through the public Store.
import { reservoirDayAttributes, stationDayAttributes } from '../flags.js';
import { compareText } from '../order.js';
import type { MetadataRow } from '../types.js';
import { readCurrentManifest } from './history.js';
import { takeLease } from './lease.js';
import type { DataFile, Manifest, ReservoirFile } from './manifest.js';
import { readMetadataTable } from './open-snapshot.js';
import { createReaderCaches, PartitionReader } from './partitions.js';
import type { ReservoirRows, StationRows } from './rows.js';
import type { Storage } from './storage.js';

/** A snapshot's manifest and a reader of its files: all that reading rows back needs. */
export interface SnapshotFiles {
  manifest: Manifest;
  reader: PartitionReader;
}

/** The snapshot a writer builds on, held for reading back until closed. */
export interface Readback extends SnapshotFiles {
  close(): Promise<void>; // gives up the lease, so a later vacuum may retire the snapshot's files
}

// each column chunk is read back once: only footers are worth keeping (every chunk of a file needs its footer)
const FOOTER_CACHE_BYTES = 16 * 2 ** 20;

/** The store's current snapshot, leased so that vacuum keeps its files while they are read back; undefined when there is no store. */
export async function openReadback(storage: Storage): Promise<Readback | undefined> {
  const manifest = await readCurrentManifest(storage);
  if (manifest === undefined) return undefined;
  const release = await takeLease(storage, manifest.sequence);
  const reader = new PartitionReader(storage, createReaderCaches(0, FOOTER_CACHE_BYTES));
  return {
    manifest,
    reader,
    async close() {
      await release();
      await storage.close?.();
    },
  };
}

/** Every row of one dataset-year, as the writer takes them (sorted by name then date); undefined if absent. */
export async function readReservoirPartition(snapshot: SnapshotFiles, dataset: string, year: number): Promise<ReservoirRows | undefined> {
  const partition = snapshot.manifest.datasets[dataset]?.partitions.find((p) => p.year === year);
  return partition && readReservoirFiles(snapshot, dataset, partition.files);
}

/** Every row of some files of one dataset, as the writer takes them (sorted by name then date). */
export async function readReservoirFiles(snapshot: SnapshotFiles, dataset: string, files: readonly ReservoirFile[]): Promise<ReservoirRows> {
  const variables = [...(snapshot.manifest.datasets[dataset]?.variables ?? []), ...reservoirDayAttributes]; // the day flags travel with the rows
  const parts = await Promise.all(files.map((f) => readFileRows(snapshot, f, 'RES_NAME', variables)));
  return sortRows(concatRows(parts, variables));
}

/** Every row of one station, as the writer takes them; undefined if the station has no data. */
export async function readStationPartition(snapshot: SnapshotFiles, name: string): Promise<StationRows | undefined> {
  const partition = snapshot.manifest.stations.partitions[name];
  if (!partition) return undefined;
  const { days, values } = await readFileRows(snapshot, partition, undefined, [...partition.variables, ...stationDayAttributes]);
  return { days, values };
}

/** Metadata rows of every reservoir or station, as the writer takes them. */
export async function readMetadataRows(snapshot: SnapshotFiles, kind: 'reservoirs' | 'stations'): Promise<MetadataRow[]> {
  return [...(await readMetadataTable(snapshot.manifest, snapshot.reader, kind)).byName.values()];
}

/** Rows of a file, every row group: names (when it has a name column), days, and the given value columns (NaN where absent). */
export async function readFileRows(
  { reader }: SnapshotFiles,
  file: DataFile,
  nameColumn: 'RES_NAME' | undefined,
  variables: readonly string[],
): Promise<{ names: string[]; days: Int32Array; values: Record<string, Float64Array> }> {
  const footer = await reader.layout(file);
  const names: string[] = [];
  const days = new Int32Array(file.rows);
  const values = Object.fromEntries(variables.map((v) => [v, new Float64Array(file.rows).fill(NaN)]));
  for (let g = 0; g < footer.ranges.length; g++) {
    const at = footer.groupStarts[g]!;
    days.set((await reader.column(file, g, 'date')) as Int32Array, at);
    if (nameColumn) names.push(...((await reader.column(file, g, nameColumn)) as readonly string[]));
    for (const v of variables) {
      const column = (await reader.column(file, g, v)) as Float64Array | undefined;
      if (column) values[v]!.set(column, at);
    }
  }
  return { names, days, values };
}

/** Rows of several files as one set of columns, in the order given. */
export function concatRows(parts: readonly ReservoirRows[], variables: readonly string[]): ReservoirRows {
  const total = parts.reduce((n, p) => n + p.days.length, 0);
  const days = new Int32Array(total);
  const values = Object.fromEntries(variables.map((v) => [v, new Float64Array(total)]));
  const names: string[] = [];
  let at = 0;
  for (const p of parts) {
    days.set(p.days, at);
    for (const v of variables) values[v]!.set(p.values[v]!, at);
    for (const n of p.names) names.push(n);
    at += p.days.length;
  }
  return { names, days, values };
}

/** Rows sorted by name then date (files of several periods hold the same names). */
export function sortRows(rows: ReservoirRows): ReservoirRows {
  const order = Array.from(rows.days, (_, i) => i);
  order.sort((a, b) => compareText(rows.names[a]!, rows.names[b]!) || rows.days[a]! - rows.days[b]!);
  if (order.every((i, k) => i === k)) return rows;
  return {
    names: order.map((i) => rows.names[i]!),
    days: Int32Array.from(order, (i) => rows.days[i]!),
    values: Object.fromEntries(Object.entries(rows.values).map(([v, c]) => [v, Float64Array.from(order, (i) => c[i]!)])),
  };
}
