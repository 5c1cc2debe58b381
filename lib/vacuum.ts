// Removes what no snapshot needs any more: files replaced by later snapshots, and leftovers of killed writers.
import { listStoreFiles, markerAlive, removeStoreFile, withLock } from './disk.js';
import { MANIFEST_FILE, manifestFiles } from './manifest.js';
import { openStore } from './store.js';
import { WRITING_FOLDER } from './write.js';

export interface VacuumOptions {
  minAgeMs?: number; // keep unreferenced files younger than this (default 10 minutes), for readers of the previous snapshot
  dryRun?: boolean; // list what would go, delete nothing
}

/** What a vacuum removed (or would remove). */
export interface VacuumSummary {
  removed: string[];
  bytes: number;
}

/**
 * Deletes the files of the store that its manifest does not name, are older than `minAgeMs`, and do not belong to a
 * writer still at work. Runs under the store's commit lock, so no snapshot is published meanwhile.
 */
export async function vacuumStore(dir: string, options: VacuumOptions = {}): Promise<VacuumSummary> {
  const minAgeMs = options.minAgeMs ?? 10 * 60_000;
  return withLock(dir, `${MANIFEST_FILE}.lock`, async () => {
    const store = await openStore(dir);
    const kept = new Set(manifestFiles(store.manifest).map((f) => f.path));
    const busy = new Set<string>(); // snapshots whose writer is alive
    const markers = await listStoreFiles(dir, WRITING_FOLDER);
    for (const marker of markers) {
      const snapshot = marker.path.slice(WRITING_FOLDER.length + 1, -'.pid'.length);
      if (await markerAlive(dir, marker.path)) busy.add(snapshot);
    }
    const now = Date.now();
    const candidates = [
      ...(await listStoreFiles(dir, 'reservoirs')),
      ...(await listStoreFiles(dir, 'stations')),
      ...markers.filter((m) => !busy.has(m.path.slice(WRITING_FOLDER.length + 1, -'.pid'.length))),
      ...(await listStoreFiles(dir, '')).filter((f) => f.path.startsWith(`${MANIFEST_FILE}.`) && f.path.endsWith('.tmp')), // a killed commit's
    ];
    const summary: VacuumSummary = { removed: [], bytes: 0 };
    for (const file of candidates) {
      if (kept.has(file.path) || now - file.mtimeMs < minAgeMs) continue;
      if ([...busy].some((snapshot) => file.path.includes(`part-${snapshot}.`))) continue;
      if (!options.dryRun) await removeStoreFile(dir, file.path);
      summary.removed.push(file.path);
      summary.bytes += file.bytes;
    }
    return summary;
  });
}
