// Records -> RFC 4180 CSV text.
// A plain loop rather than csv-stringify: on a 46-year answer it is four times faster, and a property test
// checks that both write the same text.
import type { WireRecord } from '../types.js';

const NEEDS_QUOTES = /[",\r\n]/;

// '', '.0001', ..., '.9999' with trailing zeros dropped: the fractional part of a 4-decimal value by its digits
export const FRACTIONS = Array.from({ length: 10_000 }, (_, i) => (i === 0 ? '' : `.${String(i).padStart(4, '0').replace(/0+$/, '')}`));

/**
 * The text of a number exactly as String(value) writes it, faster for wire values (4 decimals): below 1e11 a
 * double holds every 4-decimal value distinctly, so its shortest text is the integer part and 4-decimal fraction.
 */
export function formatNumber(value: number): string {
  const scaled = Math.round(value * 1e4);
  if (scaled / 1e4 !== value || Math.abs(value) >= 1e11) return String(value);
  const digits = Math.abs(scaled);
  const whole = Math.floor(digits / 1e4);
  return `${scaled < 0 ? '-' : ''}${whole}${FRACTIONS[digits - whole * 1e4]}`;
}

/** A field as CSV: quoted (with doubled quotes) only when it holds a comma, a quote or a line break. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The CSV text of records under a header of the given columns; gaps (null) are empty fields. */
export function recordsToCsv(records: readonly WireRecord[], columns: readonly string[], header = true): string {
  let out = header ? `${columns.map(csvField).join(',')}\n` : '';
  for (const record of records) {
    let line = '';
    for (let j = 0; j < columns.length; j++) {
      const value = record[columns[j]!];
      if (j > 0) line += ',';
      if (value === null || value === undefined) continue;
      line += typeof value === 'number' ? formatNumber(value) : csvField(value);
    }
    out += `${line}\n`;
  }
  return out;
}
