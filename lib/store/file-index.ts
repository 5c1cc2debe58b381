// The index written beside each data file (`<file>.index.json`, named by the manifest with its size and SHA-256): the
// file's layout as its footer gives it (columns, row groups, chunk ranges and checksums, dates and names per group),
// in a few hundred bytes of JSON a fresh process parses natively, so a query finds its chunks without reading the
// footer. It is a pure function of the footer: the writer makes it from the footer it wrote, `evap verify` makes it
// again from the footer and compares the text.

import type { FileLayout } from './parquet.js';
import type { ChunkShape } from './parquet-decode.js';

const FORMAT = 'evap-file-index';
const VERSION = 1;

/** The index file's path beside its data file. */
export function indexPath(dataPath: string): string {
  return `${dataPath.replace(/\.parquet$/, '')}.index.json`;
}

interface IndexDocument {
  format: typeof FORMAT;
  version: number;
  columns: ChunkShape[];
  // by row group: rows, [first, last] date or null, [least, greatest] name or null, then per column [start, end, sum]
  groups: [number, [number, number] | null, [string, string] | null, [number, number, string][]][];
}

/** The index text of a file's layout (its footer's): the same layout always gives the same text. */
export function fileIndexText(layout: FileLayout): string {
  if (!layout.sums) throw new Error('a file index needs the chunk checksums of the footer');
  const doc: IndexDocument = {
    format: FORMAT,
    version: VERSION,
    columns: layout.shapes.map((s) => ({ name: s.name, type: s.type, codec: s.codec, optional: s.optional, date: s.date, text: s.text })),
    groups: layout.ranges.map((group, g) => [
      layout.groupStarts[g + 1]! - layout.groupStarts[g]!,
      layout.days[g] ?? null,
      layout.names[g] ?? null,
      group.map(([start, end], c) => [start, end, layout.sums![g]![c]!]),
    ]),
  };
  return JSON.stringify(doc);
}

/**
 * The layout an index text gives, checked against what the manifest says of the data file (rows, and chunks within
 * its data bytes); any inconsistency is an Error saying what (the reader then falls back to the footer).
 */
export function parseFileIndex(text: string, file: { rows: number; bytes: number; footerBytes: number }): FileLayout {
  const doc = JSON.parse(text) as IndexDocument;
  if (doc?.format !== FORMAT || doc.version !== VERSION || !Array.isArray(doc.columns) || !Array.isArray(doc.groups)) {
    throw new Error(`not a version ${VERSION} file index`);
  }
  const shapes = doc.columns.map(checkShape);
  const columns = new Map(shapes.map((s, i) => [s.name, i]));
  if (columns.size !== shapes.length) throw new Error('a column is named twice');
  const dataEnd = file.bytes - file.footerBytes;
  const groupStarts = [0];
  const ranges: [number, number][][] = [];
  const sums: string[][] = [];
  const days: ([number, number] | undefined)[] = [];
  const names: ([string, string] | undefined)[] = [];
  // indexed loops, no destructuring: this runs once per file in a fresh process, before the optimizing compiler sees
  // it, where an array pattern walks the iterator protocol (a one-reservoir answer over 192 files spent 7% here)
  for (let g = 0; g < doc.groups.length; g++) {
    const group = doc.groups[g]!;
    if (!Array.isArray(group) || group.length !== 4 || !Array.isArray(group[3]) || group[3].length !== shapes.length)
      throw new Error('a row group is malformed');
    const rows = group[0];
    if (!Number.isSafeInteger(rows) || rows <= 0) throw new Error('a row group has no rows');
    groupStarts.push(groupStarts[groupStarts.length - 1]! + rows);
    days.push(pair(group[1], isWhole));
    names.push(pair(group[2], isText));
    const chunks = group[3];
    const groupRanges = new Array<[number, number]>(chunks.length);
    const groupSums = new Array<string>(chunks.length);
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c] as unknown;
      if (!Array.isArray(chunk)) throw new Error('a column chunk is malformed');
      const start = chunk[0] as number;
      const end = chunk[1] as number;
      const sum = chunk[2] as unknown;
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end <= start || end > dataEnd) {
        throw new Error('a column chunk lies outside the data bytes');
      }
      // its length only: a sum that is not lowercase hex never equals a chunk's own, so that chunk is refused when
      // read (a pattern test of every sum was a third of this parse)
      if (typeof sum !== 'string' || sum.length !== 32) throw new Error('a column chunk has no checksum');
      groupRanges[c] = [start, end];
      groupSums[c] = sum;
    }
    ranges.push(groupRanges);
    sums.push(groupSums);
  }
  if (groupStarts[groupStarts.length - 1] !== file.rows) throw new Error(`it counts ${groupStarts[groupStarts.length - 1]} rows, the manifest ${file.rows}`);
  return { columns, groupStarts, ranges, shapes, sums, days, names };
}

const types = new Set(['BOOLEAN', 'INT32', 'INT64', 'INT96', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY']);

function checkShape(value: unknown): ChunkShape {
  const s = value as ChunkShape;
  if (
    typeof s?.name !== 'string' ||
    !types.has(s.type) ||
    typeof s.codec !== 'string' ||
    typeof s.optional !== 'boolean' ||
    typeof s.date !== 'boolean' ||
    typeof s.text !== 'boolean'
  ) {
    throw new Error('a column is malformed');
  }
  return { name: s.name, type: s.type, codec: s.codec, optional: s.optional, date: s.date, text: s.text };
}

function pair<T>(value: unknown, ok: (v: unknown) => boolean): [T, T] | undefined {
  if (value === null) return undefined;
  if (!Array.isArray(value) || value.length !== 2 || !ok(value[0]) || !ok(value[1])) throw new Error('a row group range is malformed');
  return value as [T, T];
}

const isWhole = (v: unknown) => Number.isSafeInteger(v);
const isText = (v: unknown) => typeof v === 'string';
