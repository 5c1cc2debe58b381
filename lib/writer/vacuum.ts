// Removes what no retained snapshot needs: files that snapshots replaced long enough ago, and leftovers of killed writers.
import { leaseSequence, READERS_FOLDER } from '../store/lease.js';
import { openStorage } from '../store/location.js';
import { MANIFEST_FILE, manifestFiles, SNAPSHOTS_FOLDER, snapshotSequence } from '../store/manifest.js';
import { readSnapshots } from '../store/snapshots.js';
import type { Storage } from '../store/storage.js';
import { expireTablesLocked } from '../tables/expire.js';
import { WRITING_FOLDER } from './write.js';

export interface VacuumOptions {
  minAgeMs?: number; // keep a snapshot this long after a newer one replaced it, and unpublished files this long (default 10 minutes)
  dryRun?: boolean; // list what would go, delete nothing
  retainMs?: number; // history: keep a replaced snapshot (and its files) addressable by as_of this long (default minAgeMs)
}

/** What a vacuum removed (or would remove), and how many unreferenced files it kept for retained snapshots. */
export interface VacuumSummary {
  removed: string[];
  bytes: number;
  retained: number; // snapshots kept besides the current one: replaced less than minAgeMs ago, or held by a live reader
  tooRecent: number; // files no snapshot names, kept because younger than minAgeMs or their writer still runs
  foreign: string[]; // files of snapshots/ that are no snapshot: never removed, named for the operator
  expired: number; // Iceberg snapshots dropped from the tables' metadata (before any file went)
}

/**
 * Deletes the files no retained snapshot names. A snapshot is retained while it is current, for `retainMs` after the
 * snapshot that replaced it was published, and while a live reader holds a lease on it; files that no published
 * snapshot ever named (a killed writer's) go once older than `minAgeMs` unless their writer still runs. Runs under
 * the store's commit lock, so no snapshot is published meanwhile.
 */
export async function vacuumStore(location: string | Storage, options: VacuumOptions = {}): Promise<VacuumSummary> {
  const minAgeMs = options.minAgeMs ?? 10 * 60_000;
  const retainMs = Math.max(options.retainMs ?? minAgeMs, minAgeMs); // never less than a reader's grace time
  const storage = openStorage(location);
  return storage.withLock(`${MANIFEST_FILE}.lock`, async () => {
    const now = Date.now();
    const foreign: string[] = [];
    const history = await readSnapshots(storage, (path) => foreign.push(path));
    const leases = await storage.list(READERS_FOLDER);
    const held = new Set<number>();
    const deadLeases = [];
    for (const lease of leases) {
      if (await storage.markerAlive(lease)) held.add(leaseSequence(lease.path));
      else deadLeases.push(lease);
    }
    const current = history[history.length - 1]!;
    const retained = history.filter((s, i) => s === current || held.has(s.sequence) || now - Date.parse(history[i + 1]!.created) < retainMs);
    const kept = new Set(retained.flatMap((s) => manifestFiles(s).map((f) => f.path)));
    const published = new Set(history.flatMap((s) => manifestFiles(s).map((f) => f.path)));
    const busy = new Set<string>(); // snapshots whose writer is alive
    const markers = await storage.list(WRITING_FOLDER);
    for (const marker of markers) if (await storage.markerAlive(marker)) busy.add(writerOf(marker.path));

    let tooRecent = 0;
    const garbage = [...(await storage.list('reservoirs')), ...(await storage.list('stations'))].filter((file) => {
      if (kept.has(file.path)) return false;
      if (published.has(file.path)) return true; // only snapshots past retention name it
      const old =
        now - file.mtimeMs >= minAgeMs && ![...busy].some((snapshot) => file.path.includes(`part-${snapshot}.`) || file.path.includes(`part-${snapshot}-`));
      if (!old) tooRecent++;
      return old;
    });
    const retiredSnapshots = (await storage.list(SNAPSHOTS_FOLDER)).filter((f) => {
      const sequence = snapshotSequence(f.path);
      if (sequence !== undefined) return !retained.some((s) => s.sequence === sequence);
      return f.path.endsWith('.tmp') && now - f.mtimeMs >= minAgeMs; // a killed commit's; anything else is not ours to remove
    });
    const leftovers = [
      ...markers.filter((m) => !busy.has(writerOf(m.path))),
      ...deadLeases,
      ...(await storage.list('')).filter((f) => f.path.startsWith(`${MANIFEST_FILE}.`) && /\.(tmp|stale)$/.test(f.path) && now - f.mtimeMs >= minAgeMs),
    ];
    // the tables' metadata stops naming what goes before anything goes; their own unreferenced files go last
    const tables = options.dryRun
      ? { expired: 0, garbage: [] }
      : await expireTablesLocked(
          storage,
          retained.map((s) => s.sequence),
          minAgeMs,
          now,
        );
    const summary: VacuumSummary = { removed: [], bytes: 0, retained: retained.length - 1, tooRecent, foreign, expired: tables.expired };
    for (const file of [...garbage, ...retiredSnapshots, ...leftovers, ...tables.garbage]) {
      if (!options.dryRun) await storage.remove(file.path);
      summary.removed.push(file.path);
      summary.bytes += file.bytes;
    }
    return summary;
  });
}

function writerOf(markerPath: string): string {
  return markerPath.slice(WRITING_FOLDER.length + 1, -'.pid'.length);
}
