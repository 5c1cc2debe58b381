// The reservoirs' names of a snapshot in a file of their own (manifest format 3), not in the manifest: at 44,000
// names, parsing them as 44,000 JSON strings (and collecting them) was two thirds of opening a store, and most answers
// look up one name or none. The file is UTF-8, a line per name; it is read with the manifest, kept as bytes, searched
// in place, and made into a list of strings only when something asks for every name.
import { StoreError } from '../errors.js';
import { sha256, storePath } from './disk.js';
import type { FileEntry, Manifest } from './manifest.js';
import { escapeName, NameLines, unescapeName } from './name-index.js';
import type { Storage } from './storage.js';

// where the names file a snapshot writes goes (`part-<snapshot>`: vacuum spares it while its writer runs)
const namesPath = (snapshot: string) => storePath('reservoirs', 'names', `part-${snapshot}.txt`);

/** The file's bytes: each name then a line break; a backslash, line feed or carriage return in a name escaped. */
export function encodeNames(names: readonly string[]): Uint8Array {
  let text = '';
  for (const name of names) text += `${/[\\\n\r]/.test(name) ? escapeName(name) : name}\n`;
  return encoder.encode(text);
}

/** The names a file holds, in its order. */
export function decodeNames(bytes: Uint8Array): string[] {
  const text = utf8.decode(bytes);
  if (text !== '' && !text.endsWith('\n')) throw new StoreError('the names file does not end with a line break');
  const names = text === '' ? [] : text.slice(0, -1).split('\n');
  return text.includes('\\') ? names.map(unescapeName) : names;
}

/** The names file a manifest's names came from, when they did (manifest format 3) and are unchanged since. */
export function nameLinesOf(manifest: Manifest): NameLines | undefined {
  const read = fromFile.get(manifest.reservoirs);
  return read && !read.replaced ? read.lines : undefined;
}

/**
 * Makes a manifest's `reservoirs.names` the names of its names file: read (and checked against its SHA-256) here, or
 * taken from the last files read, which the checksum names; made a list on first use. Nothing for a manifest of the
 * format before, whose names are in it.
 */
export async function loadNames(storage: Storage, manifest: Manifest): Promise<Manifest> {
  const entry = manifest.reservoirs.namesFile;
  if (entry === undefined) return manifest;
  let bytes = recent.get(entry.sha256);
  if (bytes === undefined) {
    const read = await storage.read(entry.path, 0, entry.bytes).catch((error: Error) => {
      throw new StoreError(`cannot read ${entry.path}, the names of snapshot ${manifest.sequence}: ${error.message}`, { cause: error });
    });
    if (read.byteLength !== entry.bytes || sha256(read) !== entry.sha256)
      throw new StoreError(`store file ${entry.path} is corrupt: checksum does not match the manifest`);
    bytes = read;
    remember(entry.sha256, bytes);
  }
  attach(manifest.reservoirs, new NameLines(bytes, entry.rows, entry.path));
  return manifest;
}

/**
 * The names file entry a manifest about to be published needs: its names file's own when its names came from one
 * unchanged, or when a file of the same bytes is named already (a write that added no reservoir); else a new file,
 * written here under the snapshot's name.
 */
export async function namesFileFor(storage: Storage, manifest: Manifest): Promise<FileEntry> {
  const named = manifest.reservoirs.namesFile;
  if (named && nameLinesOf(manifest)) return named;
  const bytes = encodeNames(manifest.reservoirs.names);
  const sum = sha256(bytes);
  if (named?.sha256 === sum && named.bytes === bytes.byteLength) return named;
  const path = namesPath(manifest.snapshot);
  await storage.write(path, bytes);
  remember(sum, bytes);
  return { path, rows: manifest.reservoirs.names.length, bytes: bytes.byteLength, sha256: sum };
}

// the names file read for a manifest's reservoirs object, and whether its names were set since
const fromFile = new WeakMap<object, { lines: NameLines; replaced: boolean }>();

function attach(reservoirs: Manifest['reservoirs'], lines: NameLines): void {
  const read = { lines, replaced: false };
  fromFile.set(reservoirs, read);
  let list: string[] | undefined;
  Object.defineProperty(reservoirs, 'names', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (list === undefined) {
        const names = decodeNames(lines.bytes);
        lines.checkCount(names.length);
        list = names;
      }
      return list;
    },
    set: (value: string[]) => {
      read.replaced = true;
      Object.defineProperty(reservoirs, 'names', { value, enumerable: true, writable: true, configurable: true });
    },
  });
}

// the last names files read or written, by checksum (snapshots of one store mostly share one): about 1 MB each at 44,000
const recent = new Map<string, Uint8Array>();
function remember(sum: string, bytes: Uint8Array): void {
  recent.delete(sum);
  recent.set(sum, bytes);
  for (const [oldest] of recent) if (recent.size > 4) recent.delete(oldest);
}

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true });
