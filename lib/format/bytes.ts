// The byte writer behind JSON and CSV text: numbers, dates and text written as UTF-8 into one reused buffer, eight bytes
// at a time where it can, then turned into strings of about 64 KiB, each in a single copy. On every reservoir for a
// year (16 million rows at 44,000 water bodies) making a string per row and joining them spent most of the time in the
// garbage collector; frame-text.ts writes the same text with this.
// Answer text is made in strings of at most about TEXT_PIECE_CHARS. V8 places a string larger than its largest regular
// object (128 KiB) in the large-object space, a page of its own: 17.5 MB made as Latin-1 strings of 64 KiB took 1.2 ms
// here, as strings of 128-400 KiB 14-16 ms (node 20), a third of a warm answer of every reservoir on one date at 44,000.
import { civilOfDay, formatDay } from '../dates.js';
import { roundValue } from '../units.js';
import { FRACTIONS } from './csv.js';

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

/** Bytes [from, to) of `source` (readable 7 bytes past `to`) into `view`'s buffer at `at`, eight at a time; returns the end. */
export function copyBytes(view: DataView, at: number, source: DataView, from: number, to: number): number {
  for (let k = from, into = at; k < to; k += 8, into += 8) view.setFloat64(into, source.getFloat64(k, true), true);
  return at + to - from;
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

export function isAscii(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) > 127) return false;
  return true;
}

export const LONE_SURROGATE = /\p{Cs}/u;
// the scratch buffer when it holds `need` bytes, else a larger one (kept as the scratch up to KEPT_SCRATCH; a larger
// block, decades of many variables, has its own)
export function bufferOf(need: number): [Uint8Array, DataView] {
  if (scratch.length >= need + SLACK) return [scratch, scratchView];
  const buf = new Uint8Array(Math.max(need + SLACK, 2 * scratch.length));
  const view = new DataView(buf.buffer);
  if (buf.length <= KEPT_SCRATCH) [scratch, scratchView, scratchText] = [buf, view, Buffer.from(buf.buffer)];
  return [buf, view];
}

const decoder = new TextDecoder();

// the first `length` bytes as a string; ASCII bytes by a plain copy (Latin-1), where UTF-8 decoding checks every byte
export function textOf(buf: Uint8Array, length: number, ascii: boolean): string {
  if (!ascii) return decoder.decode(buf.subarray(0, length));
  return buf === scratch ? scratchText.toString('latin1', 0, length) : Buffer.from(buf.buffer, buf.byteOffset, length).toString('latin1');
}

/** The length past which an answer's text is cut into another string (at a row's end). */
export const TEXT_PIECE_CHARS = 1 << 16;

/**
 * The non-empty `texts` joined by `separator` into strings of at most about TEXT_PIECE_CHARS (a longer text stays one
 * string of its own), in order; the caller puts the separator between the strings it is given. A list, not a
 * generator: most batches are one text (every reservoir for a year: a batch a name), given back as it is.
 */
export function joinedPieces(texts: readonly string[], separator: string): readonly string[] {
  if (texts.length === 1) return texts[0] === '' ? [] : texts;
  const pieces: string[] = [];
  let group: string[] = [];
  let length = 0;
  for (const text of texts) {
    if (text === '') continue;
    if (length > 0 && length + text.length > TEXT_PIECE_CHARS) {
      pieces.push(group.length === 1 ? group[0]! : group.join(separator));
      group = [];
      length = 0;
    }
    group.push(text);
    length += text.length + separator.length;
  }
  if (length > 0) pieces.push(group.length === 1 ? group[0]! : group.join(separator));
  return pieces;
}
