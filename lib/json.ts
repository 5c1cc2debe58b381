// Records -> JSON array text as a stream of chunks, so a large answer is never one string in memory.
import type { WireRecord } from './types.js';

/** JSON array text in chunks, one per batch: `[` ... `]` with the records separated by commas. */
export async function* jsonChunks(batches: AsyncIterable<readonly WireRecord[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    const text = JSON.stringify(batch);
    yield first ? text.slice(1, -1) : `,${text.slice(1, -1)}`;
    first = false;
  }
  yield ']';
}

/** JSON array text in chunks from batches of JSON object text (each element: objects separated by commas). */
export async function* jsonArrayChunks(batches: AsyncIterable<readonly string[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const batch of batches) {
    for (const text of batch) {
      if (text === '') continue;
      yield first ? text : `,${text}`;
      first = false;
    }
  }
  yield ']';
}
