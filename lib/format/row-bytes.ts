// JSON and CSV rows of a block written as UTF-8 bytes straight from its column vectors: no record object, no string
// per row or per value. The rows' text then becomes strings of about 64 KiB (text-pieces.ts), each in a single copy. On
// every reservoir for a year (16 million rows at 44,000 water bodies) making a string per row and joining them spent
// most of the time in the garbage collector; this writes the same text with one reused buffer.
import { civilOfDay, formatDay } from '../dates.js';
import { roundValue } from '../units.js';
import { csvField, FRACTIONS } from './csv.js';
import type { Emitter, ResolvedVariable } from './emitter.js';
import { TEXT_PIECE_CHARS } from './text-pieces.js';

const encoder = new TextEncoder();
const bytesOf = (text: string): Uint8Array => encoder.encode(text);

// Text is written eight bytes at a time as a double (setFloat64), where a store a word or a byte took longer: warm Q3 at
// 44,000 30.5 -> 25 ms. A double read and written back keeps its bytes; were a NaN's ever changed, UTF-8 text never
// spells one (its exponent needs a byte >= 0xf0 followed by 0x7f or 0xff, where UTF-8 follows 0xf0-0xf4 with 0x80-0xbf).
// Every write may run up to 7 bytes past its text, which the next write covers: each buffer keeps SLACK bytes spare.
export const SLACK = 8;

// the fraction texts of csv.ts ('', '.0001' .. '.9999'), each padded to one double
const FRACTION_TEXT = new Float64Array(10_000);
const FRACTION_LENGTH = new Uint8Array(10_000);
{
  const bytes = new Uint8Array(FRACTION_TEXT.buffer);
  FRACTIONS.forEach((text, f) => {
    FRACTION_LENGTH[f] = text.length;
    for (let k = 0; k < text.length; k++) bytes[8 * f + k] = text.charCodeAt(k);
  });
}

// formatDay's text of the days from 1870 to 2170, 10 bytes each padded to two doubles, filled the first time a day is
// written
const FIRST_DAY = -36_525;
const DAY_SPAN = 109_575;
const DAY_TEXT = new Float64Array(2 * DAY_SPAN);
const DAY_BYTES = new Uint8Array(DAY_TEXT.buffer);
const DAY_FILLED = new Uint8Array(DAY_SPAN);
const digit = (n: number) => 48 + (Math.floor(n) % 10); // the ASCII code of the units digit of n (n >= 0)

// one buffer reused by every block (its text is copied out into a string before the next block), and a view of it that
// writes eight bytes at once at any offset (DataView's accessors are inlined by the optimizing compiler)
const KEPT_SCRATCH = 4 << 20;
let scratch = new Uint8Array(1 << 16);
let scratchView = new DataView(scratch.buffer);
let scratchText = Buffer.from(scratch.buffer); // the same bytes, for their text

/** Constant bytes as doubles, the last padded with zeros, to write eight at a time (put). */
interface Segment {
  doubles: Float64Array;
  length: number;
}

function segmentOf(bytes: Uint8Array): Segment {
  const padded = new Uint8Array(8 * Math.ceil(bytes.length / 8));
  padded.set(bytes);
  return { doubles: new Float64Array(padded.buffer), length: bytes.length };
}

export function putBytes(buf: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let k = 0; k < bytes.length; k++) buf[at + k] = bytes[k]!;
  return at + bytes.length;
}

// bytes [from, to) of `source` (readable 7 bytes past `to`) into `view`'s buffer at `at`, eight at a time;
// returns the end
function copyBytes(view: DataView, at: number, source: DataView, from: number, to: number): number {
  for (let k = from, into = at; k < to; k += 8, into += 8) view.setFloat64(into, source.getFloat64(k, true), true);
  return at + to - from;
}

function put(view: DataView, at: number, segment: Segment): number {
  const doubles = segment.doubles;
  for (let w = 0; w < doubles.length; w++) view.setFloat64(at + 8 * w, doubles[w]!, true);
  return at + segment.length;
}

/**
 * A number's text as formatNumber (csv.ts) writes it, into `buf` at `at`; returns the end. `value` is already rounded.
 * The fraction is written as five bytes whatever its length (the buffer holds 25 bytes a value), then the end moved back.
 */
