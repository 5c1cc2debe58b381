// A frame's rows as records, or as JSON objects and CSV rows written as UTF-8 bytes straight from its columns with
// bytes.ts's writers: the same text as JSON.stringify and recordsToCsv of its records, without making them.
import type { WireValue } from '../types.js';
import { bufferOf, copyBytes, isAscii, LONE_SURROGATE, SLACK, TEXT_PIECE_CHARS, textOf, writeAscii, writeDay, writeRounded } from './bytes.js';
import { csvField, formatNumber, recordsToCsv } from './csv.js';
import { type Frame, type FrameColumn, RecentShapes } from './frame.js';
import { frameRecords } from './frame-records.js';

const encoder = new TextEncoder();
const INDEX_KEY = /^(0|[1-9]\d*)$/;

// A value's text in each kind of output, as JSON.stringify and recordsToCsv write it.
const textOfValue = {
  json: (value: WireValue) => JSON.stringify(value),
  csv: (value: WireValue) => (value === null ? '' : typeof value === 'number' ? formatNumber(value) : csvField(value)),
};

/** A list of labels' JSON strings (or CSV fields) as UTF-8, end to end, and where each begins. */
interface LabelsText {
  view: DataView; // their bytes (SLACK bytes spare past the last), read eight at a time
  offsets: Int32Array; // label i is bytes [offsets[i], offsets[i + 1])
  ascii: boolean;
  widest: number; // the most bytes of a label
}

// kept per labels list (a snapshot's names) while it lives: about the names' own size per kind (1 MB at 44,000 water
// bodies), so every name on a date asked again is written by copying bytes; null: CSV text that is not UTF-8
const labelsTexts = new WeakMap<readonly string[], { json?: LabelsText; csv?: LabelsText | null }>();

function labelsText(labels: readonly string[], kind: 'json' | 'csv'): LabelsText | null {
  let kept = labelsTexts.get(labels);
  if (!kept) labelsTexts.set(labels, (kept = {}));
  const known = kept[kind];
  if (known !== undefined) return known;
  const texts = labels.map(textOfValue[kind]);
  if (kind === 'csv' && texts.some((t) => LONE_SURROGATE.test(t))) return (kept.csv = null);
  // one encoding of them all, not one a label (a fresh process's first answer on a date makes this for every name)
  const joined = texts.join('');
  const encoded = encoder.encode(joined);
  const ascii = encoded.length === joined.length; // UTF-8 is longer than UTF-16 for any code unit past ASCII
  const offsets = new Int32Array(texts.length + 1);
  let widest = 0;
  for (let i = 0; i < texts.length; i++) {
    const length = ascii ? texts[i]!.length : Buffer.byteLength(texts[i]!);
    offsets[i + 1] = offsets[i]! + length;
    if (length > widest) widest = length;
  }
  const bytes = new Uint8Array(encoded.length + SLACK);
  bytes.set(encoded);
  return (kept[kind] = { view: new DataView(bytes.buffer), offsets, ascii, widest });
}

const wordsOf = (length: number): [Float64Array, Uint8Array] => {
  const words = new Float64Array(length);
  return [words, new Uint8Array(words.buffer)];
};

// a slot's text holding a 'same' value (the name) as UTF-8, in a buffer kept per slot (a view of it: read before the
// next frame's)
const slotBuffers: Uint8Array[] = [];
function encodeSlot(h: number, text: string): Uint8Array {
  let into = slotBuffers[h];
  if (!into || into.length < 3 * text.length) into = slotBuffers[h] = new Uint8Array(Math.max(256, 3 * text.length)); // UTF-8: at most 3 bytes a UTF-16 unit
  return into.subarray(0, encoder.encodeInto(text, into).written);
}

// what a varying column is, read in the rows' loop as a small integer
const DAY = 0;
const NUMBER = 1;
const LABEL = 2;
const VALUE = 3;
const NO_ROWS = new Float64Array(0);

