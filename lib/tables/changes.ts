// What changed between two store snapshots, table by table, from their manifests alone: the files one has and the
// other has not, each with the names and dates it holds. No data file is read, so the cost follows the files that
// changed (and the number of names they hold), not the size of the store. The unit is the file: every name and day of
// a rewritten file is reported, including those the revision wrote again with the same value.
import { formatDay, parseDay } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import { compareText, partitionPoint } from '../order.js';
import { type Manifest, parseManifest, snapshotPath } from '../store/manifest.js';
import { loadNames } from '../store/names-file.js';
import { readSnapshots, snapshotAt } from '../store/snapshots.js';
import type { Storage } from '../store/storage.js';
import { snapshotTables } from './layout.js';

/** A name of a table whose values over a span of days may differ between the two snapshots (a type: a WireRecord). */
export type ChangedSpan = {
  table: string;
  name: string | null; // null: every name (a table whose files hold no name bounds, such as the forecasts)
  start_date: string | null; // null for a table without dates (the metadata tables)
  end_date: string | null;
};

/** The changes since a snapshot: the two snapshots compared, and each changed name and span. */
export interface StoreChanges {
  since: number; // the snapshot compared from (its sequence number, the Iceberg snapshot id)
  current: number; // the snapshot compared to: ask from this one next time
  changes: ChangedSpan[]; // by table (in the order of the tables), name, then first day
}

/** The snapshot `since` names: a sequence number still retained, or a time (the snapshot current then). */
export async function snapshotSince(storage: Storage, since: string, current: Manifest): Promise<Manifest> {
  if (/^\d+$/.test(since)) {
    const sequence = Number(since);
    if (sequence === current.sequence) return current;
    if (sequence > current.sequence)
      throw new InvalidParameterError('since', `since ${since} is after the current snapshot ${current.sequence}`, 'not-allowed', since);
    const file = await storage.readText(snapshotPath(sequence));
    if (!file) {
      throw new InvalidParameterError('since', `snapshot ${since} is no longer retained; ask from a time, or fetch everything again`, 'not-allowed', since);
    }
    return loadNames(storage, parseManifest(file.text));
  }
  const history = await readSnapshots(storage);
  try {
    return snapshotAt(history, since);
  } catch (error) {
    // the time is this parameter's, not as_of's
    if (error instanceof InvalidParameterError && error.parameter === 'as_of')
      throw new InvalidParameterError('since', error.message.replace(/^as_of/, 'since'), error.reason, since);
    throw error;
  }
}

/** The oldest retained snapshot: what `since` means when left out (every change the history still holds). */
export async function oldestRetained(storage: Storage): Promise<Manifest> {
  return (await readSnapshots(storage))[0]!;
}

/** Every name and span whose files differ between `before` and `after`, table by table. */
export function diffSnapshots(before: Manifest, after: Manifest): StoreChanges {
  const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])].sort(compareText);
  const names = { RES_NAME: union(before.reservoirs.names, after.reservoirs.names), STA_NAME: union(before.stations.names, after.stations.names) };
  const beforeTables = snapshotTables(before);
  const changes: ChangedSpan[] = [];
  for (const [i, table] of snapshotTables(after).entries()) {
    const files = (t: (typeof beforeTables)[number]) => t.groups.flatMap((g) => g.files);
    const had = new Map(files(beforeTables[i]!).map((f) => [f.path, f]));
    const has = new Map(files(table).map((f) => [f.path, f]));
    const changed = [...[...has.values()].filter((f) => !had.has(f.path)), ...[...had.values()].filter((f) => !has.has(f.path))];
    const spans = new Map<string | null, [string | null, string | null][]>();
    for (const f of changed) {
      const span: [string | null, string | null] = f.dates && f.dates[0] !== '' ? [f.dates[0], f.dates[1]] : [null, null];
      for (const name of f.names ? namesBetween(names[table.key], f.names[0], f.names[1]) : [null]) {
        if (!spans.has(name)) spans.set(name, []);
        spans.get(name)!.push(span);
      }
    }
    const ordered = [...spans.keys()].sort((a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
    for (const name of ordered) {
      for (const [start, end] of mergeSpans(spans.get(name)!)) changes.push({ table: table.name, name, start_date: start, end_date: end });
    }
  }
  return { since: before.sequence, current: after.sequence, changes };
}

// the names of a sorted list from `first` to `last`, both included
function namesBetween(sorted: readonly string[], first: string, last: string): string[] {
  const out: string[] = [];
  for (let i = partitionPoint(sorted, (n) => n < first); i < sorted.length && sorted[i]! <= last; i++) out.push(sorted[i]!);
  return out;
}

// overlapping or adjacent spans as one (dates as YYYY-MM-DD compare as text); a span without dates covers all
function mergeSpans(spans: [string | null, string | null][]): [string | null, string | null][] {
  if (spans.some(([start]) => start === null)) return [[null, null]];
  const sorted = (spans as [string, string][]).slice().sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: [string, string][] = [];
  for (const [start, end] of sorted) {
    const last = out.at(-1);
    if (last && start <= nextDay(last[1])) last[1] = end > last[1] ? end : last[1];
    else out.push([start, end]);
  }
  return out;
}

function nextDay(day: string): string {
  return formatDay(parseDay(day, 'date') + 1);
}
