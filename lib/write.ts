// The store writer: new partition files first, then the manifest, atomically. Old files are never changed,
// so readers of the previous snapshot keep working and a crash at any point leaves that snapshot whole.
import { randomBytes } from 'node:crypto';
import { DateDay, Table, Utf8, makeVector, vectorFromArray, type Vector } from 'apache-arrow';
import { findReservoirVariable, findStationVariable, reservoirDatasets, type DatasetName } from './catalogue.js';
import { formatDay, yearOfDay } from './dates.js';
import { readCurrentManifest } from './history.js';
import { createExclusive, ownerStamp, removeStoreFile, replaceAtomically, sha256, storeFileExists, storePath, withLock, writeDurable } from './disk.js';
import { InvalidParameterError, StoreError } from './errors.js';
import {
  MANIFEST_FILE,
  emptyManifest,
  encodePathName,
  compareText,
  snapshotPath,
  type FileEntry,
  type Manifest,
  type ReservoirPartition,
  type StationPartition,
} from './manifest.js';
import { encodeParquet } from './parquet.js';
import { floatVector, metadataTable } from './tables.js';

/** Where writers leave a `<snapshot>.pid` marker while they write, so a vacuum never takes their files. */
export const WRITING_FOLDER = 'writing';

/** One dataset-year of reservoir rows, sorted by name then date; values metric, NaN for gaps. */
export interface ReservoirRows {
  names: readonly string[];
  days: Int32Array;
  values: Record<string, Float64Array>;
}

/** One station's rows, sorted by date; values metric, NaN for gaps. */
export interface StationRows {
  days: Int32Array;
  values: Record<string, Float64Array>;
}

/** One metadata row: attribute name to value. */
export type MetadataRow = Record<string, string | number | null>;

export interface StoreWriterOptions {
  base?: Manifest; // the snapshot to build on: what is not rewritten is carried over unchanged
  rowGroupSize?: number; // rows per Parquet row group (default 1024)
  overwrite?: boolean; // publish even if the store holds a snapshot other than `base` (a generator starting afresh)
}

/** Starts a new snapshot of the store in `root`; nothing is visible to readers before commit(). */
export function createStoreWriter(root: string, options: StoreWriterOptions = {}): StoreWriter {
  return new StoreWriter(root, options);
}

export class StoreWriter {
  readonly snapshot = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  private readonly manifest: Manifest;
  private readonly reservoirRuns = new Map<ReservoirPartition, string[]>(); // run names, indexed at commit
  private readonly baseSnapshot: string | undefined;
  private readonly written: string[] = []; // files of this snapshot, checked before it is published

  constructor(
    private readonly root: string,
    private readonly options: StoreWriterOptions,
  ) {
    const base = options.base;
    this.baseSnapshot = base?.snapshot;
    this.manifest = base ? structuredClone(base) : emptyManifest('', options.rowGroupSize ?? 1024);
    this.manifest.snapshot = this.snapshot;
    for (const dataset of Object.values(this.manifest.datasets)) {
      for (const p of dataset.partitions) this.reservoirRuns.set(p, p.runs.names.map((i) => this.manifest.reservoirs.names[i]!));
    }
  }

  /** The snapshot being built (a copy: callers cannot change what commit() writes). */
  get current(): Manifest {
    return structuredClone(this.manifest);
  }

  /** Writes (or replaces) the partition of one dataset and year. */
  async writeReservoirPartition(dataset: DatasetName, year: number, rows: ReservoirRows): Promise<void> {
    const catalogued = Object.keys(reservoirDatasets[dataset]?.variables ?? {});
    if (catalogued.length === 0) throw new InvalidParameterError('dataset', `unknown dataset ${dataset}`);
    checkReservoirRows(dataset, year, rows);
    const variables = catalogued.filter((v) => v in rows.values);
    const columns: Record<string, Vector> = {
      RES_NAME: vectorFromArray(rows.names as string[], new Utf8()),
      date: makeVector({ type: new DateDay(), data: rows.days }),
    };
    for (const v of variables) columns[v] = floatVector(rows.values[v]!);
    const path = storePath('reservoirs', `dataset=${dataset}`, `year=${year}`, `part-${this.snapshot}.parquet`);
    const file = await this.writeTable(path, new Table(columns));
    const runNames: string[] = [];
    const starts: number[] = [];
    rows.names.forEach((name, i) => {
      if (i === 0 || rows.names[i - 1] !== name) {
        runNames.push(name);
        starts.push(i);
      }
    });
    const partition: ReservoirPartition = {
      ...file,
      year,
      start: rows.days.length ? formatDay(rows.days.reduce((a, b) => Math.min(a, b))) : '',
      end: rows.days.length ? formatDay(rows.days.reduce((a, b) => Math.max(a, b))) : '',
      runs: { names: [], starts },
    };
    const entry = (this.manifest.datasets[dataset] ??= { variables: [], partitions: [] });
    for (const old of entry.partitions.filter((p) => p.year === year)) this.reservoirRuns.delete(old);
    entry.partitions = [...entry.partitions.filter((p) => p.year !== year), partition].sort((a, b) => a.year - b.year);
    entry.variables = catalogued.filter((v) => entry.variables.includes(v) || variables.includes(v));
    this.reservoirRuns.set(partition, runNames);
  }

