// Query answers as streams: records in batches, or JSON / CSV text made straight from the columns.
import { csvTextChunks } from './csv.js';
import { jsonArrayChunks } from './json.js';
import type { OutputKind } from './emit.js';
import type { WireRecord } from '../types.js';

/**
 * A query answer that can be streamed: its columns (the CSV header), its records in batches, and its JSON and CSV
 * text made straight from the columns (the same text as JSON.stringify or recordsToCsv of the records, several times
 * faster). Each iteration runs the query afresh; consume one of them.
 */
export interface RecordStream {
  columns: string[];
  batches: AsyncIterable<WireRecord[]>;
  json(): AsyncIterable<string>; // chunks of one JSON array: '[', then objects separated by commas, then ']'
  csv(): AsyncIterable<string>; // CSV text chunks, the header first: the same text as recordsToCsv of the records
}

/** A RecordStream over a query run: `run(kind)` yields batches of records or of JSON object text. */
export function recordStream(columns: string[], run: (kind: OutputKind) => AsyncIterable<unknown[]>): RecordStream {
  return {
    columns,
    batches: { [Symbol.asyncIterator]: () => (run('records') as AsyncIterable<WireRecord[]>)[Symbol.asyncIterator]() },
    json: () => jsonArrayChunks(run('json') as AsyncIterable<string[]>),
    csv: () => csvTextChunks(columns, run('csv') as AsyncIterable<string[]>),
  };
}

/** Every record of a stream, in order. */
export async function collect(stream: RecordStream): Promise<WireRecord[]> {
  const out: WireRecord[] = [];
  for await (const batch of stream.batches) for (const r of batch) out.push(r);
  return out;
}

/** A one-batch stream of what `make` answers. */
export async function* once(make: () => Promise<unknown[]>): AsyncGenerator<unknown[]> {
  yield await make();
}
