// The published snapshots: `snapshots/<sequence>.json` is the commit point, manifest.json a copy of the newest.
import { StoreError } from '../errors.js';
import { openStorage } from './location.js';
import { FORMAT_VERSION, MANIFEST_FILE, type Manifest, manifestText, parseManifest, snapshotPath } from './manifest.js';
import { loadNames, namesFileFor } from './names-file.js';
import type { Storage } from './storage.js';

/**
 * The snapshot a store serves: manifest.json, or a newer numbered snapshot when a writer was stopped between
 * publishing it and copying it to manifest.json. Undefined for a folder without a store.
 */
export async function readCurrentManifest(location: string | Storage): Promise<Manifest | undefined> {
  return (await readManifestFile(openStorage(location)))?.manifest;
}

/** The served snapshot (as readCurrentManifest) and the tag of manifest.json as read, which a commit replaces only if unchanged. */
export async function readManifestFile(storage: Storage): Promise<{ manifest: Manifest; tag: string } | undefined> {
  const file = await storage.readText(MANIFEST_FILE);
  if (file === undefined) return undefined;
  let manifest = await loadNames(storage, parseManifest(file.text));
  for (let next; (next = await readNextManifest(storage, manifest)); ) manifest = next;
  return { manifest, tag: file.tag };
}

/** The snapshot published right after this one, if any. */
export async function readNextManifest(storage: Storage, manifest: Manifest): Promise<Manifest | undefined> {
  if (manifest.sequence === 0) return undefined;
  const file = await storage.readText(snapshotPath(manifest.sequence + 1));
  return file === undefined ? undefined : loadNames(storage, parseManifest(file.text));
}

/**
 * Publishes a snapshot (call under the store's lock): the exclusive creation of snapshots/<sequence>.json is the
 * commit point, then manifest.json is replaced if unchanged since read (`manifestTag`), else only while it names an
 * older snapshot, so it never moves back. Throws when another writer took the sequence number.
 */
export async function publishSnapshot(storage: Storage, manifest: Manifest, manifestTag: string | undefined): Promise<void> {
  manifest.version = FORMAT_VERSION; // a store of the format before is written in today's from its next snapshot on
  if (manifest.reservoirs.names.length > 0) manifest.reservoirs.namesFile = await namesFileFor(storage, manifest);
  else delete manifest.reservoirs.namesFile;
  const text = manifestText(manifest);
  if (!(await storage.create(snapshotPath(manifest.sequence), text))) {
    throw new StoreError(`another writer published snapshot number ${manifest.sequence} of ${storage.location} first; nothing was published, run it again`);
  }
  for (let tag = manifestTag; !(await storage.replace(MANIFEST_FILE, text, tag)); ) {
    const now = await storage.readText(MANIFEST_FILE);
    if (now === undefined || parseManifest(now.text).sequence >= manifest.sequence) break;
    tag = now.tag;
  }
}