function writeNumber(view: DataView, buf: Uint8Array, at: number, value: number): number {
  const scaled = Math.round(value * 1e4);
  if (scaled / 1e4 !== value || Math.abs(value) >= 1e11) return writeAscii(buf, at, String(value));
  let digits = scaled;
  if (scaled < 0) {
    buf[at++] = 45; // '-'
    digits = -scaled;
  }
  let whole = Math.floor(digits / 1e4);
  const fraction = digits - whole * 1e4;
  if (whole < 10) buf[at++] = 48 + whole;
  else {
    let width = 2;
    for (let w = whole; w >= 100; w = Math.floor(w / 10)) width++;
    for (let k = at + width - 1; k >= at; k--) {
      const next = Math.floor(whole / 10);
      buf[k] = 48 + whole - next * 10;
      whole = next;
    }
    at += width;
  }
  view.setFloat64(at, FRACTION_TEXT[fraction]!, true);
  return at + FRACTION_LENGTH[fraction]!;
}

// '00' .. '99' as little-endian 16-bit words: the integer part is written two digits at a time
const DIGIT_PAIRS = Uint16Array.from({ length: 100 }, (_, n) => 48 + Math.floor(n / 10) + (48 + (n % 10)) * 256);

/**
 * writeNumber(roundValue(value)) in one step: below 1e11 the rounded value's 4-decimal digits are the integer
 * Math.round(|value| * 1e4) that roundValue divides (the division and writeNumber's product give it back exactly up to
 * 1e15, half a unit away at most), so they are written from it; -0 and values that round to 0 are written as 0.
 */
export function writeRounded(view: DataView, buf: Uint8Array, at: number, value: number): number {
  const magnitude = value < 0 ? -value : value;
  if (!(magnitude < 1e11)) return writeNumber(view, buf, at, roundValue(value));
  const digits = Math.round(magnitude * 1e4);
  if (value < 0 && digits !== 0) buf[at++] = 45; // '-'
  // in 32-bit integers when they hold the digits (values below 214,748): a division by a constant is then a multiply
  let whole = digits < 2 ** 31 ? ((digits | 0) / 10_000) | 0 : Math.floor(digits / 1e4);
  const fraction = digits - whole * 1e4;
  if (whole < 10) buf[at++] = 48 + whole;
  else {
    let width = 2;
    for (let limit = 100; whole >= limit && width < 12; limit *= 10) width++;
    let k = at + width;
    while (whole >= 100) {
      const next = Math.floor(whole / 100);
      view.setUint16(k - 2, DIGIT_PAIRS[whole - next * 100]!, true);
      whole = next;
      k -= 2;
    }
    if (whole >= 10) view.setUint16(k - 2, DIGIT_PAIRS[whole]!, true);
    else buf[k - 1] = 48 + whole;
    at += width;
  }
  view.setFloat64(at, FRACTION_TEXT[fraction]!, true);
  return at + FRACTION_LENGTH[fraction]!;
}

export function writeAscii(buf: Uint8Array, at: number, text: string): number {
  for (let k = 0; k < text.length; k++) buf[at + k] = text.charCodeAt(k);
  return at + text.length;
}

export function writeDay(view: DataView, buf: Uint8Array, at: number, day: number): number {
  const slot = day - FIRST_DAY;
  if (slot >= 0 && slot < DAY_SPAN && (day | 0) === day) {
    if (DAY_FILLED[slot] === 0) {
      // the digits straight from the calendar date (years 1870-2170 here: four digits), nothing made per day: a fresh
      // process's answer of decades (16,802 days) fills a slot a day
      const [year, month, date] = civilOfDay(day);
      const b = 16 * slot;
      for (let k = 0; k < 4; k++) DAY_BYTES[b + k] = digit(year / 10 ** (3 - k));
      DAY_BYTES[b + 4] = DAY_BYTES[b + 7] = 45; // '-'
      DAY_BYTES[b + 5] = digit(month / 10);
      DAY_BYTES[b + 6] = digit(month);
      DAY_BYTES[b + 8] = digit(date / 10);
      DAY_BYTES[b + 9] = digit(date);
      DAY_FILLED[slot] = 1;
    }
    view.setFloat64(at, DAY_TEXT[2 * slot]!, true);
    view.setFloat64(at + 8, DAY_TEXT[2 * slot + 1]!, true);
    return at + 10;
  }
  return writeAscii(buf, at, formatDay(day)); // an ISO date is ASCII
}

