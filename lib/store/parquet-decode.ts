// The one file that reaches into hyparquet's modules beyond its public entry point (hyparquet/src/*): the footer's
// thrift, a page header, a data page and a column chunk. Everything else in the store speaks the small interface
// below, so a hyparquet upgrade is checked here and by test/lib/store/parquet-decode.test.ts, which pins what we rely on.
import { promisify } from 'node:util';
import { gunzip, gunzipSync } from 'node:zlib';
import { parquetHeader, readColumn } from 'hyparquet/src/column.js';
import { DEFAULT_PARSERS } from 'hyparquet/src/convert.js';
import { decompressPage, readDataPage } from 'hyparquet/src/datapage.js';
import { parquetMetadata } from 'hyparquet/src/metadata.js';
import type { ColumnDecoder, DataPageHeader, FileMetaData, SchemaElement, SchemaTree } from 'hyparquet/src/types.js';

export type { FileMetaData };

/** Parses a Parquet footer (the file's tail: at least the metadata, its length and the magic); dates stay epoch days. */
export function parseMetadata(tail: Uint8Array): FileMetaData {
  return parquetMetadata(tail, { parsers: { dateFromDays: (days: number) => days } });
}

/**
 * What decoding a flat column's chunk needs besides its bytes and row count: all a file index records of a column, so
 * a chunk is decoded without its footer. Only flat columns (a child of the schema's root) are described.
 */
export interface ChunkShape {
  name: string;
  type: 'BOOLEAN' | 'INT32' | 'INT64' | 'INT96' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY' | 'FIXED_LEN_BYTE_ARRAY';
  codec: string; // the Parquet codec name, e.g. GZIP
  optional: boolean; // pages carry definition levels (nulls)
  date: boolean; // INT32 days since 1970 (the DATE logical type)
  text: boolean; // BYTE_ARRAY holding UTF-8 (STRING / UTF8)
}

/** The shapes of a file's columns, from its footer (the first row group's codecs: the store writes one codec a file). */
export function chunkShapes(metadata: FileMetaData): ChunkShape[] {
  const leaves = new Map(metadata.schema.slice(1).map((e) => [e.name, e]));
  return (metadata.row_groups[0]?.columns ?? []).map((c) => {
    const meta = c.meta_data!;
    const name = meta.path_in_schema.join('.');
    const element = meta.path_in_schema.length === 1 ? leaves.get(name) : undefined;
    if (!element || element.num_children) throw new Error(`parquet column ${name} is not a flat column`);
    const logical = element.logical_type?.type;
    return {
      name,
      type: meta.type,
      codec: meta.codec,
      optional: element.repetition_type !== 'REQUIRED',
      date: meta.type === 'INT32' && (logical === 'DATE' || element.converted_type === 'DATE'),
      text: meta.type === 'BYTE_ARRAY' && (logical === 'STRING' || element.converted_type === 'UTF8'),
    };
  });
}

/** Decoded values of one column chunk: numbers for numeric and date columns (null for gaps), strings for text. */
export type ColumnValues = ArrayLike<number | string | null>;

// the store's pages are gzip, inflated by node's zlib (native: no JIT warm-up in a fresh process) into one output buffer
// of the page's size: zlib's default of 16 KiB chunks made a 64 KiB page four inflate calls and a concatenation (2.4x
// the time of one call, measured on a store file's pages)
const compressors = { GZIP: (input: Uint8Array, size: number): Uint8Array => gunzipSync(input, { chunkSize: outputChunk(size) }) };
const outputChunk = (size: number) => Math.max(64, size + 64); // zlib's least chunk is 64 bytes
const gunzipAsync = promisify(gunzip);

/** Decodes a column chunk's bytes (exactly its range) into the values of its `rows` rows. */
export function decodeChunk(shape: ChunkShape, rows: number, bytes: Uint8Array): ColumnValues {
  return decodeInline(decoderOf(shape), shape, rows, bytes);
}

/**
 * decodeChunk, with the gzip pages of a date or double chunk inflated in zlib's thread pool: the columns of a row
 * group asked together inflate on every core, and the event loop stays free meanwhile (inflating was most of a cold
 * answer of every reservoir on one date).
 */
