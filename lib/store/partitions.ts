// Reads the store's Parquet files piecewise: a verified index (or footer), then verified column chunks, decoded and cached under
// a memory bound. Nothing reads a whole data file.

import { StoreError } from '../errors.js';
import { encodeFlags, type FlagColumn, flagColumns } from '../flags.js';
import { ByteBoundedCache } from './cache.js';
import { sha256 } from './disk.js';
import { parseFileIndex } from './file-index.js';
import type { DataFile, FileEntry } from './manifest.js';
import { chunkSum, decodeChunkAsync, decodeChunksAsync, type FileLayout, type Footer, parseFooter } from './parquet.js';
import type { ByteSource, ReadCounts } from './source.js';

/** A decoded column chunk: dates (and lead days) as Int32, measurements as Float64 with NaN for gaps, names as strings. */
type Column = Int32Array | Float64Array | readonly string[];

/** A file read piecewise: the estimates' data files, and the forecasts' files that keep their footer's checksum. */
export type PiecewiseFile = Pick<DataFile, 'path' | 'rows' | 'bytes' | 'sha256' | 'footerBytes' | 'footerSha256' | 'index'>;

/** Caches shared by the readers of successive snapshots (file paths are unique per snapshot). */
export interface ReaderCaches {
  footers: ByteBoundedCache<FileLayout>; // by data file: from its index, or its footer
  columns: ByteBoundedCache<Map<string, Column>>; // decoded column chunks, by row group
  derived: ByteBoundedCache<unknown>; // values worked out from many chunks, e.g. one day of every reservoir (derive())
  counts: ReadCounts & { footersRead: number; indexesRead: number; indexesRefused: number; chunksDecoded: number; rowsDecoded: number }; // rowsDecoded: a row per column chunk's row
}

/** Caches bounded by the given byte counts. */
export function createReaderCaches(columnBytes: number, footerBytes: number): ReaderCaches {
  return {
    footers: new ByteBoundedCache(footerBytes),
    columns: new ByteBoundedCache(columnBytes),
    derived: new ByteBoundedCache(columnBytes / 8),
    counts: { reads: 0, bytesRead: 0, footersRead: 0, indexesRead: 0, indexesRefused: 0, chunksDecoded: 0, rowsDecoded: 0 },
  };
}

/** Reads footers and column chunks of the store's data files through a byte source. */
export class PartitionReader {
  constructor(
    readonly source: ByteSource, // the files' bytes (the forecasts, read whole, come from here too)
    private readonly caches: ReaderCaches,
  ) {}

  // reads and decodes under way: concurrent queries for the same data wait for one another instead of each
  // decoding it (16 cold requests for every reservoir on one date decoded everything 16 times)
  private readonly pending = new Map<string, Promise<unknown>>();