// the bytes of a block's head (0) and tail (1), in small buffers kept between blocks (a block may be a single row)
const sides = [new Uint8Array(256), new Uint8Array(256)];

function encodeSide(side: 0 | 1, text: string, ascii: boolean): Uint8Array {
  if (sides[side]!.length < 3 * text.length) sides[side] = new Uint8Array(3 * text.length); // UTF-8: at most 3 bytes a UTF-16 unit
  const into = sides[side]!;
  return into.subarray(0, ascii ? writeAscii(into, 0, text) : encoder.encodeInto(text, into).written);
}

/** The head of a block's rows (the name's key, the name, the start date's key) as bytes, without joining the text. */
function encodeHead(before: Uint8Array, name: string, after: Uint8Array, ascii: boolean): Uint8Array {
  const need = before.length + 3 * name.length + after.length; // UTF-8: at most 3 bytes a UTF-16 unit
  if (sides[0]!.length < need) sides[0] = new Uint8Array(need);
  const into = sides[0]!;
  let at = putBytes(into, 0, before);
  at = ascii ? writeAscii(into, at, name) : at + encoder.encodeInto(name, into.subarray(at)).written;
  return into.subarray(0, putBytes(into, at, after));
}

export function isAscii(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) > 127) return false;
  return true;
}

export const LONE_SURROGATE = /\p{Cs}/u;
const INDEX_KEY = /^(0|[1-9]\d*)$/;

/**
 * An emitter of JSON or CSV text that writes bytes (the Emitter contract of emit.ts: `name` and `extra` come as JSON
 * text or CSV fields); undefined for the shapes it cannot write exactly, which stay with the string emitters: a key
 * that is an array index or comes twice (object key order), and, per block, CSV text with a lone surrogate (not UTF-8).
 */