export async function decodeChunkAsync(shape: ChunkShape, rows: number, bytes: Uint8Array): Promise<ColumnValues> {
  return (await decodeChunksAsync([{ shape, rows, bytes }]))[0]!;
}

/** A column chunk to decode: its shape, its row group's rows and exactly its bytes. */
interface ChunkToDecode {
  shape: ChunkShape;
  rows: number;
  bytes: Uint8Array;
}

/** Pages inflated by one zlib call: their gzip members back to back come out as their bytes back to back. */
const BATCH_BYTES = 512 * 1024;

/**
 * decodeChunkAsync of several chunks (a row group's columns read together): the gzip pages of every date and double
 * chunk are inflated by a few zlib calls in the thread pool, each of the gzip members of many pages laid back to back
 * (zlib's gunzip reads concatenated members), where one call a page cost its stream, its buffers and its trip to the
 * thread pool each time: most of the time on the event loop of a cold answer of every reservoir on one date (168 pages
 * of 64 KiB) or of every station on one date (1,800 small pages). Each batch's output must be exactly the sum of its
 * pages' sizes.
 */
export async function decodeChunksAsync(chunks: readonly ChunkToDecode[]): Promise<ColumnValues[]> {
  const decoders = chunks.map((c) => decoderOf(c.shape));
  const gzip = chunks.map((c) => c.shape.codec === 'GZIP');
  const pages = chunks.map((c, i) => (gzip[i] && numeric(c.shape) ? plainPages(c.bytes, c.rows) : undefined));
  const texts = chunks.map((c, i) => (gzip[i] && c.shape.text ? textPages(c.bytes, c.rows) : undefined));
  const batches: Page[][] = [];
  let size = BATCH_BYTES;
  for (const page of [...pages.flat(), ...texts.flatMap((t) => (t ? [t.dictionary, ...t.pages] : []))]) {
    if (!page) continue;
    if (size + page.size > BATCH_BYTES) batches.push([]);
    size = size + page.size > BATCH_BYTES ? page.size : size + page.size;
    batches[batches.length - 1]!.push(page);
  }
  const inflated = new Map<Page, Uint8Array>();
  await Promise.all(
    batches.map(async (batch) => {
      const total = batch.reduce((n, p) => n + p.size, 0);
      const input = batch.length === 1 ? batch[0]!.compressed : Buffer.concat(batch.map((p) => p.compressed));
      const out = await gunzipAsync(input, { chunkSize: outputChunk(total) });
      if (out.byteLength !== total) throw new Error(`parquet pages inflate to ${out.byteLength} bytes, their headers say ${total}`);
      let at = 0;
      for (const p of batch) {
        inflated.set(p, new Uint8Array(out.buffer, out.byteOffset + at, p.size));
        at += p.size;
      }
    }),
  );
  const inflatedPage = (p: Page) => inflated.get(p)!;
  return chunks.map((c, i) => {
    const [own, text] = [pages[i], texts[i]];
    const direct = (own && numbersOf(decoders[i]!, own, inflatedPage, c.rows, true)) || (text && textOf(text, inflatedPage, c.rows, c.shape.optional));
    return direct || decodeInline(decoders[i]!, c.shape, c.rows, c.bytes);
  });
}

const utf8 = new TextDecoder();

/** A dictionary-encoded text chunk's pages: its dictionary (`count` strings), then its data pages. */
interface TextPages {
  dictionary: Page & { count: number };
  pages: PlainPage[];
}

// the pages of a chunk that is a dictionary page and dictionary-encoded v1 data pages covering `rows` (the store's
// names); else undefined
function textPages(bytes: Uint8Array, rows: number): TextPages | undefined {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  let dictionary: TextPages['dictionary'] | undefined;
  const pages: PlainPage[] = [];
  for (let row = 0; row < rows; ) {
    if (reader.offset >= bytes.byteLength - 1) return undefined;
    const header = parquetHeader(reader);
    const compressed = bytes.subarray(reader.offset, reader.offset + header.compressed_page_size);
    reader.offset += header.compressed_page_size;
    if (header.type === 'DICTIONARY_PAGE' && dictionary === undefined && header.dictionary_page_header) {
      dictionary = { count: header.dictionary_page_header.num_values, size: header.uncompressed_page_size, compressed };
      continue;
    }
    const data = header.data_page_header;
    if (header.type !== 'DATA_PAGE' || !data || !dictionary || !/^(RLE|PLAIN)_DICTIONARY$/.test(data.encoding)) return undefined;
    if (row + data.num_values > rows) return undefined;
    pages.push({ header: data, size: header.uncompressed_page_size, compressed });
    row += data.num_values;
  }
  return dictionary && { dictionary, pages };
}

