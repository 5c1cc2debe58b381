// The keys file as the operator edits it through `evap keys`: one SHA-256 digest a line, then `# <date> <label>`.
import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import { digestKey, generateKey, parseKeysFile } from './auth.js';

/** A key as listed: never the key, only a short prefix of its digest, its date and label. */
interface KeyEntry {
  id: string; // the first 12 hex characters of the key's SHA-256
  created: string; // YYYY-MM-DD
  label: string;
}

/** The keys a keys file accepts, with their dates and labels (lines written by hand may have neither); bad lines grant none. */
export function parseKeyEntries(text: string): KeyEntry[] {
  const entries: KeyEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const match = /^\s*([0-9a-fA-F]{64})\s*(?:#\s*(\d{4}-\d{2}-\d{2})?\s*(.*))?$/s.exec(raw);
    if (match) entries.push({ id: match[1]!.slice(0, 12).toLowerCase(), created: match[2] ?? '', label: (match[3] ?? '').trim() });
  }
  return entries;
}

/** Reads a keys file's entries; a missing file has none. */
export async function readKeyEntries(path: string): Promise<KeyEntry[]> {
  return parseKeyEntries(await readText(path));
}

/** The lines of a keys file the server ignores (each grants no key), as `path:line: why`. */
export async function readKeysFileProblems(path: string): Promise<string[]> {
  return parseKeysFile(await readText(path), path).problems;
}

/** Makes a key, appends its digest with today's date and the label, and returns the key (to be shown once). */
export async function addKey(path: string, label: string, today = new Date().toISOString().slice(0, 10)): Promise<{ key: string; entry: KeyEntry }> {
  const key = generateKey();
  const digest = digestKey(key).toString('hex');
  const clean = label.replace(/[\p{Cc}\p{Zl}\p{Zp}\p{Cs}]+/gu, ' ').trim(); // what would end or break the line
  await appendFile(path, `${digest} # ${today} ${clean}\n`, { mode: 0o600 });
  return { key, entry: { id: digest.slice(0, 12), created: today, label: clean } };
}

/**
 * Removes the keys whose id starts with `match` (6 characters at least) or whose label is `match`, by writing the
 * file anew and renaming it into place (the server sees the whole old file or the whole new one). Returns them.
 */
export async function revokeKey(path: string, match: string): Promise<KeyEntry[]> {
  const text = await readText(path);
  const hits = (entry: KeyEntry) => (match.length >= 6 && entry.id.startsWith(match.toLowerCase())) || entry.label === match;
  const removed: KeyEntry[] = [];
  const kept = text.split('\n').filter((line) => {
    const [entry] = line.trim() === '' ? [] : parseKeyEntries(line);
    if (entry && hits(entry)) {
      removed.push(entry);
      return false;
    }
    return true;
  });
  if (removed.length > 0) {
    const aside = `${path}.${process.pid}.tmp`;
    await writeFile(aside, kept.join('\n'), { mode: 0o600 });
    await rename(aside, path);
  }
  return removed;
}

async function readText(path: string): Promise<string> {
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
}