export function byteEmitter(
  nameKey: string,
  variables: readonly ResolvedVariable[],
  held: readonly boolean[],
  extraKeys: readonly string[],
  kind: 'json' | 'csv',
  fallback: Emitter,
): Emitter | undefined {
  const json = kind === 'json';
  const keys = [nameKey, 'start_date', 'end_date', ...variables.map((v) => v.key), ...extraKeys];
  if (json && (keys.some((k) => INDEX_KEY.test(k)) || new Set(keys).size !== keys.length)) return undefined;
  const key = (k: string, first = false) => (json ? `${first ? '{' : ','}${JSON.stringify(k)}:` : first ? '' : ',');
  // the constant text after the second date, before each held value and after the last one (unheld values inside)
  const between: string[] = [json ? '"' : ''];
  const factors: number[] = [];
  const offsets: number[] = [];
  const columnOf: number[] = [];
  variables.forEach((v, j) => {
    between[between.length - 1] += key(v.key);
    if (!held[j]) between[between.length - 1] += json ? 'null' : '';
    else {
      columnOf.push(j);
      factors.push(v.factor);
      offsets.push(v.offset);
      between.push('');
    }
  });
  const middle = between.slice(0, -1).map(bytesOf);
  const middleSegments = middle.map(segmentOf);
  const last = between.at(-1)!;
  const [headKey, startKey] = [key(nameKey, true), json ? `${key('start_date')}"` : ','];
  const endText = segmentOf(bytesOf(json ? `"${key('end_date')}"` : ','));
  const ascii = isAscii(headKey) && middle.every((b) => b.every((c) => c < 128));
  const [headKeyBytes, startKeyBytes] = [bytesOf(headKey), bytesOf(startKey)];
  const close = json ? '}' : '\n';
  const plainTail = extraKeys.length === 0 ? `${last}${close}` : undefined; // no attributes: the same tail every block
  const plainTailBytes = plainTail === undefined ? undefined : bytesOf(plainTail);
  const values = columnOf.length;
  const constantBytes = middle.reduce((n, b) => n + b.length, 0) + endText.length;

  // the values' keys' doubles end to end (keyFirst: where each begins), read in the rows' loops without a segment
  // object a value (a put() of each: warm Q3 at 44,000 26 -> 22 ms)
  const keyFirst = new Int32Array(values + 1);
  for (let h = 0; h < values; h++) keyFirst[h + 1] = keyFirst[h]! + middleSegments[h]!.doubles.length;
  const keyWords = new Float64Array(keyFirst[values]!);
  middleSegments.forEach((m, h) => keyWords.set(m.doubles, keyFirst[h]!));
  const keyLength = Int32Array.from(middleSegments, (m) => m.length);

  const emit: Emitter = (out, name, days, columns, from, to, extra) => {
    if (to <= from) return;
    const nameText = name as string;
    let tailText = plainTail;
    if (tailText === undefined) {
      tailText = last;
      for (let e = 0; e < extraKeys.length; e++) tailText += `${key(extraKeys[e]!)}${extra[e] as string}`;
      tailText += close;
    }
    if (!json && (LONE_SURROGATE.test(nameText) || LONE_SURROGATE.test(tailText))) return fallback(out, name, days, columns, from, to, extra);
    const asciiText = ascii && isAscii(nameText) && (plainTail !== undefined || isAscii(tailText));
    const head = encodeHead(headKeyBytes, nameText, startKeyBytes, asciiText);
    const tail = plainTail === undefined ? encodeSide(1, tailText, asciiText) : plainTailBytes!;
    // as segments when the block has rows enough to repay making them (one date of every name: a row a block)
    const [headSegment, tailSegment] = to - from > 4 ? [segmentOf(head), segmentOf(tail)] : [undefined, undefined];
    const c0 = values > 0 ? columns[columnOf[0]!] : undefined;
    const c1 = values > 1 ? columns[columnOf[1]!] : undefined;
    const c2 = values > 2 ? columns[columnOf[2]!] : undefined;
    const c3 = values > 3 ? columns[columnOf[3]!] : undefined;
    // each row: head, date, end key, date, then (between, value) per held value, the tail; a comma between JSON rows
    const rowBytes = head.length + tail.length + constantBytes + 20 + 25 * values + 1;
    // a piece of rows at a time, whose text stays within TEXT_PIECE_CHARS (a test per row cost a year of every
    // reservoir 3-5%)
    const pieceRows = Math.max(1, Math.floor(TEXT_PIECE_CHARS / rowBytes));
    const [buf, view] = bufferOf(rowBytes * Math.min(to - from, pieceRows));
    for (let start = from; start < to; start += pieceRows) {
      const end = Math.min(to, start + pieceRows);
      let at = 0;
      for (let i = start; i < end; i++) {
        if (json && i > start) buf[at++] = 44; // ','
        at = headSegment ? put(view, at, headSegment) : putBytes(buf, at, head);
        const day = days[i]!;
        at = writeDay(view, buf, at, day);
        at = put(view, at, endText);
        at = writeDay(view, buf, at, day);
        for (let h = 0; h < values; h++) {
          const end = keyFirst[h + 1]!;
          for (let w = keyFirst[h]!, into = at; w < end; w++, into += 8) view.setFloat64(into, keyWords[w]!, true);
          at += keyLength[h]!;
          const column = h === 0 ? c0 : h === 1 ? c1 : h === 2 ? c2 : h === 3 ? c3 : columns[columnOf[h]!];
          const factor = factors[h]!;
          const raw = column![i]!;
          const value = factor === 1 && offsets[h] === 0 ? raw : raw * factor + offsets[h]!;
          if (value !== value || (json && !Number.isFinite(value))) {
            if (json) at = writeAscii(buf, at, 'null'); // JSON.stringify writes NaN and Infinity as null; CSV leaves NaN empty
          } else at = writeRounded(view, buf, at, value);
        }
        at = tailSegment ? put(view, at, tailSegment) : putBytes(buf, at, tail);
      }
      out.push(textOf(buf, at, asciiText));
    }
  };
  if (plainTailBytes === undefined) return emit;

  // one date of every name: the names' text bytes kept (namesText), the rows written into one buffer, a string per piece;
  // a row's dates and values are written as emit writes them, inline (through shared helpers, a year of every reservoir
  // took 2-3% longer: 6 runs alternating)
  const tailAscii = isAscii(plainTail!);
  const [headKeySegment, startKeySegment, plainTailSegment] = [segmentOf(headKeyBytes), segmentOf(startKeyBytes), segmentOf(plainTailBytes)];
  const converted = factors.map((f, h) => f !== 1 || offsets[h] !== 0); // a unit other than the store's
  const perRow = headKeyBytes.length + startKeyBytes.length + plainTailBytes.length + constantBytes + 20 + 25 * values + 1;
  // the text from the start date's key to the first value's key when every row of [from, to) has one date (made per
  // batch of names: a few dozen bytes); else undefined
  const oneDayText = (days: ArrayLike<number>, from: number, to: number): Segment | undefined => {
    const day = days[from]!;
    for (let i = from + 1; i < to; i++) if (days[i] !== day) return undefined;
    const bytes = new Uint8Array(startKeyBytes.length + 2 * 16 + endText.length + (middle[0]?.length ?? 0) + SLACK);
    const into = new DataView(bytes.buffer);
    let at = putBytes(bytes, 0, startKeyBytes);
    at = writeDay(into, bytes, at, day);
    at = put(into, at, endText);
    at = writeDay(into, bytes, at, day);
    if (middle.length > 0) at = putBytes(bytes, at, middle[0]!);
    return segmentOf(bytes.subarray(0, at));
  };
  emit.names = (out, names, seen, days, columns, from, to) => {
    const text = namesText(names, kind);
    if (!text) return false;
    const { view: source, offsets: starts } = text;
    const asciiText = ascii && tailAscii && text.ascii;
    let need = 0;
    let widest = 0;
    for (let i = from; i < to; i++) {
      if (!seen[i]) continue;
      const row = perRow + starts[i + 1]! - starts[i]!;
      need += row;
      if (row > widest) widest = row;
    }
    if (need === 0) return true;
    const [buf, view] = bufferOf(Math.min(need, TEXT_PIECE_CHARS + widest));
    const vectors = columnOf.map((c) => columns[c]!);
    const rows = rowsOf(vectors, from);
    // every name on one date (the caller's case): the text from the start date's key to the first value is the same in
    // every row, written as one segment
    const dated = oneDayText(days, from, to);
    let at = 0;
    for (let i = from; i < to; i++) {
      if (!seen[i]) continue;
      if (at >= TEXT_PIECE_CHARS) {
        out.push(textOf(buf, at, asciiText));
        at = 0;
      }
      if (json && at > 0) buf[at++] = 44; // ','
      at = put(view, at, headKeySegment);
      at = copyBytes(view, at, source, starts[i]!, starts[i + 1]!);
      if (dated) at = put(view, at, dated);
      else {
        at = put(view, at, startKeySegment);
        const day = days[i]!;
        at = writeDay(view, buf, at, day);
        at = put(view, at, endText);
        at = writeDay(view, buf, at, day);
        if (values > 0) at = put(view, at, middleSegments[0]!);
      }
      for (let h = 0; h < values; h++) {
        if (h > 0) {
          const end = keyFirst[h + 1]!;
          for (let w = keyFirst[h]!, into = at; w < end; w++, into += 8) view.setFloat64(into, keyWords[w]!, true);
          at += keyLength[h]!;
        }
        const raw = rows ? rows[i * values + h]! : vectors[h]![i]!;
        const value = converted[h] ? raw * factors[h]! + offsets[h]! : raw;
        if (value !== value || (json && !Number.isFinite(value))) {
          if (json) at = writeAscii(buf, at, 'null');
        } else at = writeRounded(view, buf, at, value);
      }
      at = put(view, at, plainTailSegment);
    }
    out.push(textOf(buf, at, asciiText));
    return true;
  };
  return emit;
}

