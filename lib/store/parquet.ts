// Parquet files of the store (written by parquet-encode.ts with a checksum of every column chunk in the footer), read
// piecewise (the footer or the file's index, then only the column chunks a query needs; decoding in parquet-decode.ts).
import { createHash } from 'node:crypto';
import {
  type ChunkShape,
  type ColumnValues,
  chunkShapes,
  decodeChunksAsync as decodeChunksWithAsync,
  decodeChunk as decodeChunkWith,
  decodeChunkAsync as decodeChunkWithAsync,
  type FileMetaData,
  parseMetadata,
} from './parquet-decode.js';

export type { ColumnValues };

/** The key of the footer's key-value metadata that holds the column chunks' checksums. */
export const CHUNK_SUMS_KEY = 'evap.chunk_sha256';

/** A column chunk's checksum: the first 16 bytes of its SHA-256, hex. */
export function chunkSum(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/** Byte ranges [start, end) of every column chunk, by row group then column. */
export function chunkRanges(metadata: FileMetaData): [number, number][][] {
  return metadata.row_groups.map((group) =>
    group.columns.map((column) => {
      const meta = column.meta_data!;
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      return [start, start + Number(meta.total_compressed_size)];
    }),
  );
}

/**
 * Where a data file's chunks are and what they hold, from its footer or from the index written beside it: the columns
 * by name, each row group's first row, the chunks' byte ranges and checksums, and each group's dates and names.
 */
export interface FileLayout {
  columns: Map<string, number>; // column name -> index within a row group
  groupStarts: number[]; // first row of each row group, and the row count at the end
  ranges: [number, number][][];
  shapes: ChunkShape[]; // by column index: what decoding a chunk needs
  sums: string[][] | undefined; // undefined for files written without them (metadata tables)
  days: ([number, number] | undefined)[]; // by row group: first and last date (epoch days), where the statistics say
  names: ([string, string] | undefined)[]; // by row group: least and greatest name (RES_NAME or STA_NAME)
}

/** A parsed footer: its layout, and hyparquet's metadata. */
export interface Footer extends FileLayout {
  metadata: FileMetaData;
}

/** Parses the tail of a Parquet file (at least the footer, its length and the magic). */
export function parseFooter(tail: Uint8Array): Footer {
  return footerOf(parseMetadata(tail));
}

/** The layout of a parsed footer (a streamed file's, parsed once by its writer: at 4,000 row groups a parse is a second). */
export function footerOf(metadata: FileMetaData): Footer {
  const columns = new Map(metadata.row_groups[0]?.columns.map((c, i) => [c.meta_data!.path_in_schema.join('.'), i]) ?? []);
  const groupStarts = [0];
  for (const group of metadata.row_groups) groupStarts.push(groupStarts[groupStarts.length - 1]! + Number(group.num_rows));
  const text = metadata.key_value_metadata?.find((kv) => kv.key === CHUNK_SUMS_KEY)?.value;
  const sums = text === undefined ? undefined : text.split(';').map((group) => group.split(','));
  const statistics = <T>(column: string | undefined, type: string) =>
    metadata.row_groups.map((_, g) => {
      const index = column === undefined ? undefined : columns.get(column);
      const stats = index === undefined ? undefined : metadata.row_groups[g]!.columns[index]!.meta_data?.statistics;
      const [min, max] = [stats?.min_value, stats?.max_value];
      return typeof min === type && typeof max === type ? ([min, max] as [T, T]) : undefined;
    });
  const nameColumn = ['RES_NAME', 'STA_NAME'].find((c) => columns.has(c));
  return {
    metadata,
    columns,
    groupStarts,
    ranges: chunkRanges(metadata),
    shapes: chunkShapes(metadata),
    sums,
    days: statistics<number>('date', 'number'),
    names: statistics<string>(nameColumn, 'string'),
  };
}

/** Decodes a column chunk's bytes (exactly its range) into the values of its row group's rows. */
export function decodeChunk(footer: FileLayout, group: number, column: string, bytes: Uint8Array): ColumnValues {
  return decodeChunkWith(shapeOf(footer, column), groupRows(footer, group), bytes);
}

/** decodeChunk, with gzip pages inflated in zlib's thread pool (see parquet-decode.ts). */
export function decodeChunkAsync(footer: FileLayout, group: number, column: string, bytes: Uint8Array): Promise<ColumnValues> {
  return decodeChunkWithAsync(shapeOf(footer, column), groupRows(footer, group), bytes);
}

/** decodeChunkAsync of several chunks (of any row groups), their gzip pages inflated together (see parquet-decode.ts). */
export function decodeChunksAsync(footer: FileLayout, chunks: readonly { group: number; column: string; bytes: Uint8Array }[]): Promise<ColumnValues[]> {
  return decodeChunksWithAsync(chunks.map((c) => ({ shape: shapeOf(footer, c.column), rows: groupRows(footer, c.group), bytes: c.bytes })));
}

function shapeOf(footer: FileLayout, column: string): ChunkShape {
  const index = footer.columns.get(column);
  if (index === undefined) throw new Error(`parquet column not found: ${column}`);
  return footer.shapes[index]!;
}

/** The rows of a row group. */
function groupRows(footer: { groupStarts: readonly number[] }, group: number): number {
  return footer.groupStarts[group + 1]! - footer.groupStarts[group]!;
}

/** Every column of a whole small Parquet file (the metadata tables), decoded from its bytes, by name. */
export function decodeColumns(bytes: Uint8Array): Map<string, ColumnValues> {
  const footer = parseFooter(bytes);
  const out = new Map<string, ColumnValues>();
  for (const name of footer.columns.keys()) {
    const parts = footer.ranges.map((group, g) => decodeChunk(footer, g, name, bytes.subarray(...group[footer.columns.get(name)!]!)));
    out.set(name, parts.length === 1 ? parts[0]! : parts.flatMap((p) => Array.from(p)));
  }
  return out;
}