/**
 * A flat text chunk's pages (textPages), inflated by `inflate`, as its strings, each row the dictionary's string
 * itself: hyparquet's general path assembles every page through nested lists and a converted copy, which was a fifth
 * of a cold one-reservoir answer (8,192 names decoded a row group to find one name's rows). Undefined for what it
 * cannot read (nulls, a bad run): the general path decodes it or says what is wrong.
 */
function textOf(text: TextPages, inflate: (page: Page) => Uint8Array, rows: number, optional: boolean): string[] | undefined {
  const dictionary = plainText(inflate(text.dictionary), text.dictionary.count);
  if (!dictionary) return undefined;
  const out = new Array<string>(rows);
  let row = 0;
  for (let i = 0; i < text.pages.length; i++) {
    const page = text.pages[i]!;
    const count = page.header.num_values;
    const inflated = inflate(page);
    const start = valuesStart(inflated, count, optional);
    if (start === undefined || start >= inflated.byteLength) return undefined; // nulls
    // the dictionary indices: a bit width, then runs
    const width = inflated[start]!;
    if (width === 0) {
      if (dictionary[0] === undefined) return undefined;
      out.fill(dictionary[0], row, row + count);
    } else if (width > 24 || !namesOfRuns(inflated, start + 1, width, count, dictionary, out, row)) return undefined;
    row += count;
  }
  return out;
}

/**
 * The names of `count` rows from their dictionary indices (Parquet's RLE / bit-packed hybrid, `width` bits each, from
 * byte `at`) into `out` from `row`; false if the runs overrun the page or name an index the dictionary lacks. A run of
 * one index (a name's rows, in a file sorted by name) is one fill: a value and a store a row, in code a fresh process
 * runs before the optimizing compiler sees it, were the most of a cold one-reservoir answer's own work.
 */
function namesOfRuns(page: Uint8Array, at: number, width: number, count: number, dictionary: readonly string[], out: string[], row: number): boolean {
  const valueBytes = (width + 7) >> 3;
  const end = row + count;
  while (row < end) {
    const run = runHeader(page, at, page.length);
    if (run === undefined) return false;
    const header = run[0];
    at = run[1];
    if (header % 2 === 0) {
      // a run of one value, `header / 2` times, in `valueBytes` little-endian bytes
      if (at + valueBytes > page.length) return false;
      let index = 0;
      for (let k = 0; k < valueBytes; k++) index += page[at + k]! * 2 ** (8 * k);
      at += valueBytes;
      const name = dictionary[index];
      if (name === undefined) return false;
      const to = Math.min(end, row + header / 2);
      out.fill(name, row, to);
      row = to;
    } else {
      // (header - 1) / 2 groups of eight values, `width` bits each, least significant bit first
      const groups = (header - 1) / 2;
      if (at + groups * width > page.length) return false;
      const to = Math.min(end, row + groups * 8);
      for (let bit = 8 * at; row < to; bit += width) {
        let index = 0;
        for (let b = 0; b < width; b++) index |= ((page[(bit + b) >> 3]! >> ((bit + b) & 7)) & 1) << b;
        const name = dictionary[index];
        if (name === undefined) return false;
        out[row++] = name;
      }
      at += groups * width;
    }
  }
  return true;
}

/**
 * The header of a run of Parquet's RLE / bit-packed hybrid (an unsigned LEB128 varint) at byte `at`, and the byte
 * after it; undefined when it runs to `end` or past five bytes.
 */
function runHeader(page: Uint8Array, at: number, end: number): [number, number] | undefined {
  let header = 0;
  for (let shift = 0; shift <= 28; shift += 7) {
    if (at >= end) return undefined;
    const byte = page[at++]!;
    header += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [header, at];
  }
  return undefined;
}

