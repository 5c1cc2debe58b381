// One page of a record stream in bounded memory: skip `offset` records, keep `limit`, count the rest without holding them.
import type { RecordStream } from '../format/stream.js';
import type { WireRecord } from '../types.js';

/** A page of records and how many records the whole answer holds (read to its end, batch by batch). */
interface RecordPage {
  records: WireRecord[];
  matched: number;
}

/** The records `offset` to `offset + limit - 1` of the stream, in its order; at most one batch besides the page is held at once. */
export async function pageOf(stream: RecordStream, offset: number, limit: number): Promise<RecordPage> {
  const records: WireRecord[] = [];
  let matched = 0;
  for await (const batch of stream.batches) {
    const from = Math.max(0, offset - matched);
    const to = Math.min(batch.length, offset + limit - matched);
    for (let i = from; i < to; i++) records.push(batch[i]!);
    matched += batch.length;
  }
  return { records, matched };
}