// A date's held columns laid row by row (a row's values side by side), made when the same columns begin a second
// answer and kept while their first column lives (a day of every reservoir is kept by the reader's derived
// cache): the rows' loop then reads one run of memory, where 14 columns of 44,000 names were 14 streams read a value
// at a time (warm Q3 at 44,000: least of 40 runs 21.4-21.8 -> 19.1-20.0 ms). Not on the first answer: a fresh
// process answering once would pay for laying them out (cold Q3 at 44,000: 5% more CPU). They take as many bytes again
// as the columns, outside the derived cache's count. Undefined for fewer than two columns, columns of different
// lengths, and the first answer.
const rowMajor = new WeakMap<ArrayLike<number>, { vectors: readonly ArrayLike<number>[]; rows?: Float64Array }>();

function rowsOf(vectors: readonly ArrayLike<number>[], from: number): Float64Array | undefined {
  const width = vectors.length;
  if (width < 2) return undefined;
  const first = vectors[0]!;
  const length = first.length;
  const kept = rowMajor.get(first);
  if (!kept || kept.vectors.length !== width || !kept.vectors.every((v, h) => v === vectors[h])) {
    rowMajor.set(first, { vectors: [...vectors] });
    return undefined;
  }
  // an answer's batches of names come in order: one from the first name begins another answer
  if (kept.rows || from > 0 || vectors.some((v) => v.length !== length)) return kept.rows;
  const rows = new Float64Array(width * length);
  for (let h = 0; h < width; h++) {
    const column = vectors[h]!;
    for (let i = 0, at = h; i < length; i++, at += width) rows[at] = column[i]!;
  }
  return (kept.rows = rows);
}