// typed arrays are in the machine's byte order; Parquet's values are little-endian
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Where a v1 data page's values start when none of its `count` values is null: at 0 in a required column; after the
 * definition levels of an optional one when they are a single run of "defined" (how writers level a column without
 * nulls). Undefined otherwise (nulls, levels laid out some other way, a big-endian machine): the general path reads it.
 */
function valuesStart(page: Uint8Array, count: number, optional: boolean): number | undefined {
  if (!littleEndian) return undefined;
  if (!optional) return 0;
  if (page.byteLength < 4) return undefined;
  const length = (page[0]! | (page[1]! << 8) | (page[2]! << 16) | (page[3]! << 24)) >>> 0;
  const end = 4 + length;
  if (end > page.byteLength) return undefined;
  const run = runHeader(page, 4, end);
  if (run === undefined) return undefined;
  const [header, at] = [run[0], run[1]];
  // an RLE run (low bit 0) of at least `count` levels, whose value (one byte: a bit width of 1) is 1, ending the levels
  if (header % 2 !== 0 || Math.floor(header / 2) < count || at !== end - 1 || page[at] !== 1) return undefined;
  return end;
}

// a PLAIN page of `count` byte arrays (each a 4-byte length, then its bytes) as UTF-8 strings; undefined if it overruns
function plainText(page: Uint8Array, count: number): string[] | undefined {
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  const out = new Array<string>(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 4 > page.byteLength) return undefined;
    const length = view.getUint32(at, true);
    if (at + 4 + length > page.byteLength) return undefined;
    out[i] = utf8.decode(page.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}

/** The header of the page at `offset` of `bytes`: its compressed size, how many values it holds, and where its data begins. Throws when the header is cut short. */
export function readPageHeader(bytes: Uint8Array, offset: number): { dataStart: number; compressedSize: number; values: number } {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset };
  const header = parquetHeader(reader);
  const values = header.data_page_header?.num_values ?? header.data_page_header_v2?.num_values ?? 0;
  return { dataStart: reader.offset, compressedSize: header.compressed_page_size, values };
}

/** The compressed size of each page of a chunk, in order (a chunk's layout, for tests and checks). */
export function pageSizes(bytes: Uint8Array): number[] {
  const sizes: number[] = [];
  for (let at = 0; at < bytes.byteLength - 1; ) {
    const header = readPageHeader(bytes, at);
    at = header.dataStart + header.compressedSize;
    sizes.push(header.compressedSize);
  }
  return sizes;
}

const numeric = (shape: ChunkShape) => shape.type === 'DOUBLE' || shape.date;

// a chunk decoded on this thread: plain date and double pages straight into a typed array, dictionary-encoded names
// straight into strings, anything else by hyparquet
function decodeInline(decoder: ColumnDecoder, shape: ChunkShape, rows: number, bytes: Uint8Array): ColumnValues {
  const pages = numeric(shape) ? plainPages(bytes, rows) : undefined;
  const text = shape.text ? textPages(bytes, rows) : undefined;
  const inflate = (p: Page) => decompressPage(p.compressed, p.size, decoder.codec, decoder.compressors);
  const direct = (pages && numbersOf(decoder, pages, inflate, rows)) || (text && textOf(text, inflate, rows, shape.optional));
  if (direct) return direct;
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const { data } = readColumn(reader, { groupStart: 0, groupRows: rows, selectStart: 0, selectEnd: rows }, decoder);
  if (data.length === 1) return data[0] as ColumnValues;
  const out: (number | string | null)[] = [];
  for (const part of data) for (let i = 0; i < part.length; i++) out.push((part as ArrayLike<number | string | null>)[i]!);
  return out;
}

