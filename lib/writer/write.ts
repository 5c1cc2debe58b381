// The store writer: new partition files first, then the manifest, atomically. Old files are never changed,
// so readers of the previous snapshot keep working and a crash at any point leaves that snapshot whole.
import { randomBytes } from 'node:crypto';
import { DateDay, makeVector, Table, type Vector } from 'apache-arrow';
import { type DatasetName, findReservoirVariable, findStationVariable, reservoirDatasets, stationVariableNames } from '../catalogue.js';
import { firstDayOfYear, formatDay, yearOfDay } from '../dates.js';
import { InvalidParameterError, StoreError, WriterMisuseError } from '../errors.js';
import { type FlagColumn, flagColumns, reservoirDayAttributes, stationDayAttributes } from '../flags.js';
import { compareText } from '../order.js';
import type { StoreAbout } from '../store/about.js';
import {
  BY_DATE_DAYS,
  BY_DATE_FOLDER,
  copyMonths,
  filesOfMonth,
  readMonthByDate,
  readStationMonthsByDate,
  stationCopyMonths,
  stationsOfMonth,
} from '../store/by-date.js';
import { sha256, storePath } from '../store/disk.js';
import { fileIndexText, indexPath } from '../store/file-index.js';
import { publishSnapshot, readManifestFile } from '../store/history.js';
import { openStorage } from '../store/location.js';
import {
  type ByDateFile,
  type DataFile,
  emptyManifest,
  encodePathName,
  type FileEntry,
  type ForecastMonth,
  MANIFEST_FILE,
  type Manifest,
  overlapsExtent,
  type ReservoirPartition,
} from '../store/manifest.js';
import { type FileLayout, parseFooter } from '../store/parquet.js';
import { encodeParquet } from '../store/parquet-encode.js';
import { encodeParquetStream, type StreamedParquet } from '../store/parquet-stream.js';
import { createReaderCaches, PartitionReader } from '../store/partitions.js';
import { readFileRows, type SnapshotFiles } from '../store/readback.js';
import type { ReservoirRows, StationRows } from '../store/rows.js';
import type { Storage } from '../store/storage.js';
import { datasetFields, fieldIdsOf, metadataFieldIds, stationFields } from '../tables/fields.js';
import { type PublishSummary, publishTablesLocked } from '../tables/publish.js';
import type { MetadataRow } from '../types.js';
import { flagVector, floatVector, metadataColumnTypes, metadataTable, utf8Vector, withFieldIds } from './vectors.js';

const isFlagColumn = (name: string): boolean => Object.hasOwn(flagColumns, name);

/** Where writers leave a `<snapshot>.pid` marker while they write, so a vacuum never takes their files. */
export const WRITING_FOLDER = 'writing';

export type { ReservoirRows, StationRows } from '../store/rows.js';

export interface StoreWriterOptions {
  base?: Manifest; // the snapshot to build on: what is not rewritten is carried over unchanged
  rowGroupSize?: number; // rows per Parquet row group (default 8192)
  rowsPerFile?: number; // bound on the rows of one reservoir file (default ROWS_PER_FILE)
  overwrite?: boolean; // publish even if the store holds a snapshot other than `base` (a generator starting afresh)
  byDateDays?: number; // days of each dataset's date-major copy, kept as the store's setting (default: the base's, else BY_DATE_DAYS; 0: none)
}

/**
 * Rows of one reservoir data file at most: about 6 MB of zstd Parquet, 32 row groups of 8192 rows. Small enough that a
 * revision rewrites little more than what it revises and a file's footer is read in a few milliseconds; large enough that
 * a store of 44,000 water bodies x 46 years stays near 13,000 files (the manifest lists every file).
 */
export const ROWS_PER_FILE = 262_144;

/** Starts a new snapshot of the store at `location` (a folder or s3:// URL); nothing is visible to readers before commit(). */
export function createStoreWriter(location: string | Storage, options: StoreWriterOptions = {}): StoreWriter {
  return new StoreWriter(openStorage(location), options);
}

