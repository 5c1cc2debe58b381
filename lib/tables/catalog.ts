// Where the tables live in a store (`tables/<name>/metadata/`), Hadoop-catalog style: `v<N>.metadata.json` files and
// `version-hint.text` naming the newest, plus `tables/level.json`, the store snapshot they were last brought level with.
import { StoreError } from '../errors.js';
import { isBucketLocation } from '../store/bucket.js';
import type { Storage } from '../store/storage.js';
import type { TableMetadata } from './metadata.js';

export const TABLES_FOLDER = 'tables';
const METADATA = 'metadata';
export const LEVEL_FILE = `${TABLES_FOLDER}/level.json`;

/** A table's current metadata, its version number and its absolute path. */
export interface StoredTable {
  version: number;
  file: string; // absolute location of v<version>.metadata.json
  metadata: TableMetadata;
}

/** The absolute location of a store, as table metadata names it: `file:///...` for a folder, `s3://bucket/prefix`. */
export function tablesBase(storage: Storage): string {
  if (isBucketLocation(storage.location)) return storage.location;
  return `file://${storage.location.startsWith('/') ? '' : '/'}${storage.location.replaceAll('\\', '/')}`;
}

/** A table's absolute location. */
export function tableLocation(base: string, name: string): string {
  return `${base}/${TABLES_FOLDER}/${name}`;
}

/** The folder of a table's metadata, store-relative. */
export function metadataFolder(name: string): string {
  return `${TABLES_FOLDER}/${name}/${METADATA}`;
}

/** The store snapshot the tables were last level with, and the location they were written for. */
export async function readLevel(storage: Storage): Promise<{ sequence: number; location: string } | undefined> {
  const file = await storage.readText(LEVEL_FILE);
  if (!file) return undefined;
  try {
    const value = JSON.parse(file.text) as { sequence: number; location: string };
    return Number.isSafeInteger(value.sequence) && typeof value.location === 'string' ? value : undefined;
  } catch {
    return undefined; // rewritten at the next publish
  }
}

/** A table's newest metadata: the version the hint names, or a newer one a publisher wrote before it was stopped. */
export async function readTable(storage: Storage, name: string): Promise<StoredTable | undefined> {
  const folder = metadataFolder(name);
  const hint = await storage.readText(`${folder}/version-hint.text`);
  let version = hint ? Number.parseInt(hint.text.trim(), 10) : 0;
  if (!Number.isSafeInteger(version) || version < 0) version = 0;
  if (version === 0) {
    for (const f of await storage.list(folder)) {
      const match = /\/v(\d+)\.metadata\.json$/.exec(f.path);
      if (match) version = Math.max(version, Number(match[1]));
    }
    if (version === 0) return undefined;
  }
  while (await storage.exists(`${folder}/v${version + 1}.metadata.json`)) version++;
  let text = await storage.readText(`${folder}/v${version}.metadata.json`);
  if (!text) {
    // a hint naming a missing version (a damaged or hand-edited folder): the newest version there is, if any
    const versions = (await storage.list(folder)).flatMap((f) => /\/v(\d+)\.metadata\.json$/.exec(f.path)?.slice(1) ?? []).map(Number);
    if (versions.length === 0) return undefined;
    version = Math.max(...versions);
    text = await storage.readText(`${folder}/v${version}.metadata.json`);
    if (!text) throw new StoreError(`table ${name}: ${folder}/v${version}.metadata.json disappeared while read; run evap tables again`);
  }
  const metadata = JSON.parse(text.text) as TableMetadata;
  return { version, metadata, file: `${metadata.location}/${METADATA}/v${version}.metadata.json` };
}

/** Writes a table's next metadata file (only if no one wrote that version first), then its version hint. */
export async function writeTable(
  storage: Storage,
  name: string,
  stored: StoredTable | undefined,
  metadata: TableMetadata,
  count: (path: string, bytes: string) => void | Promise<void>,
): Promise<number> {
  const folder = metadataFolder(name);
  const version = (stored?.version ?? 0) + 1;
  const text = `${JSON.stringify(metadata)}\n`;
  if (!(await storage.create(`${folder}/v${version}.metadata.json`, text))) {
    throw new StoreError(`table ${name}: another writer published ${folder}/v${version}.metadata.json first; run evap tables`);
  }
  await storage.replace(`${folder}/version-hint.text`, `${version}\n`);
  await count(`${folder}/v${version}.metadata.json`, text);
  await count(`${folder}/version-hint.text`, `${version}\n`);
  return version;
}
