// One page of a record stream in bounded memory: skip `offset` records, keep `limit`, count the rest without holding them.
import { frameRecords } from '../format/frame-records.js';
import type { RecordStream } from '../format/stream.js';
import type { WireRecord } from '../types.js';

/** A page of records and how many records the whole answer holds (read to its end, batch by batch). */
interface RecordPage {
  records: WireRecord[];
  matched: number;
}

/**
 * The records `offset` to `offset + limit - 1` of the stream, in its order; at most one batch besides the page is held
 * at once. A stream read as frames is counted by their rows: records are made of the page's rows only.
 */
export async function pageOf(stream: RecordStream, offset: number, limit: number): Promise<RecordPage> {
  const records: WireRecord[] = [];
  let matched = 0;
  const keep = (rows: number, take: (from: number, to: number) => Iterable<WireRecord>) => {
    const from = Math.max(0, offset - matched);
    const to = Math.min(rows, offset + limit - matched);
    if (from < to) for (const record of take(from, to)) records.push(record);
    matched += rows;
  };
  if (stream.frames) for await (const frame of stream.frames()) keep(frame.rows, (from, to) => frameRecords(frame, from, to));
  else for await (const batch of stream.batches) keep(batch.length, (from, to) => batch.slice(from, to));
  return { records, matched };
}