export class StoreWriter {
  readonly snapshot = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  private readonly manifest: Manifest;
  private readonly baseSnapshot: string | undefined;
  private readonly written: string[] = []; // files of this snapshot, checked before it is published
  private readonly rowsPerFile: number;
  private readonly byDateDays: number;
  private fileCount = 0;
  private knownNames: Set<string> | undefined;
  private releaseMarker: (() => Promise<void>) | undefined;
  /** After commit(): what publishing the Iceberg tables did, or why it failed (the commit stands; the next one catches up). */
  tables: PublishSummary | Error | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly options: StoreWriterOptions,
  ) {
    const base = options.base;
    this.baseSnapshot = base?.snapshot;
    this.manifest = base ? structuredClone(base) : emptyManifest('', options.rowGroupSize ?? 8192);
    this.manifest.snapshot = this.snapshot;
    this.rowsPerFile = options.rowsPerFile ?? ROWS_PER_FILE;
    // the store's own setting, kept in its manifest, unless this commit sets another
    this.byDateDays = options.byDateDays ?? base?.byDateDays ?? BY_DATE_DAYS;
    if (options.byDateDays !== undefined) this.manifest.byDateDays = options.byDateDays;
  }

  /** The snapshot being built (a copy: callers cannot change what commit() writes). */
  get current(): Manifest {
    return structuredClone(this.manifest);
  }

  /** Sets the store's provenance and citation, which later snapshots carry on unless they set it again. */
  setAbout(about: StoreAbout): void {
    this.manifest.about = { ...about };
  }

  /** Writes (or replaces) every row of one dataset and year. */
  async writeReservoirPartition(dataset: DatasetName, year: number, rows: ReservoirRows): Promise<void> {
    const held = this.manifest.datasets[dataset]?.partitions.find((p) => p.year === year);
    this.removeReservoirFiles(dataset, year, held?.files.map((f) => f.path) ?? []);
    await this.addReservoirRows(dataset, year, rows);
  }

  /**
   * Adds rows of one dataset and year as new files: a month per file when the store has so many names that a year
   * would exceed `rowsPerFile`, else the year; names split into chunks of at most `rowsPerFile` rows. The rows may
   * not fall where a file of the snapshot already holds rows (remove those files first).
   */
  async addReservoirRows(dataset: DatasetName, year: number, rows: ReservoirRows): Promise<void> {
    const catalogued = Object.keys(reservoirDatasets[dataset]?.variables ?? {});
    if (catalogued.length === 0) throw new WriterMisuseError(`unknown dataset ${dataset}`);
    checkReservoirRows(dataset, year, rows);
    if (rows.days.length === 0) return;
    this.checkNames(rows.names, `${dataset} ${year}`);
    const variables = catalogued.filter((v) => v in rows.values);
    const flags = reservoirDayAttributes.filter((f) => f in rows.values);
    const entry = (this.manifest.datasets[dataset] ??= { variables: [], partitions: [] });
    let partition = entry.partitions.find((p) => p.year === year);
    if (!partition) {
      entry.partitions = [...entry.partitions, (partition = { year, start: '', end: '', files: [] })].sort((a, b) => a.year - b.year);
    }
    const monthly = this.manifest.reservoirs.names.length * 366 > this.rowsPerFile;
    for (const piece of splitRows(rows, monthly ? monthStarts(year) : [firstDayOfYear(year)], this.rowsPerFile)) {
      const first = rows.names[piece[0]!]!;
      const last = rows.names[piece[piece.length - 1]!]!;
      const days =
        piece[piece.length - 1]! - piece[0]! === piece.length - 1
          ? rows.days.slice(piece[0]!, piece[0]! + piece.length)
          : gather(rows.days, piece, new Int32Array(piece.length));
      const extent = { first, last, start: formatDay(minOf(days)), end: formatDay(maxOf(days)) }; // days ascend per name, not overall
      const clash = partition.files.find((f) => overlapsExtent(f, extent));
      if (clash) throw new WriterMisuseError(`${dataset} ${year}: rows ${first}..${last} overlap ${clash.path}; remove it first`);
      const path = storePath('reservoirs', `dataset=${dataset}`, `year=${year}`, `part-${this.snapshot}-${String(this.fileCount++).padStart(5, '0')}.parquet`);
      const table = reservoirTable(dataset, rows, piece, days, variables, flags);
      partition.files.push({ ...(await this.writeTable(path, table, days)), first, last });
    }
    sortFiles(partition);
    entry.variables = catalogued.filter((v) => entry.variables.includes(v) || variables.includes(v));
  }

  /**
   * The snapshot as built, for another writer of the same store to adopt its files (a generator's workers,
   * lib/synthetic/generate.ts): this writer never commits, and its marker stays until the adopting writer's commit ends,
   * so a vacuum never takes the files in between.
   */
  handOver(): { manifest: Manifest; marker: string } {
    return { manifest: this.current, marker: this.marker };
  }

  /**
   * Names in this snapshot the reservoir files of a writer handed over (handOver), as its snapshot held them; they
   * must not overlap the files held. Its marker is removed when this writer's commit ends.
   */
  adoptReservoirFiles(handed: { manifest: Manifest; marker: string }): void {
    for (const [dataset, from] of Object.entries(handed.manifest.datasets)) {
      const entry = (this.manifest.datasets[dataset] ??= { variables: [], partitions: [] });
      for (const p of from.partitions) {
        let partition = entry.partitions.find((q) => q.year === p.year);
        if (!partition) entry.partitions = [...entry.partitions, (partition = { year: p.year, start: '', end: '', files: [] })].sort((a, b) => a.year - b.year);
        for (const file of p.files) {
          const clash = partition.files.find((f) => overlapsExtent(f, file));
          if (clash) throw new WriterMisuseError(`${dataset} ${p.year}: rows ${file.first}..${file.last} of ${file.path} overlap ${clash.path}`);
          partition.files.push(file);
          this.written.push(file.path, ...(file.index ? [file.index.path] : []));
        }
        sortFiles(partition);
      }
      const catalogued = Object.keys(reservoirDatasets[dataset as DatasetName]?.variables ?? {});
      entry.variables = catalogued.filter((v) => entry.variables.includes(v) || from.variables.includes(v));
    }
    this.adopted.push(handed.marker);
  }

  private readonly adopted: string[] = []; // markers of the writers whose files this one adopted

  /** Writes a data file of the forecasts (laid out by lib/forecast/files.ts), to be named by setForecasts. */
  writeForecastFile(path: string, table: Table, days: Int32Array, rowGroupSize: number): Promise<DataFile> {
    // its layout beside it: a footer of hundreds of small row groups takes longer to parse than the chunks a query reads
    return this.writeTable(path, table, days, rowGroupSize, true);
  }

  /**
   * Writes a data file of the forecasts a row group at a time (lib/store/parquet-stream.ts), from batches of exactly
   * `rowGroupSize` rows (the last the rest), all of the issue day `day`: its memory is a row group's, not the file's.
   */
  async writeForecastStream(
    path: string,
    batches: AsyncIterable<Table>,
    plan: { rows: number; rowGroupSize: number; columns: number },
    day: number,
  ): Promise<DataFile> {
    this.releaseMarker ??= await this.storage.mark(this.marker);
    this.written.push(path);
    const done: Partial<StreamedParquet> = {};
    await this.storage.write(path, encodeParquetStream(batches, plan, done));
    const { bytes, sha256: sum, rest, footer, footerLength } = done as StreamedParquet;
    const tail = rest.subarray(rest.byteLength - footerLength); // the footer, its length and the magic
    return {
      path,
      rows: plan.rows,
      bytes,
      sha256: sum,
      footerBytes: tail.byteLength,
      footerSha256: sha256(tail),
      start: formatDay(day),
      end: formatDay(day),
      index: await this.writeIndex(path, footer),
    };
  }

  /** The snapshot's forecasts: every issue-month and its files (lib/forecast/files.ts). */
  setForecasts(months: readonly ForecastMonth[]): void {
    if (months.length === 0) delete this.manifest.forecasts;
    else this.manifest.forecasts = structuredClone([...months]);
  }

  /** Drops files from a dataset-year of the snapshot (their rows are no longer served; the files stay for older snapshots). */
  removeReservoirFiles(dataset: DatasetName, year: number, paths: readonly string[]): void {
    const entry = this.manifest.datasets[dataset];
    const partition = entry?.partitions.find((p) => p.year === year);
    if (!entry || !partition) return;
    const gone = new Set(paths);
    partition.files = partition.files.filter((f) => !gone.has(f.path));
    if (partition.files.length === 0) entry.partitions = entry.partitions.filter((p) => p !== partition);
    else sortFiles(partition);
  }

  /** Writes (or replaces) all rows of one station. */
  async writeStationPartition(name: string, rows: StationRows): Promise<void> {
    const variables = Object.keys(rows.values).filter((v) => !isFlagColumn(v));
    const flags = stationDayAttributes.filter((f) => f in rows.values);
    if ('qflag' in rows.values) throw new WriterMisuseError(`station ${name}: qflag is a station's metadata attribute, not a column of its days`);
    for (const v of variables) {
      if (!findStationVariable(v)) throw new WriterMisuseError(`unknown station variable ${v} for ${name}`);
    }
    checkAscending(rows.days, `station ${name}`);
    checkLengths(rows.days.length, rows.values, `station ${name}`);
    // STA_NAME for engines: the library knows it from the path
    const table = stationTable(
      Array.from(rows.days, () => name),
      rows.days,
      rows.values,
      variables,
      flags,
    );
    const path = storePath('stations', `station=${encodePathName(name)}`, `part-${this.snapshot}.parquet`);
    const ids = fieldIdsOf(stationFields(), table.schema.names as string[]);
    this.manifest.stations.partitions[name] = { ...(await this.writeTable(path, withFieldIds(table, ids), rows.days)), variables };
  }

  /** Writes the reservoir metadata table; its RES_NAME column becomes the store's list of reservoirs. */
  async writeReservoirMetadata(rows: readonly MetadataRow[]): Promise<void> {
    const names = checkMetadata(rows, 'RES_NAME');
    const path = storePath('reservoirs', 'metadata', `part-${this.snapshot}.parquet`);
    this.manifest.reservoirs = { names, metadata: await this.writeTable(path, metadataWithIds(rows, 'RES_NAME')) };
    this.knownNames = undefined;
  }

  /** Writes the station metadata table; its STA_NAME column becomes the store's list of stations. */
  async writeStationMetadata(rows: readonly MetadataRow[]): Promise<void> {
    const names = checkMetadata(rows, 'STA_NAME');
    const path = storePath('stations', 'metadata', `part-${this.snapshot}.parquet`);
    this.manifest.stations.names = names;
    this.manifest.stations.metadata = await this.writeTable(path, metadataWithIds(rows, 'STA_NAME'));
  }

  /**
   * Publishes the snapshot: the exclusive creation of its numbered snapshot file, then manifest.json replaced by it.
   * Under the store's lock, it first checks that the store still serves the snapshot this write began from, so two
   * writers never silently lose work; a refused commit publishes nothing and leaves its files for vacuum.
   */
  async commit(): Promise<Manifest> {
    try {
      await this.checkWritten(); // before the copies read them: a file gone is said as such (checked again under the lock)
      await this.refreshByDateCopies(); // before the lock: it reads and writes files, as the partitions' writing did
      return await this.storage.withLock(`${MANIFEST_FILE}.lock`, async () => {
        const found = await readManifestFile(this.storage);
        const current = found?.manifest;
        const serving = current?.snapshot;
        this.manifest.sequence = (current?.sequence ?? 0) + 1;
        if (serving !== this.baseSnapshot && !this.options.overwrite) {
          throw new StoreError(
            `the store changed while this write was under way: it serves snapshot ${serving}, this write began from ${this.baseSnapshot ?? 'no snapshot'}; nothing was published, run it again`,
          );
        }
        await this.checkWritten();
        return this.publish(found?.tag);
      });
    } finally {
      await this.releaseMarker?.(); // published or abandoned: its files are now the manifest's or garbage
      this.releaseMarker = undefined;
      for (const marker of this.adopted.splice(0)) await this.storage.remove(marker);
    }
  }

  /**
   * The date-major copy of each dataset (by-date.ts), a month a file over its last `byDateDays` days: a month whose
   * partition files this snapshot kept, or whose rows in the files it rewrote are the same, keeps its file; one whose
   * rows changed, or new to the span, is made again from the snapshot's own files; a month out of the span is dropped.
   */
  private async refreshByDateCopies(): Promise<void> {
    const base = this.options.base;
    for (const [dataset, entry] of Object.entries(this.manifest.datasets)) {
      const before = base?.datasets[dataset]?.byDate ?? [];
      const copies: ByDateFile[] = [];
      for (const month of copyMonths(this.manifest, dataset, this.byDateDays)) {
        const kept = before.find((f) => f.month === month);
        if (kept && samePaths(filesOfMonth(base!, dataset, month), filesOfMonth(this.manifest, dataset, month))) {
          copies.push(kept);
          continue;
        }
        const rows = await readMonthByDate(this.snapshotFiles, dataset, month);
        if (!rows) continue;
        // files rewritten, the month's rows the same (a year a file: a revision of the last weeks rewrites the year)
        if (kept && (await sameRows(this.snapshotFiles, kept, rows))) {
          copies.push(kept);
          continue;
        }
        const variables = entry.variables.filter((v) => v in rows.values);
        const flags = reservoirDayAttributes.filter((f) => f in rows.values);
        const path = storePath('reservoirs', BY_DATE_FOLDER, `dataset=${dataset}`, `month=${month}`, `part-${this.snapshot}.parquet`);
        const table = reservoirTable(
          dataset as DatasetName,
          rows,
          Array.from(rows.days, (_, i) => i),
          rows.days,
          variables,
          flags,
        );
        copies.push({ ...(await this.writeTable(path, table, rows.days)), ...nameRange(rows.names), month });
      }
      if (copies.length > 0) entry.byDate = copies;
      else delete entry.byDate;
    }
    await this.refreshStationCopy();
  }

  /** The stations' date-major copy, a month a file, kept or made again as a dataset's (refreshByDateCopies). */
  private async refreshStationCopy(): Promise<void> {
    const stations = this.manifest.stations;
    const base = this.options.base;
    const filesOf = (m: Manifest, month: string) => stationsOfMonth(m, month).map(([, p]) => p);
    const months = stationCopyMonths(this.manifest, this.byDateDays);
    const kept = new Map<string, ByDateFile>();
    for (const f of base?.stations.byDate ?? [])
      if (f.month !== undefined && samePaths(filesOf(base!, f.month), filesOf(this.manifest, f.month))) kept.set(f.month, f);
    const remade = months.filter((month) => !kept.has(month));
    const rows = remade.length > 0 ? await readStationMonthsByDate(this.snapshotFiles, remade) : new Map<string, ReservoirRows>();
    const copies: ByDateFile[] = [];
    for (const month of months) {
      const same = kept.get(month);
      if (same) {
        copies.push(same);
        continue;
      }
      const made = rows.get(month);
      if (!made) continue;
      const held = <T extends string>(names: readonly T[]) => names.filter((n) => n in made.values);
      const table = stationTable(made.names, made.days, made.values, held(stationVariableNames), held(stationDayAttributes));
      const path = storePath('stations', BY_DATE_FOLDER, `month=${month}`, `part-${this.snapshot}.parquet`);
      copies.push({ ...(await this.writeTable(path, table, made.days)), ...nameRange(made.names), month });
    }
    if (copies.length > 0) stations.byDate = copies;
    else delete stations.byDate;
  }

  private readback: SnapshotFiles | undefined;

  // this snapshot's files, read back through a reader of their own (the copies are made from them)
  private get snapshotFiles(): SnapshotFiles {
    this.readback ??= { manifest: this.manifest, reader: new PartitionReader(this.storage, createReaderCaches(0, 16 * 2 ** 20)) };
    return this.readback;
  }

  // every file this snapshot names and wrote must still be there (a vacuum judging its writer dead could have taken it)
  private async checkWritten(): Promise<void> {
    for (let i = 0; i < this.written.length; i += 16) {
      const batch = this.written.slice(i, i + 16);
      const found = await Promise.all(batch.map((path) => this.storage.exists(path)));
      const missing = batch.find((_, k) => !found[k]);
      if (missing) throw new StoreError(`${missing}, written by this snapshot, has disappeared; nothing was published`);
    }
  }

  /** The marker that tells `vacuumStore` this writer's files are not garbage while its process lives. */
  private get marker(): string {
    return storePath(WRITING_FOLDER, `${this.snapshot}.pid`);
  }

  private checkNames(names: readonly string[], where: string): void {
    this.knownNames ??= new Set(this.manifest.reservoirs.names);
    for (let i = 0; i < names.length; i++) {
      if (i > 0 && names[i] === names[i - 1]) continue;
      if (!this.knownNames.has(names[i]!)) throw new WriterMisuseError(`reservoir ${names[i]} in ${where} has no metadata row`);
    }
  }

  private async publish(manifestTag: string | undefined): Promise<Manifest> {
    for (const name of Object.keys(this.manifest.stations.partitions)) {
      if (!this.manifest.stations.names.includes(name)) throw new WriterMisuseError(`station ${name} has no metadata row`);
    }
    this.manifest.created = new Date().toISOString();
    await publishSnapshot(this.storage, this.manifest, manifestTag); // one writer only can take a sequence number, even if the lock were broken
    // the tables are derived from the snapshot just committed: a failure here loses nothing, the next publish catches up
    this.tables = await publishTablesLocked(this.storage).catch((error: Error) => error);
    return this.current;
  }

  private async writeTable(path: string, table: Table): Promise<FileEntry>;
  private async writeTable(path: string, table: Table, days: Int32Array, rowGroupSize?: number, indexed?: boolean): Promise<DataFile>;
  private async writeTable(
    path: string,
    table: Table,
    days?: Int32Array,
    rowGroupSize = this.manifest.rowGroupSize,
    indexed = true,
  ): Promise<FileEntry | DataFile> {
    const { bytes, footerLength } = encodeParquet(table, rowGroupSize);
    this.releaseMarker ??= await this.storage.mark(this.marker);
    this.written.push(path);
    await this.storage.write(path, bytes);
    const file = { path, rows: table.numRows, bytes: bytes.byteLength, sha256: sha256(bytes) };
    if (!days) return file;
    const dated = days.length > 0;
    const tail = bytes.subarray(bytes.byteLength - footerLength);
    return {
      ...file,
      footerBytes: footerLength,
      footerSha256: sha256(tail),
      start: dated ? formatDay(minOf(days)) : '',
      end: dated ? formatDay(maxOf(days)) : '',
      ...(indexed ? { index: await this.writeIndex(path, parseFooter(tail)) } : {}),
    };
  }

  // the file's layout beside it, so a reader finds its chunks without the footer (file-index.ts)
  private async writeIndex(dataPath: string, layout: FileLayout): Promise<FileEntry> {
    const path = indexPath(dataPath);
    const bytes = new TextEncoder().encode(fileIndexText(layout));
    this.written.push(path);
    await this.storage.write(path, bytes);
    return { path, rows: 0, bytes: bytes.byteLength, sha256: sha256(bytes) };
  }
}

