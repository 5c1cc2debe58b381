// JSON array text as a stream of chunks, so a large answer is never one string in memory.

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
