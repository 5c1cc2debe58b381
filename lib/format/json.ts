// JSON array text as a stream of chunks, so a large answer is never one string in memory.

/** JSON array text in chunks from batches of JSON object text (each element: objects separated by commas). */
export async function* jsonArrayChunks(batches: AsyncIterable<readonly string[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const batch of batches) {
    const texts = batch.filter((text) => text !== '');
    if (texts.length === 0) continue;
    yield first ? texts.join(',') : `,${texts.join(',')}`; // one chunk a batch: a date answer's batch is a record per name
    first = false;
  }
  yield ']';
}