/** The Arrow table of some rows (by index) of a dataset, with the tables' field ids. */
function reservoirTable(
  dataset: DatasetName,
  rows: ReservoirRows,
  piece: readonly number[],
  days: Int32Array,
  variables: readonly string[],
  flags: readonly string[],
): Table {
  // a piece of consecutive rows (a generator's chunk of names over one period always is) is a view, not a gather
  const from = piece[0] ?? 0;
  const run = piece.length === 0 || piece[piece.length - 1]! - from === piece.length - 1;
  const pick = (values: Float64Array) => (run ? values.subarray(from, from + piece.length) : gather(values, piece, new Float64Array(piece.length)));
  const columns: Record<string, Vector> = {
    RES_NAME: utf8Vector(run ? rows.names.slice(from, from + piece.length) : piece.map((i) => rows.names[i]!)),
    date: makeVector({ type: new DateDay(), data: days }),
  };
  for (const v of variables) columns[v] = floatVector(pick(rows.values[v]!));
  for (const f of flags) columns[f] = flagVector(f as FlagColumn, pick(rows.values[f]!));
  const table = new Table(columns);
  return withFieldIds(table, fieldIdsOf(datasetFields(dataset), table.schema.names as string[]));
}

/** A metadata table with its columns' field ids. */
function metadataWithIds(rows: readonly MetadataRow[], key: 'RES_NAME' | 'STA_NAME'): Table {
  const table = metadataTable(rows, key);
  return withFieldIds(table, new Map(metadataFieldIds(key, metadataColumnTypes(table)).map((f) => [f.name, f.id])));
}