// hyparquet's decoder of a flat column: a schema path of the root and the leaf, as its footer would give
function decoderOf(shape: ChunkShape): ColumnDecoder {
  const element: SchemaElement = {
    name: shape.name,
    type: shape.type,
    repetition_type: shape.optional ? 'OPTIONAL' : 'REQUIRED',
    ...(shape.date ? { converted_type: 'DATE', logical_type: { type: 'DATE' } } : {}),
    ...(shape.text ? { converted_type: 'UTF8', logical_type: { type: 'STRING' } } : {}),
  };
  const leaf: SchemaTree = { element, children: [], count: 1, path: [shape.name] };
  const root: SchemaTree = { element: { name: 'schema', num_children: 1 }, children: [leaf], count: 2, path: [] };
  return {
    pathInSchema: [shape.name],
    type: shape.type,
    element,
    schemaPath: [root, leaf],
    codec: shape.codec as ColumnDecoder['codec'],
    parsers: { ...DEFAULT_PARSERS, dateFromDays: (days: number) => days },
    compressors,
    utf8: true,
  };
}

/** A page's compressed bytes and its size inflated. */
interface Page {
  size: number;
  compressed: Uint8Array;
}

/** A v1 data page. */
interface PlainPage extends Page {
  header: DataPageHeader;
}

// the data pages of a chunk when all are PLAIN v1 pages (what the store writes) covering `rows`; else undefined
function plainPages(bytes: Uint8Array, rows: number): PlainPage[] | undefined {
  const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
  const pages: PlainPage[] = [];
  for (let row = 0; row < rows; ) {
    if (reader.offset >= bytes.byteLength - 1) return undefined;
    const header = parquetHeader(reader);
    const page = header.data_page_header;
    if (header.type !== 'DATA_PAGE' || !page || page.encoding !== 'PLAIN' || row + page.num_values > rows) return undefined;
    pages.push({ header: page, size: header.uncompressed_page_size, compressed: bytes.subarray(reader.offset, reader.offset + header.compressed_page_size) });
    reader.offset += header.compressed_page_size;
    row += page.num_values;
  }
  return pages;
}

/**
 * A flat DOUBLE or INT32 (date) chunk's plain pages straight into a typed array, NaN for a null double: hyparquet
 * builds a JS array of boxed numbers and nulls per page, which the reader then copied into a typed array (a quarter
 * of the time of every reservoir for a year at 44,000 reservoirs, and most of its garbage). Undefined for a null date:
 * the general path says what it is.
 */
function numbersOf(
  decoder: ColumnDecoder,
  pages: readonly PlainPage[],
  inflate: (page: PlainPage, i: number) => Uint8Array,
  rows: number,
  owned = false, // the inflated bytes are this call's alone: a one-page chunk's values may be a view of them
): Float64Array | Int32Array | undefined {
  const doubles = decoder.type === 'DOUBLE';
  if (owned && pages.length === 1 && pages[0]!.header.num_values === rows) {
    // the values as they lie in the inflated page, when they lie on their element size (the store's pages of 8,192
    // rows do: 8 bytes of definition levels precede them): no copy, no zeroed array of the chunk's size
    const bytes = inflate(pages[0]!, 0);
    const start = valuesStart(bytes, rows, decoder.element.repetition_type === 'OPTIONAL');
    const width = doubles ? 8 : 4;
    if (start !== undefined && bytes.byteLength - start >= rows * width && (bytes.byteOffset + start) % width === 0) {
      return doubles ? new Float64Array(bytes.buffer, bytes.byteOffset + start, rows) : new Int32Array(bytes.buffer, bytes.byteOffset + start, rows);
    }
  }
  const out = doubles ? new Float64Array(rows) : new Int32Array(rows);
  const width = out.BYTES_PER_ELEMENT;
  let row = 0;
  for (let i = 0; i < pages.length; i++) {
    const page = pages[i]!;
    const bytes = inflate(page, i);
    const count = page.header.num_values;
    const start = valuesStart(bytes, count, decoder.element.repetition_type === 'OPTIONAL');
    if (start !== undefined && bytes.byteLength - start >= count * width) {
      // no nulls: the page's values are the column's bytes as they are
      new Uint8Array(out.buffer, row * width, count * width).set(bytes.subarray(start, start + count * width));
      row += count;
      continue;
    }
    const { definitionLevels, dataPage } = readDataPage(bytes, page.header, decoder);
    const values = dataPage as Float64Array | Int32Array;
    if (!definitionLevels?.length) out.set(values, row);
    else if (!doubles) return undefined;
    else for (let j = 0, k = 0; j < count; j++) out[row + j] = definitionLevels[j] === 1 ? values[k++]! : NaN;
    row += count;
  }
  return out;
}
