// Copy a store's current snapshot to another location (a folder to a bucket, or back): every file checked against the
// manifest's size and SHA-256 when read and again after it is written, then the snapshot published there by the same
// commit protocol as a writer's. Resumable: a file the target already holds whole is not copied again.

import { StoreError } from '../errors.js';
import { sha256 } from '../store/disk.js';
import { publishSnapshot, readCurrentManifest, readManifestFile } from '../store/history.js';
import { openStorage } from '../store/location.js';
import { type FileEntry, MANIFEST_FILE, manifestFiles } from '../store/manifest.js';
import type { Storage } from '../store/storage.js';
import { publishTablesLocked } from '../tables/publish.js';
import { runPool } from './pool.js';

export interface CopyOptions {
  concurrency?: number; // files in flight (default 8)
  signal?: AbortSignal; // stops starting files; a later run resumes
  onProgress?: (done: number, total: number, what: string) => void;
}

export interface CopySummary {
  snapshot: string; // the snapshot now served by the target
  files: number; // files of the snapshot
  copied: number; // files written
  kept: number; // files the target already held whole (an earlier, interrupted copy; files shared with its snapshot)
  bytes: number; // bytes written
}

/**
 * Copies the snapshot `from` serves to `to` and publishes it there. The target must be empty or serve an older
 * snapshot (a copy never moves a store back); a target changed by someone else during the copy is not overwritten.
 */
export async function copyStore(from: string | Storage, to: string | Storage, options: CopyOptions = {}): Promise<CopySummary> {
  const source = openStorage(from);
  const target = openStorage(to);
  const manifest = await readCurrentManifest(source);
  if (!manifest) throw new StoreError(`no store at ${source.location}: manifest.json is missing`);
  const before = await readManifestFile(target);
  const files = manifestFiles(manifest);
  const summary: CopySummary = { snapshot: manifest.snapshot, files: files.length, copied: 0, kept: 0, bytes: 0 };
  if (before?.manifest.snapshot === manifest.snapshot) {
    summary.kept = files.length;
    return summary;
  }
  if (before && before.manifest.sequence >= manifest.sequence) {
    throw new StoreError(
      `${target.location} serves snapshot number ${before.manifest.sequence} (${before.manifest.snapshot}), not older than ${source.location}'s ${manifest.sequence}; a copy does not move a store back`,
    );
  }
  const held = new Map<string, number>();
  for (const folder of ['reservoirs', 'stations']) for (const f of await target.list(folder)) held.set(f.path, f.bytes);

  let done = 0;
  await runPool(files, options.concurrency ?? 8, options.signal, async (file) => {
    if (held.get(file.path) === file.bytes && (await isWhole(target, file))) summary.kept++;
    else {
      const bytes = await source.read(file.path, 0, file.bytes + 1); // one byte more: a file that grew is wrong too
      if (bytes.byteLength !== file.bytes || sha256(bytes) !== file.sha256) {
        throw new StoreError(`${source.location}/${file.path} does not match its manifest entry (size or SHA-256); nothing was published`);
      }
      await target.write(file.path, bytes);
      if (!(await isWhole(target, file)))
        throw new StoreError(`${target.location}/${file.path} reads back different from what was written; nothing was published`);
      summary.copied++;
      summary.bytes += bytes.byteLength;
    }
    options.onProgress?.(++done, files.length + 1, file.path);
  });

  await target.withLock(`${MANIFEST_FILE}.lock`, async () => {
    const now = await readManifestFile(target);
    if (now?.manifest.snapshot !== before?.manifest.snapshot) {
      throw new StoreError(
        `${target.location} changed during the copy (it now serves snapshot ${now?.manifest.snapshot}); nothing was published, run the copy again`,
      );
    }
    for (const file of files) {
      if (!(await target.exists(file.path)))
        throw new StoreError(`${target.location}/${file.path} disappeared during the copy (a vacuum?); nothing was published, run the copy again`);
    }
    await publishSnapshot(target, manifest, now?.tag);
    await publishTablesLocked(target); // the target's own tables: their metadata names the target's files
  });
  options.onProgress?.(files.length + 1, files.length + 1, MANIFEST_FILE);
  return summary;
}

/** Whether the target holds the file with the manifest's size and SHA-256 (read whole: a size alone proves nothing). */
async function isWhole(storage: Storage, file: FileEntry): Promise<boolean> {
  const bytes = await storage.read(file.path, 0, file.bytes + 1).catch(() => undefined);
  return bytes !== undefined && bytes.byteLength === file.bytes && sha256(bytes) === file.sha256;
}