  private once<T>(key: string, work: () => Promise<T>): Promise<T> {
    let promise = this.pending.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = work().finally(() => this.pending.delete(key));
      this.pending.set(key, promise);
    }
    return promise;
  }

  /**
   * A value worked out from many column chunks, cached under `key` (which must name the snapshot: chunks are cached by
   * file, this by what it was made of) and made once when concurrent queries ask for it together.
   */
  async derive<T>(key: string, make: () => Promise<{ value: T; bytes: number }>): Promise<T> {
    const cached = this.caches.derived.get(key) as T | undefined;
    if (cached !== undefined) return cached;
    return this.once(`derived#${key}`, async () => {
      const { value, bytes } = await make();
      this.caches.derived.set(key, value, bytes);
      return value;
    });
  }

  /**
   * Where a data file's chunks are: from the index beside it when the manifest names one (a small read, parsed
   * natively), else from its footer; read once, checked against the manifest, and cached.
   */
  async layout(file: PiecewiseFile): Promise<FileLayout> {
    return this.caches.footers.get(file.path) ?? this.once(file.path, () => (file.index ? this.readIndex(file, file.index) : this.readFooter(file)));
  }

  // an index that does not match the manifest's checksum or the file is not used: the footer (checked in turn) is
  private async readIndex(file: PiecewiseFile, index: FileEntry): Promise<FileLayout> {
    let layout: FileLayout;
    try {
      const bytes = await this.read(index, 0, index.bytes);
      if (sha256(bytes) !== index.sha256) throw new Error("it does not match the manifest's checksum");
      layout = parseFileIndex(new TextDecoder().decode(bytes), file);
      checkSchema(file, layout);
    } catch (error) {
      this.caches.counts.indexesRefused++;
      this.refused.push(`${index.path}: ${(error as Error).message}`);
      return this.readFooter(file);
    }
    this.caches.counts.indexesRead++;
    this.caches.footers.set(file.path, layout, index.bytes * 4);
    return layout;
  }

  /** Indexes refused since this reader was made, and why (each fell back to its file's footer). */
  readonly refused: string[] = [];

  /** The footer of a data file, read and parsed (not cached): what `evap verify` checks an index against. */
  async footer(file: PiecewiseFile): Promise<Footer> {
    return this.readFooter(file, false);
  }

  private async readFooter(file: PiecewiseFile, cache = true): Promise<Footer> {
    const tail = await this.read(file, file.bytes - file.footerBytes, file.footerBytes);
    if (sha256(tail) !== file.footerSha256) throw new StoreError(`store file ${file.path} is corrupt: its footer does not match the manifest's checksum`);
    let footer: Footer;
    try {
      footer = parseFooter(tail);
    } catch (error) {
      throw new StoreError(`store file ${file.path} has an unreadable footer: ${(error as Error).message}`);
    }
    if (!footer.sums || footer.groupStarts[footer.groupStarts.length - 1] !== file.rows) {
      throw new StoreError(`store file ${file.path} does not hold the ${file.rows} rows with checksums that the manifest records`);
    }
    checkSchema(file, footer);
    this.caches.counts.footersRead++;
    if (cache) this.caches.footers.set(file.path, footer, file.footerBytes * 4);
    return footer;
  }

  /** One column of one row group, decoded; undefined when the file has no such column. */
  async column(file: PiecewiseFile, group: number, name: string): Promise<Column | undefined> {
    return this.cachedColumn(file, group, name) ?? this.readColumn(file, group, name);
  }

  /** The column if it is cached (no promise, no read): the hot path of small queries asks this first. */
  cachedColumn(file: PiecewiseFile, group: number, name: string): Column | undefined {
    return this.caches.columns.get(this.groupKey(file, group))?.get(name);
  }

  /**
   * Several columns of a row group (undefined where the file has none), the uncached ones read together. `scan`: a
   * read of a query larger than the cache, whose chunks are kept only where they fit beside what is held.
   */
  async columns(file: PiecewiseFile, group: number, names: readonly string[], scan = false): Promise<(Column | undefined)[]> {
    const cached = this.caches.columns.get(this.groupKey(file, group));
    const out = names.map((n) => cached?.get(n));
    const footer = this.caches.footers.get(file.path) ?? (await this.layout(file));
    const missing = names.flatMap((n, i) => (out[i] === undefined && footer.columns.has(n) ? [i] : []));
    // chunks of a row group lie side by side: neighbours (at most 64 KiB apart) come in one read, each still checked alone
    const ranges = missing.map((i) => ({ i, range: footer.ranges[group]![footer.columns.get(names[i]!)!]! })).sort((a, b) => a.range[0] - b.range[0]);
    const runs: (typeof ranges)[] = [];
    for (const r of ranges) {
      const run = runs[runs.length - 1];
      if (run && r.range[0] - run[run.length - 1]!.range[1] <= 65_536) run.push(r);
      else runs.push([r]);
    }
    await Promise.all(
      runs.map(async (run) => {
        const start = run[0]!.range[0];
        const bytes = await this.read(file, start, run[run.length - 1]!.range[1] - start);
        // decoded together: their pages inflate in a few zlib calls in the thread pool
        const chunks = run.map(({ i, range }) => ({ name: names[i]!, bytes: bytes.subarray(range[0] - start, range[1] - start) }));
        const decoded = await this.readColumnsOf(file, group, chunks, scan);
        run.forEach(({ i }, k) => (out[i] = decoded[k]));
      }),
    );
    return out;
  }

  // several chunks of a row group: those neither cached nor being decoded are decoded as one batch
  private readColumnsOf(
    file: PiecewiseFile,
    group: number,
    chunks: readonly { name: string; bytes: Uint8Array }[],
    scan: boolean,
  ): Promise<(Column | undefined)[]> {
    const key = this.groupKey(file, group);
    const batch = chunks.filter((c) => !this.cachedColumn(file, group, c.name) && !this.pending.has(`${key}#${c.name}`));
    if (batch.length > 1) {
      const work = this.decodeBatch(file, group, batch, scan);
      batch.forEach((c, k) => {
        const id = `${key}#${c.name}`;
        this.pending.set(
          id,
          work.then((columns) => columns[k]).finally(() => this.pending.delete(id)),
        );
      });
    }
    return Promise.all(chunks.map((c) => this.readColumn(file, group, c.name, c.bytes, scan)));
  }

  // each chunk checked against its checksum, then all decoded together; should that fail, each alone says which is bad
  private async decodeBatch(
    file: PiecewiseFile,
    group: number,
    chunks: readonly { name: string; bytes: Uint8Array }[],
    scan: boolean,
  ): Promise<(Column | undefined)[]> {
    const footer = await this.layout(file);
    const known = chunks.filter((c) => footer.columns.has(c.name));
    for (const c of known) this.checkSum(file, footer, group, c.name, c.bytes);
    let values: ArrayLike<number | string | null>[];
    try {
      values = await decodeChunksAsync(
        footer,
        known.map((c) => ({ group, column: c.name, bytes: c.bytes })),
      );
    } catch {
      return Promise.all(chunks.map((c) => this.decodeColumn(file, group, c.name, c.bytes, scan)));
    }
    const columns = new Map(known.map((c, k) => [c.name, this.keep(file, group, c.name, values[k]!, scan)]));
    return chunks.map((c) => columns.get(c.name));
  }

  private readColumn(file: PiecewiseFile, group: number, name: string, chunk?: Uint8Array, scan = false): Promise<Column | undefined> {
    const cached = this.cachedColumn(file, group, name);
    return cached ? Promise.resolve(cached) : this.once(`${this.groupKey(file, group)}#${name}`, () => this.decodeColumn(file, group, name, chunk, scan));
  }

  private async decodeColumn(file: PiecewiseFile, group: number, name: string, chunk?: Uint8Array, scan = false): Promise<Column | undefined> {
    const footer = await this.layout(file);
    const index = footer.columns.get(name);
    if (index === undefined) return undefined;
    const [start, end] = footer.ranges[group]![index]!;
    const bytes = chunk ?? (await this.read(file, start, end - start));
    this.checkSum(file, footer, group, name, bytes);
    let values: ArrayLike<number | string | null>;
    try {
      values = await decodeChunkAsync(footer, group, name, bytes);
    } catch (error) {
      throw new StoreError(`store file ${file.path} is corrupt: column ${name} of row group ${group} cannot be decoded (${(error as Error).message})`);
    }
    return this.keep(file, group, name, values, scan);
  }

  private checkSum(file: PiecewiseFile, footer: FileLayout, group: number, name: string, bytes: Uint8Array): void {
    if (chunkSum(bytes) !== footer.sums![group]![footer.columns.get(name)!]) {
      throw new StoreError(`store file ${file.path} is corrupt: column ${name} of row group ${group} does not match its checksum`);
    }
  }

  // a decoded chunk normalized and cached with its row group's other columns
  private keep(file: PiecewiseFile, group: number, name: string, values: ArrayLike<number | string | null>, scan: boolean): Column {
    const column = normalize(values, name);
    this.caches.counts.chunksDecoded++;
    this.caches.counts.rowsDecoded += column.length;
    // a row group's columns are cached together (one key per group, made once): the group's size grows as columns come
    const key = this.groupKey(file, group);
    const columns = this.caches.columns.get(key) ?? new Map<string, Column>();
    columns.set(name, column);
    let bytesHeld = 0;
    for (const c of columns.values()) bytesHeld += c.length * (c instanceof Int32Array ? 4 : 8); // a name: its reference
    this.caches.columns.set(key, columns, bytesHeld, !scan);
    return column;
  }

  /** The bytes of decoded chunks the reader keeps at most: a query reading more is a scan (columns()). */
  get columnCacheBytes(): number {
    return this.caches.columns.maxBytes;
  }

  private groupKey(file: PiecewiseFile, group: number): string {
    let keys = this.keys.get(file);
    if (!keys) this.keys.set(file, (keys = []));
    return (keys[group] ??= `${file.path}#${group}`);
  }

  private readonly keys = new WeakMap<PiecewiseFile, string[]>();

  /** Reads a whole small file (the metadata tables), to be checked with checkWhole before its bytes are used. */
  wholeFile(entry: FileEntry): Promise<Uint8Array> {
    return this.read(entry, 0, entry.bytes);
  }

  /** Refuses a whole file's bytes (wholeFile) that are not the ones the manifest's SHA-256 names. */
  checkWhole(entry: FileEntry, bytes: Uint8Array): void {
    if (sha256(bytes) !== entry.sha256) throw new StoreError(`store file ${entry.path} is corrupt: checksum does not match the manifest`);
  }

  private async read(file: FileEntry, offset: number, length: number): Promise<Uint8Array> {
    if (offset < 0 || length < 0 || offset + length > file.bytes) throw new StoreError(`store file ${file.path}: the manifest's sizes are inconsistent`);
    const bytes = await this.source.read(file.path, offset, length);
    this.caches.counts.reads++;
    this.caches.counts.bytesRead += bytes.byteLength;
    if (bytes.byteLength !== length) throw new StoreError(`store file ${file.path} is truncated: shorter than the ${file.bytes} bytes the manifest says`);
    return bytes;
  }
}