/** What a frame's keys and kinds make of its text, worked out once per shape (and output) for the frames that follow. */
interface Shape {
  json: boolean;
  header: readonly string[]; // CSV: the answer's columns
  keys: string[]; // the frame's columns' keys and kinds, to know the shape again
  kinds: FrameColumn['kind'][];
  viaRecords: boolean; // JSON with a key an object would put first (an array index) or give once (a key twice)
  varying: number[]; // the frame's columns written a value a row, in the text's order
  codes: Uint8Array; // their kinds: DAY, NUMBER, LABEL or VALUE
  slots: (string | number)[][]; // the constant text before each varying column and after the last: text, and 'same' columns by index
  fixed: (Uint8Array | undefined)[]; // a slot's bytes, when it holds no 'same' column
  fixedAscii: boolean;
  bytes: Uint8Array[]; // each slot's bytes for the frame being written
  layout: RowLayout; // filled for each frame, which is written before the next (frameText returns its text)
}

const shapes = new RecentShapes<Shape>(16);

function shapeOf(frame: Frame, kind: 'json' | 'csv', header: readonly string[]): Shape {
  const json = kind === 'json';
  return shapes.find(
    (shape) => fits(shape, frame.columns, json, header),
    () => makeShape(frame, json, header),
  );
}

function fits(shape: Shape, columns: readonly FrameColumn[], json: boolean, header: readonly string[]): boolean {
  if (shape.json !== json || (!json && shape.header !== header) || shape.keys.length !== columns.length) return false;
  for (let k = 0; k < columns.length; k++) if (columns[k]!.key !== shape.keys[k] || columns[k]!.kind !== shape.kinds[k]) return false;
  return true;
}

function makeShape(frame: Frame, json: boolean, header: readonly string[]): Shape {
  const keys = frame.columns.map((c) => c.key);
  const kinds = frame.columns.map((c) => c.kind);
  const last = new Map(frame.columns.map((c, k) => [c.key, k])); // a key's last column holds its values
  const viaRecords = json && (last.size !== keys.length || keys.some((k) => INDEX_KEY.test(k)));
  const placed: [before: string, column: number | undefined][] = json
    ? keys.map((key, k) => [`${k === 0 ? '' : ','}${JSON.stringify(key)}:`, k])
    : header.map((key, k) => [k === 0 ? '' : ',', last.get(key)]);
  const slots: (string | number)[][] = [[json ? '{' : '']];
  const varying: number[] = [];
  for (const [before, k] of placed) {
    slots.at(-1)!.push(before);
    if (k === undefined) continue;
    if (kinds[k] === 'same') slots.at(-1)!.push(k);
    else {
      const quote = json && kinds[k] === 'day' ? '"' : ''; // a date is a JSON string
      slots.at(-1)!.push(quote);
      varying.push(k);
      slots.push([quote]);
    }
  }
  slots.at(-1)!.push(json ? '}' : '\n');
  // each slot's literal text joined: a slot is then one text, or texts around 'same' columns
  const joined = slots.map((pieces) =>
    pieces.reduce<(string | number)[]>((out, p) => {
      if (typeof p === 'string' && typeof out.at(-1) === 'string') out[out.length - 1] += p;
      else out.push(p);
      return out;
    }, []),
  );
  const codes = Uint8Array.from(varying, (k) => ({ day: DAY, number: NUMBER, label: LABEL, value: VALUE, same: VALUE })[kinds[k]!]);
  const fixed = joined.map((pieces) => (pieces.every((p) => typeof p === 'string') ? encoder.encode(pieces.join('')) : undefined));
  const fixedAscii = fixed.every((b) => b === undefined || b.every((c) => c < 128));
  const n = varying.length;
  const [words, wordBytes] = wordsOf(0);
  const layout: RowLayout = {
    json,
    kinds: codes,
    arrays: varying.map(() => NO_ROWS),
    factors: new Float64Array(n),
    offsets: new Float64Array(n),
    words, // written by the first frame, again where a slot holds a 'same' value
    wordBytes,
    first: new Int32Array(n + 2),
    lengths: new Int32Array(n + 1),
    labels: varying.map(() => undefined),
  };
  return { json, header, keys, kinds, viaRecords, varying, codes, slots: joined, fixed, fixedAscii, bytes: [], layout };
}

/**
 * The frame's rows as JSON object text (objects separated by commas, no brackets) or as CSV rows under the answer's
 * `columns` (a column the frame lacks is empty), in strings of about TEXT_PIECE_CHARS each.
 */
