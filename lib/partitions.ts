// Reads row groups of partition files on demand, verifies them, and keeps them decoded under a memory bound.
import type { Table, Vector } from 'apache-arrow';
import { ByteBoundedCache } from './cache.js';
import { readStoreFile, sha256 } from './disk.js';
import { StoreError } from './errors.js';
import type { FileEntry } from './manifest.js';
import { decodeParquet } from './parquet.js';

/** Columns of a decoded row group: dates as epoch days, measurements as Float64 with NaN for gaps. */
export interface DecodedGroup {
  rows: number;
  days: Int32Array;
  columns: Map<string, Float64Array>;
}

/** The rows [start, end) of a file, assembled from its row groups. */
export interface RowSpan {
  days: Int32Array;
  column(name: string): Float64Array | undefined;
}

/** Caches shared by the readers of successive snapshots (file paths are unique per snapshot). */
export interface ReaderCaches {
  groups: ByteBoundedCache<DecodedGroup>; // decoded row groups
  files: ByteBoundedCache<Uint8Array>; // raw file bytes, to decode further row groups without re-reading
  counts: ReadCounts;
}

/** What the readers did, for operators and tests: files read from disk, row groups decoded. */
export interface ReadCounts {
  filesRead: number;
  groupsDecoded: number;
}

/** Caches bounded by the given byte counts. */
export function createReaderCaches(groupBytes: number, fileBytes: number): ReaderCaches {
  return { groups: new ByteBoundedCache(groupBytes), files: new ByteBoundedCache(fileBytes), counts: { filesRead: 0, groupsDecoded: 0 } };
}

/** Reads rows of the store's Parquet files through a byte-bounded cache of decoded row groups. */
export class PartitionReader {
  private readonly groups: ByteBoundedCache<DecodedGroup>;
  private readonly files: ByteBoundedCache<Uint8Array>;
  private readonly counts: ReadCounts;

  constructor(
    private readonly root: string,
    private readonly rowGroupSize: number,
    caches: ReaderCaches,
  ) {
    this.groups = caches.groups;
    this.files = caches.files;
    this.counts = caches.counts;
  }

  /** Rows [start, end) of a file, reading only the row groups that hold them. */
  async rows(entry: FileEntry, start: number, end: number): Promise<RowSpan> {
    const first = Math.floor(start / this.rowGroupSize);
    const last = Math.floor((end - 1) / this.rowGroupSize);
    const groups = await this.groupsOf(entry, range(first, last));
    if (groups.length === 1) {
      const offset = start - first * this.rowGroupSize;
      return sliceSpan(groups[0]!, offset, offset + (end - start));
    }
    return joinSpans(groups, start - first * this.rowGroupSize, end - start);
  }

  /** Every row of a file as one span. */
  async all(entry: FileEntry): Promise<RowSpan> {
    return entry.rows === 0 ? emptySpan : this.rows(entry, 0, entry.rows);
  }

  /** One row group of a file, decoded (from the cache when it is there). */
  async group(entry: FileEntry, index: number): Promise<DecodedGroup> {
    return this.groups.get(this.keyOf(entry, index)) ?? (await this.groupsOf(entry, [index]))[0]!;
  }

  /** Every row group of a file, in order; held by the caller, so eviction cannot pull them away mid-query. */
  async allGroups(entry: FileEntry): Promise<DecodedGroup[]> {
    return entry.rows === 0 ? [] : this.groupsOf(entry, range(0, Math.ceil(entry.rows / this.rowGroupSize) - 1));
  }

  /** The cache key of a row group, made once per file entry (lookups are the hot path of small queries). */
  private keyOf(entry: FileEntry, group: number): string {
    let keys = this.keys.get(entry);
    if (!keys) this.keys.set(entry, (keys = []));
    return (keys[group] ??= `${entry.path}#${group}`);
  }

  private readonly keys = new WeakMap<FileEntry, string[]>();

  /** The decoded row groups, from cache where possible; the missing ones decoded in one pass. */
  private async groupsOf(entry: FileEntry, indices: number[]): Promise<DecodedGroup[]> {
    const found: (DecodedGroup | undefined)[] = new Array(indices.length);
    let complete = true;
    for (let i = 0; i < indices.length; i++) if ((found[i] = this.groups.get(this.keyOf(entry, indices[i]!))) === undefined) complete = false;
    if (complete) return found as DecodedGroup[];
    const missing = indices.filter((_, i) => found[i] === undefined);
    if (missing.length > 0) {
      const table = decodeParquet(await this.bytesOf(entry), missing);
      this.counts.groupsDecoded += missing.length;
      let offset = 0;
      for (const g of missing) {
        const rows = Math.min(this.rowGroupSize, entry.rows - g * this.rowGroupSize);
        const group = decodeGroup(table, offset, rows);
        offset += rows;
        this.groups.set(this.keyOf(entry, g), group, rows * (4 + 8 * group.columns.size));
        found[indices.indexOf(g)] = group;
      }
    }
    return found as DecodedGroup[];
  }

