// Records -> RFC 4180 CSV text, whole or as a stream of chunks.
// A plain loop rather than csv-stringify: on a 46-year answer it is four times faster, and a property test
// checks that both write the same text.
import type { WireRecord } from './types.js';

const NEEDS_QUOTES = /[",\r\n]/;

/** A field as CSV: quoted (with doubled quotes) only when it holds a comma, a quote or a line break. */
function field(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The CSV text of records under a header of the given columns; gaps (null) are empty fields. */
export function recordsToCsv(records: readonly WireRecord[], columns: readonly string[], header = true): string {
  let out = header ? `${columns.map(field).join(',')}\n` : '';
  for (const record of records) {
    let line = '';
    for (let j = 0; j < columns.length; j++) {
      const value = record[columns[j]!];
      if (j > 0) line += ',';
      if (value === null || value === undefined) continue;
      line += typeof value === 'number' ? String(value) : field(value);
    }
    out += `${line}\n`;
  }
  return out;
}

/** CSV text in chunks, header first, one chunk per batch of records (for streaming answers). */
export async function* csvChunks(columns: readonly string[], batches: AsyncIterable<readonly WireRecord[]>): AsyncGenerator<string> {
  yield recordsToCsv([], columns, true);
  for await (const batch of batches) if (batch.length > 0) yield recordsToCsv(batch, columns, false);
}