export function frameText(frame: Frame, kind: 'json' | 'csv', columns: readonly string[]): string[] {
  const rows = frame.rows;
  if (rows === 0) return [];
  const shape = shapeOf(frame, kind, columns);
  if (shape.viaRecords) return [JSON.stringify(frameRecords(frame)).slice(1, -1)];
  const { json, varying, slots, fixed, layout } = shape;
  const { arrays, factors, offsets, first, lengths, labels } = layout; // the shape's, filled for this frame
  const asText = textOfValue[kind];
  const n = varying.length;
  let ascii = shape.fixedAscii;
  let withValues = false;
  // each varying column's array and conversion, read by index in the loop, and the row's most bytes: its constant
  // texts, a comma, 16 a day, 25 a number, the widest label (a value's text is counted a row at a time)
  let rowBytes = 1;
  for (let h = 0; h < n; h++) {
    const c = frame.columns[varying[h]!]!;
    arrays[h] = NO_ROWS;
    [factors[h], offsets[h]] = [1, 0];
    if (c.kind === 'day') [arrays[h], rowBytes] = [c.days, rowBytes + 16];
    else if (c.kind === 'number') {
      [arrays[h], rowBytes] = [c.values, rowBytes + 25];
      if (c.factor !== undefined) [factors[h], offsets[h]] = [c.factor, c.offset ?? 0];
    } else if (c.kind === 'label') {
      const text = (labels[h] = labelsText(c.labels, kind));
      if (text === null) return [recordsToCsv(frameRecords(frame), columns, false)]; // CSV with a lone surrogate is not UTF-8
      [arrays[h], rowBytes] = [c.at, rowBytes + text.widest];
      ascii &&= text.ascii;
    } else if (c.kind === 'value') {
      withValues = true;
      if (!json && c.values.some((v) => typeof v === 'string' && LONE_SURROGATE.test(v))) return [recordsToCsv(frameRecords(frame), columns, false)];
    }
  }
  // the constant texts (with the frame's 'same' values) as doubles end to end, text h from word first[h]
  let rewrite = layout.words.length === 0;
  for (let h = 0; h <= n; h++) {
    let b = fixed[h];
    if (b === undefined) {
      let text = '';
      for (const p of slots[h]!) text += typeof p === 'string' ? p : asText((frame.columns[p] as Extract<FrameColumn, { kind: 'same' }>).value);
      if (!json && LONE_SURROGATE.test(text)) return [recordsToCsv(frameRecords(frame), columns, false)];
      b = encodeSlot(h, text);
      if (ascii) for (let k = 0; k < b.length; k++) if (b[k]! > 127) ascii = false;
      rewrite = true;
    }
    shape.bytes[h] = b;
  }
  if (rewrite) {
    for (let h = 0; h <= n; h++) {
      lengths[h] = shape.bytes[h]!.length;
      first[h + 1] = first[h]! + ((lengths[h]! + 7) >> 3);
    }
    if (layout.words.length < first[n + 1]!) [layout.words, layout.wordBytes] = wordsOf(2 * first[n + 1]!);
    const wordBytes = layout.wordBytes;
    for (let h = 0; h <= n; h++) wordBytes.set(shape.bytes[h]!, 8 * first[h]!);
  }
  for (let h = 0; h <= n; h++) rowBytes += lengths[h]!;
  let pieces: string[];
  if (withValues) pieces = writeRowsWithValues(layout, rows, rowBytes, ascii, frame, varying, asText);
  else {
    // rows of known most bytes are cut into pieces by count, with no test a row
    const pieceRows = Math.max(1, Math.floor(TEXT_PIECE_CHARS / rowBytes));
    const [buf, view] = bufferOf(rowBytes * Math.min(rows, pieceRows));
    pieces = [];
    for (let start = 0; start < rows; start += pieceRows)
      pieces.push(textOf(buf, writeRows(layout, start, Math.min(rows, start + pieceRows), buf, view), ascii));
  }
  arrays.fill(NO_ROWS); // the shape keeps no frame's columns alive
  labels.fill(undefined);
  return pieces;
}

