// A frame's rows as records, or as JSON objects and CSV rows written as UTF-8 bytes straight from its columns with
// row-bytes.ts's writers: the same text as JSON.stringify and recordsToCsv of its records, without making them.
import type { WireRecord, WireValue } from '../types.js';
import { csvField, formatNumber, recordsToCsv } from './csv.js';
import { type Frame, type FrameColumn, wireValueAt } from './frame.js';
import { bufferOf, isAscii, LONE_SURROGATE, putBytes, SLACK, textOf, writeAscii, writeDay, writeRounded } from './row-bytes.js';
import { TEXT_PIECE_CHARS } from './text-pieces.js';

const encoder = new TextEncoder();
const INDEX_KEY = /^(0|[1-9]\d*)$/;

/** The frame's rows [from, to) as records, keys in its columns' order (a key given twice: its first place, its last value). */
export function frameRecords(frame: Frame, from = 0, to = frame.rows): WireRecord[] {
  const out: WireRecord[] = new Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) {
    const record: WireRecord = {};
    for (const column of frame.columns) {
      const value = wireValueAt(column, i);
      if (column.key === '__proto__') Object.defineProperty(record, column.key, { value, enumerable: true, writable: true, configurable: true });
      else record[column.key] = value;
    }
    out[i - from] = record;
  }
  return out;
}

// A value's text in each kind of output, as JSON.stringify and recordsToCsv write it.
const textOfValue = {
  json: (value: WireValue) => JSON.stringify(value),
  csv: (value: WireValue) => (value === null ? '' : typeof value === 'number' ? formatNumber(value) : csvField(value)),
};

/**
 * The frame's rows as JSON object text (objects separated by commas, no brackets) or as CSV rows under the answer's
 * `columns` (a column the frame lacks is empty), in strings of about TEXT_PIECE_CHARS each.
 */
export function frameText(frame: Frame, kind: 'json' | 'csv', columns: readonly string[]): string[] {
  if (frame.rows === 0) return [];
  const json = kind === 'json';
  const last = new Map(frame.columns.map((c) => [c.key, c])); // a key's last column holds its values
  const keys = frame.columns.map((c) => c.key);
  // an index key comes first in a JS object, and a key given twice once: such text comes from the records
  if (json && (last.size !== keys.length || keys.some((k) => INDEX_KEY.test(k)))) return [JSON.stringify(frameRecords(frame)).slice(1, -1)];
  const slots: [before: string, column: FrameColumn | undefined][] = json
    ? frame.columns.map((c, k) => [`${k === 0 ? '' : ','}${JSON.stringify(c.key)}:`, c])
    : columns.map((key, k) => [k === 0 ? '' : ',', last.get(key)]);
  const asText = textOfValue[kind];
  // the constant text before each varying column and after the last (one value a frame folded in), and those columns
  const texts = [json ? '{' : ''];
  const varying: FrameColumn[] = [];
  for (const [before, column] of slots) {
    texts[texts.length - 1] += before;
    if (column === undefined) continue;
    if (column.kind === 'same') texts[texts.length - 1] += asText(column.value);
    else {
      const quote = json && column.kind === 'day' ? '"' : ''; // a date is a JSON string
      texts[texts.length - 1] += quote;
      varying.push(column);
      texts.push(quote);
    }
  }
  texts[texts.length - 1] += json ? '}' : '\n';
  // CSV text with a lone surrogate is not UTF-8: such a frame is written by recordsToCsv
  const labels = varying.flatMap((c) => (c.kind === 'value' ? [c.values] : []));
  if (!json && [texts, ...labels].some((values) => values.some((v) => typeof v === 'string' && LONE_SURROGATE.test(v))))
    return [recordsToCsv(frameRecords(frame), columns, false)];
  const constants = texts.map((t) => encoder.encode(t));
  let ascii = texts.every(isAscii);
  const constantBytes = constants.reduce((n, b) => n + b.length, 0);
  const pieces: string[] = [];
  let [buf, view] = bufferOf(TEXT_PIECE_CHARS + constantBytes + 25 * varying.length);
  let at = 0;
  const rowTexts: (string | undefined)[] = new Array(varying.length);
  for (let i = 0; i < frame.rows; i++) {
    // the row's most bytes: 25 a number, 16 a day, 3 a UTF-16 unit of text, one comma
    let most = constantBytes + 1;
    for (let h = 0; h < varying.length; h++) {
      const column = varying[h]!;
      if (column.kind === 'value') {
        const text = asText(column.values[i]!);
        rowTexts[h] = text;
        most += 3 * text.length;
        if (ascii && !isAscii(text)) ascii = false;
      } else most += column.kind === 'day' ? 16 : 25;
    }
    if (at > 0 && (at >= TEXT_PIECE_CHARS || at + most + SLACK > buf.length)) {
      pieces.push(textOf(buf, at, ascii));
      at = 0;
    }
    if (most + SLACK > buf.length) [buf, view] = bufferOf(most);
    if (json && at > 0) buf[at++] = 44; // ','
    at = putBytes(buf, at, constants[0]!);
    for (let h = 0; h < varying.length; h++) {
      const column = varying[h]!;
      if (column.kind === 'day') at = writeDay(view, buf, at, column.days[i]!);
      else if (column.kind === 'number') {
        const x = column.values[i]!;
        if (x !== x || (json && !Number.isFinite(x))) {
          if (json) at = writeAscii(buf, at, 'null'); // JSON.stringify writes NaN and Infinity as null; CSV leaves NaN empty
        } else at = writeRounded(view, buf, at, x);
      } else {
        const text = rowTexts[h]!;
        at = isAscii(text) ? writeAscii(buf, at, text) : at + encoder.encodeInto(text, buf.subarray(at)).written;
      }
      at = putBytes(buf, at, constants[h + 1]!);
    }
  }
  pieces.push(textOf(buf, at, ascii));
  return pieces;
}
