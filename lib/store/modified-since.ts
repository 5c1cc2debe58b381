// modified_since (the daily answers): only the records whose values differ from the same query's answer at an
// earlier snapshot. Both answers are read whole and compared record by record, keyed by name and day, so it costs
// two answers; a record removed since has nothing to list and is not listed.
import { InvalidParameterError } from '../errors.js';
import type { WireRecord } from '../types.js';
import type { SnapshotInfo } from './snapshots.js';

/** What is asked of a store here (a reader of store.ts: not imported, which would be a cycle). */
interface Reader {
  listSnapshots(): Promise<SnapshotInfo[]>;
  asOf(asOf: string): Promise<Reader & { close(): Promise<void> }>;
}

/** The store as it was at the snapshot `since` names: its id (a sequence number still retained) or a time. */
async function viewSince(reader: Reader, since: string): Promise<Reader & { close(): Promise<void> }> {
  if (/^\d+$/.test(since)) {
    const info = (await reader.listSnapshots()).find((s) => s.id === Number(since));
    if (!info) throw new InvalidParameterError('modified_since', `snapshot ${since} is not retained; ask from a time`, 'not-allowed', since);
    return reader.asOf(info.time);
  }
  try {
    return await reader.asOf(since);
  } catch (error) {
    // the time is this parameter's, not as_of's
    if (error instanceof InvalidParameterError && error.parameter === 'as_of')
      throw new InvalidParameterError('modified_since', error.message.replace(/^as_of/, 'modified_since'), error.reason, since);
    throw error;
  }
}

/** The records of `now` that `then` does not hold with the same values (a record is a name's day). */
function changedRecords(now: readonly WireRecord[], then: readonly WireRecord[]): WireRecord[] {
  const key = (r: WireRecord) => `${String(r.RES_NAME ?? r.STA_NAME)}\t${String(r.start_date)}`;
  const before = new Map(then.map((r) => [key(r), JSON.stringify(r)]));
  return now.filter((r) => before.get(key(r)) !== JSON.stringify(r));
}

/** A query's records that changed since `since`: `ask` answered now by `reader` and by the store as it was then. */
export async function recordsModifiedSince<R extends Reader>(
  reader: R,
  since: string,
  ask: (reader: R | Awaited<ReturnType<R['asOf']>>) => Promise<WireRecord[]>,
): Promise<WireRecord[]> {
  const now = await ask(reader);
  const view = (await viewSince(reader, since)) as Awaited<ReturnType<R['asOf']>>; // what this reader's asOf gives
  try {
    return changedRecords(now, await ask(view));
  } finally {
    await view.close();
  }
}