  /** The file's bytes, checked against the manifest's size and checksum whenever read from disk. */
  private async bytesOf(entry: FileEntry): Promise<Uint8Array> {
    const cached = this.files.get(entry.path);
    if (cached) return cached;
    const bytes = await readStoreFile(this.root, entry.path);
    this.counts.filesRead++;
    verifyFile(entry, bytes);
    this.files.set(entry.path, bytes, bytes.byteLength);
    return bytes;
  }

  /** Reads and verifies a whole file, decoded: for small files such as the metadata tables. */
  async table(entry: FileEntry): Promise<Table> {
    const bytes = await readStoreFile(this.root, entry.path);
    verifyFile(entry, bytes);
    return decodeParquet(bytes);
  }
}

/** Throws StoreError when bytes do not match the manifest's record of the file. */
export function verifyFile(entry: FileEntry, bytes: Uint8Array): void {
  if (bytes.byteLength !== entry.bytes) {
    throw new StoreError(`store file ${entry.path} is corrupt: ${bytes.byteLength} bytes, the manifest says ${entry.bytes}`);
  }
  const digest = sha256(bytes);
  if (digest !== entry.sha256) {
    throw new StoreError(`store file ${entry.path} is corrupt: checksum ${digest.slice(0, 12)}... does not match the manifest`);
  }
}

function decodeGroup(table: Table, offset: number, rows: number): DecodedGroup {
  const slice = table.slice(offset, offset + rows);
  const columns = new Map<string, Float64Array>();
  let days: Int32Array = new Int32Array(0);
  for (const field of slice.schema.fields) {
    const vector = slice.getChild(field.name)!;
    if (field.name === 'date') days = dayValues(vector, rows);
    else if (field.typeId === 3 /* Float */) columns.set(field.name, floatValues(vector, rows));
  }
  return { rows, days, columns };
}

function dayValues(vector: Vector, rows: number): Int32Array {
  const out = new Int32Array(rows);
  let at = 0;
  for (const data of vector.data) {
    out.set((data.values as Int32Array).subarray(0, data.length), at);
    at += data.length;
  }
  return out;
}

function floatValues(vector: Vector, rows: number): Float64Array {
  const out = new Float64Array(rows);
  let at = 0;
  for (const data of vector.data) {
    const values = data.values as Float64Array;
    if (data.nullCount === 0) out.set(values.subarray(0, data.length), at);
    else for (let i = 0; i < data.length; i++) out[at + i] = data.getValid(i) ? values[i]! : NaN;
    at += data.length;
  }
  return out;
}

function sliceSpan(group: DecodedGroup, start: number, end: number): RowSpan {
  return {
    days: group.days.subarray(start, end),
    column: (name) => group.columns.get(name)?.subarray(start, end),
  };
}

function joinSpans(groups: DecodedGroup[], start: number, length: number): RowSpan {
  const pick = <T extends Int32Array | Float64Array>(parts: (T | undefined)[], make: (n: number) => T): T | undefined => {
    if (parts.some((p) => p === undefined)) return undefined;
    const out = make(length);
    let skip = start;
    let at = 0;
    for (const part of parts as T[]) {
      const take = part.subarray(skip, Math.min(part.length, skip + length - at));
      out.set(take, at);
      at += take.length;
      skip = Math.max(0, skip - part.length);
      if (at >= length) break;
    }
    return out;
  };
  const days = pick(groups.map((g) => g.days), (n) => new Int32Array(n))!;
  const memo = new Map<string, Float64Array | undefined>();
  return {
    days,
    column(name) {
      if (!memo.has(name)) memo.set(name, pick(groups.map((g) => g.columns.get(name)), (n) => new Float64Array(n)));
      return memo.get(name);
    },
  };
}

const emptySpan: RowSpan = { days: new Int32Array(0), column: () => new Float64Array(0) };

function range(first: number, last: number): number[] {
  const out: number[] = [];
  for (let i = first; i <= last; i++) out.push(i);
  return out;
}
