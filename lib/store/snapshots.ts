// The retained history of a store: its published snapshots, what each changed, and which one was current at a time.
import { InvalidParameterError, StoreError } from '../errors.js';
import { readCurrentManifest } from './history.js';
import { type Manifest, parseManifest, rowFiles, SNAPSHOTS_FOLDER, snapshotSequence } from './manifest.js';
import { loadNames } from './names-file.js';
import type { Storage } from './storage.js';

/** One retained snapshot, as `describeSnapshots` lists them (oldest first). (A type, so it is a WireRecord.) */
export type SnapshotInfo = {
  id: number; // the snapshot's sequence number
  snapshot: string; // its writer's id, as in the file names it wrote
  time: string; // when it was published, ISO
  files: number; // data and metadata files it added (written by it, not carried over from the one before)
  rows: number; // rows in those files
  removed: number; // files of the snapshot before that it no longer names
};

/**
 * The published snapshots still on record (vacuum retires old ones), oldest first, ending with the current one. Files
 * of snapshots/ not named as a snapshot (someone's copy, a note) are no snapshot: left out, and passed to `foreign`.
 */
export async function readSnapshots(storage: Storage, foreign?: (path: string) => void): Promise<Manifest[]> {
  const current = await readCurrentManifest(storage);
  if (current === undefined) throw new StoreError(`no store at ${storage.location}: manifest.json is missing`);
  const found = new Map<number, Manifest>([[current.sequence, current]]);
  for (const file of await storage.list(SNAPSHOTS_FOLDER)) {
    const sequence = snapshotSequence(file.path);
    if (sequence === undefined) {
      if (file.path.endsWith('.json')) foreign?.(file.path); // a killed commit's .tmp is a vacuum's to remove, not news
      continue;
    }
    if (sequence >= current.sequence) continue;
    const text = await storage.readText(file.path);
    if (text === undefined) continue; // retired by a vacuum meanwhile
    // names of a snapshot past the current one are read too (an as_of view opens them); one whose names file a vacuum
    // took already is listed still, its names said to be missing if asked for
    const manifest = parseSnapshotFile(text.text, file.path, sequence);
    found.set(sequence, await loadNames(storage, manifest).catch(() => manifest));
  }
  return [...found.values()].sort((a, b) => a.sequence - b.sequence);
}

// a numbered snapshot that does not read as one is damage to report, naming the file (not manifest.json)
function parseSnapshotFile(text: string, path: string, sequence: number): Manifest {
  let manifest: Manifest;
  try {
    manifest = parseManifest(text);
  } catch (error) {
    throw new StoreError(`${path} is not a readable snapshot: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (manifest.sequence !== sequence) throw new StoreError(`${path} holds snapshot number ${manifest.sequence}, not ${sequence}`);
  return manifest;
}

/** What each retained snapshot changed against the one before it (the oldest against nothing). */
export function describeSnapshots(history: readonly Manifest[]): SnapshotInfo[] {
  let before = new Set<string>();
  return history.map((m) => {
    const files = rowFiles(m); // the rows' files, not their indexes nor the date-major copies
    const added = files.filter((f) => !before.has(f.path));
    const now = new Set(files.map((f) => f.path));
    const removed = [...before].filter((p) => !now.has(p)).length;
    before = now;
    return { id: m.sequence, snapshot: m.snapshot, time: m.created, files: added.length, rows: added.reduce((n, f) => n + f.rows, 0), removed };
  });
}

/** The instant an `as_of` value names: a time (UTC unless it says), or a date meaning the end of that day, UTC. */
export function parseAsOf(text: string): number {
  const match = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  const time = !match ? NaN : match[2] ? Date.parse(match[5] ? text : `${text}Z`) : Date.parse(`${match[1]}T23:59:59.999Z`);
  if (Number.isNaN(time) || (match && new Date(Date.parse(`${match[1]}T00:00:00Z`)).toISOString().slice(0, 10) !== match[1])) {
    throw new InvalidParameterError(
      'as_of',
      `as_of must be an ISO date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:MM:SSZ), not ${JSON.stringify(text.slice(0, 40))}`,
      'malformed',
      text,
    );
  }
  return time;
}

/** The snapshot that was current at `asOf` (an ISO date or time); an instant before the retained history is refused, naming the oldest. */
export function snapshotAt(history: readonly Manifest[], asOf: string): Manifest {
  const time = parseAsOf(asOf);
  let found: Manifest | undefined;
  let next: Manifest | undefined; // the retained snapshot after `found`
  for (const m of history) {
    if (Date.parse(m.created) <= time) found = m;
    else if (next === undefined) next = m;
  }
  // Sequence numbers run without holes, so a hole after `found` is snapshots a vacuum retired (a reader's lease kept
  // `found`, older than them): one of those, not `found`, may have been current at that time, and their data is gone.
  if (found && next && next.sequence > found.sequence + 1) {
    const retired = next.sequence - found.sequence === 2 ? `${found.sequence + 1}` : `${found.sequence + 1}-${next.sequence - 1}`;
    throw new InvalidParameterError(
      'as_of',
      `as_of ${asOf} falls after snapshot ${found.sequence} (published ${found.created}) and before ${next.sequence} (published ${next.created}), ` +
        `where snapshots ${retired} were retired by a vacuum, so which one was current then is no longer known; the retained snapshots are ${retainedRanges(history)}`,
      'malformed',
      asOf,
    );
  }
  if (!found) {
    const oldest = history[0]!;
    throw new InvalidParameterError(
      'as_of',
      `as_of ${asOf} is older than the retained history: the oldest snapshot is ${oldest.sequence}, published ${oldest.created}`,
      'malformed',
      asOf,
    );
  }
  return found;
}

// "1, 3-5" for the sequence numbers of the retained snapshots
function retainedRanges(history: readonly Manifest[]): string {
  const runs: [number, number][] = [];
  for (const { sequence } of history) {
    const last = runs.at(-1);
    if (last && last[1] === sequence - 1) last[1] = sequence;
    else runs.push([sequence, sequence]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
}
