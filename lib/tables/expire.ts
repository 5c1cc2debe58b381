// Expiring Iceberg snapshots with the store's own retention: each table keeps the snapshots that were its current one
// at some retained store snapshot, and a vacuum deletes a file only after the metadata that no longer names it is out.
import type { Storage, StoredFile } from '../store/storage.js';
import { metadataFolder, readTable, writeTable } from './catalog.js';
import { tableNames } from './fields.js';
import { decodeManifestList } from './manifests.js';
import { expireSnapshots, nextVersion } from './metadata.js';
import { publishTablesLocked, storagePath } from './publish.js';

interface ExpireSummary {
  expired: number; // Iceberg snapshots dropped, over all tables
  garbage: StoredFile[]; // metadata files no current metadata needs any more (the caller deletes them)
}

/**
 * Brings the tables level, then drops from each table's metadata the snapshots no retained store snapshot needs
 * (`retained`: sequence numbers, ascending), and lists the metadata files left unreferenced that are older than
 * `minAgeMs` (a killed publisher's, or those of expired snapshots). Call under the store's lock.
 */
export async function expireTablesLocked(storage: Storage, retained: readonly number[], minAgeMs: number, now = Date.now()): Promise<ExpireSummary> {
  await publishTablesLocked(storage);
  const summary: ExpireSummary = { expired: 0, garbage: [] };
  for (const name of tableNames) {
    let stored = await readTable(storage, name);
    if (!stored) continue;
    const ids = stored.metadata.snapshots.map((s) => s['snapshot-id']).sort((a, b) => a - b);
    const keep = new Set<number>();
    for (const r of unbrokenRun(retained)) {
      const at = ids.filter((id) => id <= r).pop(); // the table's snapshot current at store snapshot r
      if (at !== undefined) keep.add(at);
    }
    const next = nextVersion(stored.metadata, stored.file);
    const expired = expireSnapshots(next, keep);
    if (expired > 0) {
      await writeTable(storage, name, stored, next, () => {});
      summary.expired += expired;
      stored = await readTable(storage, name);
    }
    if (!stored) continue;
    const needed = new Set<string>(
      [stored.file, ...stored.metadata['metadata-log'].map((e) => e['metadata-file'])].map((f) => storagePath(stored!.metadata.location, name, f)),
    );
    for (const snapshot of stored.metadata.snapshots) {
      const list = storagePath(stored.metadata.location, name, snapshot['manifest-list']);
      needed.add(list);
      const bytes = await storage.read(list, 0, 1 << 30);
      for (const entry of decodeManifestList(bytes)) needed.add(storagePath(stored.metadata.location, name, entry.manifest_path));
    }
    needed.add(`${metadataFolder(name)}/version-hint.text`);
    for (const file of await storage.list(metadataFolder(name))) {
      if (!needed.has(file.path) && now - file.mtimeMs >= minAgeMs) summary.garbage.push(file);
    }
  }
  return summary;
}

// Engines resolve a time to the newest table snapshot at or before it, so a snapshot kept before a gap of retired ones
// (an older one a reader's lease holds) would answer the gap's times with that older data. The tables keep only the
// unbroken run of retained store snapshots that ends at the current one; an older held snapshot stays readable by the
// library (through its lease), not by engines, whose time travel before the run is then refused.
function unbrokenRun(retained: readonly number[]): number[] {
  const sorted = [...retained].sort((a, b) => b - a);
  const run = sorted.slice(0, 1);
  for (const sequence of sorted.slice(1)) {
    if (sequence !== run.at(-1)! - 1) break;
    run.push(sequence);
  }
  return run;
}
