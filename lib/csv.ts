// Records -> CSV text (csv-stringify), whole or as a stream of chunks.
import { stringify } from 'csv-stringify/sync';
import type { WireRecord } from './types.js';

/** The CSV text of records under a header of the given columns; gaps are empty fields. */
export function recordsToCsv(records: readonly WireRecord[], columns: readonly string[], header = true): string {
  return stringify(records as WireRecord[], { header, columns: columns as string[], cast: { number: String } });
}

/** CSV text in chunks, header first, one chunk per batch of records (for streaming answers). */
export async function* csvChunks(columns: readonly string[], batches: AsyncIterable<readonly WireRecord[]>): AsyncGenerator<string> {
  yield recordsToCsv([], columns, true);
  for await (const batch of batches) if (batch.length > 0) yield recordsToCsv(batch, columns, false);
}