// the scratch buffer when it holds `need` bytes, else a larger one (kept as the scratch up to KEPT_SCRATCH; a larger
// block, decades of many variables, has its own)
export function bufferOf(need: number): [Uint8Array, DataView] {
  if (scratch.length >= need + SLACK) return [scratch, scratchView];
  const buf = new Uint8Array(Math.max(need + SLACK, 2 * scratch.length));
  const view = new DataView(buf.buffer);
  if (buf.length <= KEPT_SCRATCH) [scratch, scratchView, scratchText] = [buf, view, Buffer.from(buf.buffer)];
  return [buf, view];
}

/** The names' JSON strings (or CSV fields) as UTF-8, end to end, and where each begins. */
interface NamesText {
  view: DataView; // their bytes (SLACK bytes spare past the last), read eight at a time
  offsets: Int32Array; // name i is bytes [offsets[i], offsets[i + 1])
  ascii: boolean;
}

// kept per names array (a snapshot's list of reservoirs) while that array lives: about the names' own size per kind
// (1 MB at 44,000 water bodies), so a date asked again writes each name by copying bytes; null: CSV text that is not
// UTF-8 (a lone surrogate), left to the emitters name by name
const namesTexts = new WeakMap<readonly string[], { json?: NamesText; csv?: NamesText | null }>();

function namesText(names: readonly string[], kind: 'json' | 'csv'): NamesText | null {
  let kept = namesTexts.get(names);
  if (!kept) namesTexts.set(names, (kept = {}));
  const known = kept[kind];
  if (known !== undefined) return known;
  const texts = names.map((n) => (kind === 'json' ? JSON.stringify(n) : csvField(n)));
  if (kind === 'csv' && texts.some((t) => LONE_SURROGATE.test(t))) return (kept.csv = null);
  // one encoding of them all, not one a name (a fresh process's first answer on a date makes this for every name)
  const joined = texts.join('');
  const encoded = encoder.encode(joined);
  const ascii = encoded.length === joined.length; // UTF-8 is longer than UTF-16 for any code unit past ASCII
  const offsets = new Int32Array(texts.length + 1);
  for (let i = 0; i < texts.length; i++) offsets[i + 1] = offsets[i]! + (ascii ? texts[i]!.length : Buffer.byteLength(texts[i]!));
  const bytes = new Uint8Array(encoded.length + SLACK);
  bytes.set(encoded);
  return (kept[kind] = { view: new DataView(bytes.buffer), offsets, ascii });
}

const decoder = new TextDecoder();

// the first `length` bytes as a string; ASCII bytes by a plain copy (Latin-1), where UTF-8 decoding checks every byte
export function textOf(buf: Uint8Array, length: number, ascii: boolean): string {
  if (!ascii) return decoder.decode(buf.subarray(0, length));
  return buf === scratch ? scratchText.toString('latin1', 0, length) : Buffer.from(buf.buffer, buf.byteOffset, length).toString('latin1');
}
