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