  /** Writes (or replaces) all rows of one station. */
  async writeStationPartition(name: string, rows: StationRows): Promise<void> {
    const variables = Object.keys(rows.values);
    for (const v of variables) {
      if (!findStationVariable(v)) throw new InvalidParameterError('variables', `unknown station variable ${v} for ${name}`);
    }
    checkAscending(rows.days, `station ${name}`);
    checkLengths(rows.days.length, rows.values, `station ${name}`);
    const columns: Record<string, Vector> = { date: makeVector({ type: new DateDay(), data: rows.days }) };
    for (const v of variables) columns[v] = floatVector(rows.values[v]!);
    const path = storePath('stations', `station=${encodePathName(name)}`, `part-${this.snapshot}.parquet`);
    const file = await this.writeTable(path, new Table(columns));
    const groupFirstDays: number[] = [];
    for (let row = 0; row < rows.days.length; row += this.manifest.rowGroupSize) groupFirstDays.push(rows.days[row]!);
    const partition: StationPartition = {
      ...file,
      groupFirstDays,
      variables,
      start: rows.days.length ? formatDay(rows.days[0]!) : '',
      end: rows.days.length ? formatDay(rows.days[rows.days.length - 1]!) : '',
    };
    this.manifest.stations.partitions[name] = partition;
  }

  /** Writes the reservoir metadata table; its RES_NAME column becomes the store's list of reservoirs. */
  async writeReservoirMetadata(rows: readonly MetadataRow[]): Promise<void> {
    const names = checkMetadata(rows, 'RES_NAME');
    const path = storePath('reservoirs', 'metadata', `part-${this.snapshot}.parquet`);
    this.manifest.reservoirs = { names, metadata: await this.writeTable(path, metadataTable(rows, 'RES_NAME')) };
  }

  /** Writes the station metadata table; its STA_NAME column becomes the store's list of stations. */
  async writeStationMetadata(rows: readonly MetadataRow[]): Promise<void> {
    const names = checkMetadata(rows, 'STA_NAME');
    const path = storePath('stations', 'metadata', `part-${this.snapshot}.parquet`);
    this.manifest.stations.names = names;
    this.manifest.stations.metadata = await this.writeTable(path, metadataTable(rows, 'STA_NAME'));
  }

  /**
   * Publishes the snapshot: the manifest replaces the old one in one atomic rename. Under the store's lock, it first
   * checks that the store still serves the snapshot this write began from, so two writers never silently lose work.
   */
  async commit(): Promise<Manifest> {
    try {
      return await withLock(this.root, `${MANIFEST_FILE}.lock`, async () => {
        const current = await readCurrentManifest(this.root);
        const serving = current?.snapshot;
        this.manifest.sequence = (current?.sequence ?? 0) + 1;
        if (serving !== this.baseSnapshot && !this.options.overwrite) {
          throw new StoreError(
            `the store changed while this write was under way: it serves snapshot ${serving}, this write began from ${this.baseSnapshot ?? 'no snapshot'}; nothing was published, run it again`,
          );
        }
        for (const path of this.written) {
          if (!(await storeFileExists(this.root, path))) throw new StoreError(`${path}, written by this snapshot, has disappeared; nothing was published`);
        }
        return this.publish();
      });
    } finally {
      await removeStoreFile(this.root, this.marker); // published or abandoned: its files are now the manifest's or garbage
    }
  }

