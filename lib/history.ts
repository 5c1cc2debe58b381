// The published snapshots: `snapshots/<sequence>.json` is the commit point, manifest.json a copy of the newest.
import { readStoreText } from './disk.js';
import { MANIFEST_FILE, parseManifest, snapshotPath, type Manifest } from './manifest.js';

/**
 * The snapshot a store serves: manifest.json, or a newer numbered snapshot when a writer was stopped between
 * publishing it and copying it to manifest.json. Undefined for a folder without a store.
 */
export async function readCurrentManifest(root: string): Promise<Manifest | undefined> {
  const text = await readStoreText(root, MANIFEST_FILE);
  if (text === undefined) return undefined;
  let manifest = parseManifest(text);
  for (let next; (next = await readNextManifest(root, manifest)); ) manifest = next;
  return manifest;
}

/** The snapshot published right after this one, if any. */
export async function readNextManifest(root: string, manifest: Manifest): Promise<Manifest | undefined> {
  if (manifest.sequence === 0) return undefined;
  const text = await readStoreText(root, snapshotPath(manifest.sequence + 1));
  return text === undefined ? undefined : parseManifest(text);
}