/** How a frame's rows are written: the constant text between varying columns, and how each of those is read. */
interface RowLayout {
  json: boolean;
  kinds: Uint8Array; // DAY, NUMBER, LABEL or VALUE
  arrays: ArrayLike<number>[]; // days, values or label indexes
  factors: Float64Array; // a number column's conversion (1 and 0 where none)
  offsets: Float64Array;
  words: Float64Array; // the constant texts' bytes as doubles, text h from word first[h], lengths[h] bytes long
  wordBytes: Uint8Array; // the same bytes
  first: Int32Array;
  lengths: Int32Array;
  labels: (LabelsText | null | undefined)[]; // a label column's encoded labels
}

// rows [from, to) written into `buf` at `at` (a VALUE column's text in `texts`: one row); returns the end
function writeRows(layout: RowLayout, from: number, to: number, buf: Uint8Array, view: DataView, at = 0, texts?: readonly string[]): number {
  const { json, kinds, arrays, factors, offsets, words, first, lengths } = layout;
  const n = kinds.length;
  for (let i = from; i < to; i++) {
    if (json && at > 0) buf[at++] = 44; // ','
    for (let w = 0, into = at; w < first[1]!; w++, into += 8) view.setFloat64(into, words[w]!, true);
    at += lengths[0]!;
    for (let h = 0; h < n; h++) {
      const kind = kinds[h];
      if (kind === NUMBER) {
        // factor 1 and offset 0 where not converted: the same double, but -0, which is written 0 all the same
        const x = arrays[h]![i]! * factors[h]! + offsets[h]!;
        if (x !== x || (json && !Number.isFinite(x))) {
          if (json) at = writeAscii(buf, at, 'null'); // JSON.stringify writes NaN and Infinity as null; CSV leaves NaN empty
        } else at = writeRounded(view, buf, at, x);
      } else if (kind === DAY) at = writeDay(view, buf, at, arrays[h]![i]!);
      else at = writeLabel(layout, h, i, buf, view, at, texts);
      const end = first[h + 2]!;
      for (let w = first[h + 1]!, into = at; w < end; w++, into += 8) view.setFloat64(into, words[w]!, true);
      at += lengths[h + 1]!;
    }
  }
  return at;
}

// a LABEL column's text in row i, copied from its labels' bytes, or a VALUE column's (in `texts`); apart from the
// rows' loop, which stays small enough for its calls to be inlined
function writeLabel(layout: RowLayout, h: number, i: number, buf: Uint8Array, view: DataView, at: number, texts?: readonly string[]): number {
  if (layout.kinds[h] === LABEL) {
    const { view: source, offsets: starts } = layout.labels[h]!;
    const label = layout.arrays[h]![i]!;
    return copyBytes(view, at, source, starts[label]!, starts[label + 1]!);
  }
  const text = texts![h]!;
  return isAscii(text) ? writeAscii(buf, at, text) : at + encoder.encodeInto(text, buf.subarray(at)).written;
}

// rows with VALUE columns (text of any length a row: a forecast's lead range, a day flag) a row at a time, a piece
// cut where the next row might not fit
function writeRowsWithValues(
  layout: RowLayout,
  rows: number,
  rowBytes: number,
  ascii: boolean,
  frame: Frame,
  varying: readonly number[],
  asText: (value: WireValue) => string,
): string[] {
  const pieces: string[] = [];
  const texts: string[] = new Array(varying.length);
  let [buf, view] = bufferOf(TEXT_PIECE_CHARS + rowBytes);
  let at = 0;
  for (let i = 0; i < rows; i++) {
    let most = rowBytes;
    for (let h = 0; h < varying.length; h++) {
      if (layout.kinds[h] !== VALUE) continue;
      const text = asText((frame.columns[varying[h]!] as Extract<FrameColumn, { kind: 'value' }>).values[i]!);
      texts[h] = text;
      most += 3 * text.length; // UTF-8: at most 3 bytes a UTF-16 unit
      if (ascii && !isAscii(text)) ascii = false;
    }
    if (at > 0 && (at >= TEXT_PIECE_CHARS || at + most + SLACK > buf.length)) {
      pieces.push(textOf(buf, at, ascii));
      at = 0;
    }
    if (most + SLACK > buf.length) [buf, view] = bufferOf(most);
    at = writeRows(layout, i, i + 1, buf, view, at, texts);
  }
  pieces.push(textOf(buf, at, ascii));
  return pieces;
}