  /** The marker that tells `vacuumStore` this writer's files are not garbage while its process lives. */
  private get marker(): string {
    return storePath(WRITING_FOLDER, `${this.snapshot}.pid`);
  }

  private async publish(): Promise<Manifest> {
    const index = new Map(this.manifest.reservoirs.names.map((n, i) => [n, i]));
    for (const [dataset, entry] of Object.entries(this.manifest.datasets)) {
      for (const p of entry.partitions) {
        p.runs.names = this.reservoirRuns.get(p)!.map((name) => {
          const i = index.get(name);
          if (i === undefined) throw new InvalidParameterError('RES_NAMES', `reservoir ${name} in ${dataset} ${p.year} has no metadata row`);
          return i;
        });
      }
    }
    for (const name of Object.keys(this.manifest.stations.partitions)) {
      if (!this.manifest.stations.names.includes(name)) throw new InvalidParameterError('STA_NAMES', `station ${name} has no metadata row`);
    }
    this.manifest.created = new Date().toISOString();
    const text = `${JSON.stringify(this.manifest)}\n`;
    // the commit point: only one writer can create a sequence number's file, even if the lock were broken
    if (!(await createExclusive(this.root, snapshotPath(this.manifest.sequence), text))) {
      throw new StoreError(`another writer published snapshot number ${this.manifest.sequence} first; nothing was published, run it again`);
    }
    await replaceAtomically(this.root, MANIFEST_FILE, text);
    return this.current;
  }

  private async writeTable(path: string, table: Table): Promise<FileEntry> {
    const bytes = encodeParquet(table, this.manifest.rowGroupSize);
    if (this.written.length === 0) await writeDurable(this.root, this.marker, ownerStamp());
    this.written.push(path);
    await writeDurable(this.root, path, bytes);
    return { path, rows: table.numRows, bytes: bytes.byteLength, sha256: sha256(bytes) };
  }
}

function checkMetadata(rows: readonly MetadataRow[], key: string): string[] {
  // an own `__proto__` key (JSON.parse makes one) would turn into a prototype in any plain object built from the row
  if (rows.some((r) => Object.hasOwn(r, '__proto__'))) throw new InvalidParameterError(key, 'a metadata attribute may not be named __proto__');
  const names = rows.map((r, i) => {
    const name = r[key];
    if (typeof name !== 'string' || name.trim() === '') throw new InvalidParameterError(key, `metadata row ${i + 1} has no ${key}`);
    return name;
  });
  const unique = new Set(names);
  if (unique.size !== names.length) throw new InvalidParameterError(key, `metadata lists a ${key} twice`);
  return [...unique].sort(compareText);
}

function checkReservoirRows(dataset: string, year: number, rows: ReservoirRows): void {
  const where = `${dataset} ${year}`;
  if (rows.names.length !== rows.days.length) throw new InvalidParameterError('rows', `${where}: ${rows.names.length} names for ${rows.days.length} dates`);
  checkLengths(rows.days.length, rows.values, where);
  for (const v of Object.keys(rows.values)) {
    if (findReservoirVariable(v)?.dataset !== dataset) throw new InvalidParameterError('variables', `${where}: variable ${v} is not in dataset ${dataset}`);
  }
  for (let i = 0; i < rows.days.length; i++) {
    if (yearOfDay(rows.days[i]!) !== year) throw new InvalidParameterError('date', `${where}: row ${i} dated ${formatDay(rows.days[i]!)} is outside ${year}`);
    if (i === 0) continue;
    const order = compareText(rows.names[i - 1]!, rows.names[i]!);
    if (order > 0 || (order === 0 && rows.days[i - 1]! >= rows.days[i]!)) {
      throw new InvalidParameterError('rows', `${where}: rows must be sorted by name then date, unique; row ${i} (${rows.names[i]} ${formatDay(rows.days[i]!)}) is out of order`);
    }
  }
}

function checkAscending(days: Int32Array, where: string): void {
  for (let i = 1; i < days.length; i++) {
    if (days[i - 1]! >= days[i]!) throw new InvalidParameterError('rows', `${where}: dates must ascend without repeats; ${formatDay(days[i]!)} at row ${i}`);
  }
}

function checkLengths(rows: number, values: Record<string, Float64Array>, where: string): void {
  for (const [v, column] of Object.entries(values)) {
    if (column.length !== rows) throw new InvalidParameterError('rows', `${where}: column ${v} has ${column.length} values for ${rows} rows`);
  }
}