/** Row indices of each file to write: by period (rows sorted by name then date), then in runs of whole names up to `limit` rows. */
function splitRows(rows: ReservoirRows, periodStarts: readonly number[], limit: number): number[][] {
  const byPeriod: number[][] = periodStarts.map(() => []);
  for (let i = 0; i < rows.days.length; i++) {
    let p = periodStarts.length - 1;
    while (rows.days[i]! < periodStarts[p]!) p--;
    byPeriod[p]!.push(i);
  }
  const pieces: number[][] = [];
  for (const indices of byPeriod) {
    let piece: number[] = [];
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k]!;
      const newName = k > 0 && rows.names[i] !== rows.names[indices[k - 1]!];
      if (newName && piece.length >= limit) {
        pieces.push(piece);
        piece = [];
      }
      piece.push(i);
    }
    if (piece.length > 0) pieces.push(piece);
  }
  return pieces;
}

/** The first day of each month of a year. */
function monthStarts(year: number): number[] {
  return Array.from({ length: 12 }, (_, m) => Date.UTC(year, m, 1) / 86_400_000);
}

function sortFiles(partition: ReservoirPartition): void {
  partition.files.sort((a, b) => compareText(a.start, b.start) || compareText(a.first, b.first));
  partition.start = partition.files.reduce((m, f) => (m === '' || f.start < m ? f.start : m), '');
  partition.end = partition.files.reduce((m, f) => (f.end > m ? f.end : m), '');
}