// the types every reader assumes: a date column of days (or, in a forecast file, its issue and lead days), text names
// (and statistics), measurements as doubles
function checkSchema(file: PiecewiseFile, layout: FileLayout): void {
  const forecast = layout.columns.has('lead_days');
  if (!forecast && !layout.columns.has('date')) throw new StoreError(`store file ${file.path} has no date column`);
  // by index, not a Map's entries: this runs once per file in a fresh process, before the optimizing compiler sees it
  for (let index = 0; index < layout.shapes.length; index++) {
    const { name, type } = layout.shapes[index]!;
    const expected = dayColumns.has(name) ? 'INT32' : textColumns.has(name) || Object.hasOwn(flagColumns, name) ? 'BYTE_ARRAY' : 'DOUBLE';
    if (type !== expected) throw new StoreError(`store file ${file.path}: column ${name} is ${type}, expected ${expected}`);
  }
}

const dayColumns = new Set(['date', 'issued', 'valid_date', 'lead_days']);
const textColumns = new Set(['RES_NAME', 'STA_NAME', 'statistic']);

// names stay strings, days become an Int32Array, flags their codes, everything else Float64 with NaN where null
function normalize(values: ArrayLike<number | string | null>, name: string): Column {
  if (textColumns.has(name)) return values as readonly string[];
  if (Object.hasOwn(flagColumns, name)) return encodeFlags(name as FlagColumn, values as ArrayLike<string | null>);
  if (dayColumns.has(name)) return values instanceof Int32Array ? values : Int32Array.from(values as ArrayLike<number>);
  if (values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = v === null || v === undefined ? NaN : (v as number);
  }
  return out;
}