// a plain loop: a month's rows of a year sorted by name are scattered, and `from(piece, fn)` calls a closure per row
function gather<T extends Float64Array | Int32Array>(values: T, piece: readonly number[], into: T): T {
  for (let k = 0; k < piece.length; k++) into[k] = values[piece[k]!]!;
  return into;
}

function minOf(days: Int32Array): number {
  let m = Infinity;
  for (const d of days) if (d < m) m = d;
  return m;
}

function maxOf(days: Int32Array): number {
  let m = -Infinity;
  for (const d of days) if (d > m) m = d;
  return m;
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
  if (rows.names.length !== rows.days.length) throw new WriterMisuseError(`${where}: ${rows.names.length} names for ${rows.days.length} dates`);
  checkLengths(rows.days.length, rows.values, where);
  for (const v of Object.keys(rows.values)) {
    if (isFlagColumn(v)) continue;
    if (findReservoirVariable(v)?.dataset !== dataset) throw new WriterMisuseError(`${where}: variable ${v} is not in dataset ${dataset}`);
  }
  for (let i = 0; i < rows.days.length; i++) {
    if (yearOfDay(rows.days[i]!) !== year) throw new WriterMisuseError(`${where}: row ${i} dated ${formatDay(rows.days[i]!)} is outside ${year}`);
    if (i === 0) continue;
    const order = compareText(rows.names[i - 1]!, rows.names[i]!);
    if (order > 0 || (order === 0 && rows.days[i - 1]! >= rows.days[i]!)) {
      throw new WriterMisuseError(
        `${where}: rows must be sorted by name then date, unique; row ${i} (${rows.names[i]} ${formatDay(rows.days[i]!)}) is out of order`,
      );
    }
  }
}

function checkAscending(days: Int32Array, where: string): void {
  for (let i = 1; i < days.length; i++) {
    if (days[i - 1]! >= days[i]!) throw new WriterMisuseError(`${where}: dates must ascend without repeats; ${formatDay(days[i]!)} at row ${i}`);
  }
}

function checkLengths(rows: number, values: Record<string, Float64Array>, where: string): void {
  for (const [v, column] of Object.entries(values)) {
    if (column.length !== rows) throw new WriterMisuseError(`${where}: column ${v} has ${column.length} values for ${rows} rows`);
  }
}

/** A table of stations' rows: each row's station, its date, the variables' values and the day flags' codes. */
function stationTable(
  names: readonly string[],
  days: Int32Array,
  values: Record<string, Float64Array>,
  variables: readonly string[],
  flags: readonly FlagColumn[],
): Table {
  const columns: Record<string, Vector> = { STA_NAME: utf8Vector(names), date: makeVector({ type: new DateDay(), data: days }) };
  for (const v of variables) columns[v] = floatVector(values[v]!);
  for (const f of flags) columns[f] = flagVector(f, values[f]!);
  return new Table(columns);
}

/** The least and greatest of a copy's names (its rows run by date, so its names ascend only within each day). */
function nameRange(names: readonly string[]): { first: string; last: string } {
  let [first, last] = [names[0]!, names[0]!];
  for (const n of names) {
    if (compareText(n, first) < 0) first = n;
    if (compareText(n, last) > 0) last = n;
  }
  return { first, last };
}

/** Whether two lists name the same files in the same order. */
function samePaths(a: readonly { path: string }[], b: readonly { path: string }[]): boolean {
  return a.length === b.length && a.every((f, i) => f.path === b[i]!.path);
}

/** Whether a copy's file holds exactly these rows: the same names, days and columns, each value the same (NaN as NaN). */
async function sameRows(snapshot: SnapshotFiles, copy: ByDateFile, rows: ReservoirRows): Promise<boolean> {
  if (copy.rows !== rows.days.length) return false;
  const layout = await snapshot.reader.layout(copy);
  const columns = Object.keys(rows.values);
  if (layout.columns.size !== columns.length + 2 || columns.some((c) => !layout.columns.has(c))) return false; // + name, date
  const held = await readFileRows(snapshot, copy, 'RES_NAME', columns);
  for (let i = 0; i < rows.days.length; i++) if (held.days[i] !== rows.days[i] || held.names[i] !== rows.names[i]) return false;
  for (const c of columns) {
    const [a, b] = [held.values[c]!, rows.values[c]!];
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(a[i] !== a[i] && b[i] !== b[i])) return false;
  }
  return true;
}
