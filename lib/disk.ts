// The library's only use of node:fs: read and durably write files inside one store folder.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { StoreError } from './errors.js';

/** The absolute path of a store-relative path; refuses anything that resolves outside the folder. */
export function resolveInside(root: string, path: string): string {
  const full = resolve(root, ...path.split('/'));
  const rel = relative(resolve(root), full);
  if (rel === '' || rel.startsWith('..') || rel.includes(`..${sep}`) || resolve(rel) === rel) {
    throw new StoreError(`refusing a path outside the store: ${JSON.stringify(path)}`);
  }
  return full;
}

/** The SHA-256 of some bytes, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads a file of the store as bytes. */
export async function readStoreFile(root: string, path: string): Promise<Uint8Array> {
  try {
    return await readFile(resolveInside(root, path));
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(`cannot read store file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}

/** Writes a new file and flushes it to disk before returning (files are never changed in place). */
export async function writeDurable(root: string, path: string, bytes: Uint8Array | string): Promise<void> {
  const full = resolveInside(root, path);
  await mkdir(dirname(full), { recursive: true });
  await writeSynced(full, bytes);
}

/** Replaces a file atomically: write a temporary sibling, fsync, rename over, fsync the folder. */
export async function replaceAtomically(root: string, path: string, text: string): Promise<void> {
  const full = resolveInside(root, path);
  const temporary = `${full}.${process.pid}.${Date.now()}.tmp`;
  await mkdir(dirname(full), { recursive: true });
  await writeSynced(temporary, text);
  try {
    await rename(temporary, full);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const folder = await open(dirname(full), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

async function writeSynced(full: string, bytes: Uint8Array | string): Promise<void> {
  const handle = await open(full, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads the text of a store file, or undefined when it does not exist. */
export async function readStoreText(root: string, path: string): Promise<string | undefined> {
  try {
    return await readFile(resolveInside(root, path), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Joins path segments with '/', the separator manifests use on every platform. */
export function storePath(...segments: string[]): string {
  return join(...segments).split(sep).join('/');
}

const STALE_LOCK_MS = 30_000;

/** Runs `work` holding an exclusive lock file in the store; a lock left by a process that died is taken over. */
export async function withLock<T>(root: string, path: string, work: () => Promise<T>): Promise<T> {
  const full = resolveInside(root, path);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(full, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 50) {
        throw new StoreError(`cannot take the store lock ${path}: ${(error as Error).message}`, { cause: error });
      }
      const owner = Number(await readFile(full, 'utf8').catch(() => ''));
      const age = Date.now() - ((await stat(full).catch(() => undefined))?.mtimeMs ?? 0);
      // its writer was killed mid-commit (or the pid was reused since: a commit holds the lock for milliseconds)
      if (!isAlive(owner) || age > STALE_LOCK_MS) await rm(full, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rm(full, { force: true });
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every file under a folder of the store ('' for its top level only), with its size and age (missing folder: none). */
export async function listStoreFiles(root: string, folder: string): Promise<{ path: string; bytes: number; mtimeMs: number }[]> {
  const base = folder === '' ? resolve(root) : resolveInside(root, folder);
  const entries = await readdir(base, { recursive: folder !== '', withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Promise.all(
    files.map(async (full) => {
      const info = await stat(full);
      return { path: storePath(folder || '.', relative(base, full)), bytes: info.size, mtimeMs: info.mtimeMs };
    }),
  );
}

/** Deletes a file of the store (gone already: fine). */
export async function removeStoreFile(root: string, path: string): Promise<void> {
  await rm(resolveInside(root, path), { force: true });
}

/** Whether a file of the store exists. */
export async function storeFileExists(root: string, path: string): Promise<boolean> {
  return stat(resolveInside(root, path)).then(
    () => true,
    () => false,
  );
}

/** Whether the process that wrote a pid file (a writer's marker) is still running. */
export async function markerAlive(root: string, path: string): Promise<boolean> {
  const pid = Number(await readFile(resolveInside(root, path), 'utf8').catch(() => ''));
  return isAlive(pid);
}

/** A file's size and modification time as one string (undefined when it is missing): a cheap "has it changed?". */
export async function fileStamp(root: string, path: string): Promise<string | undefined> {
  const info = await stat(resolveInside(root, path)).catch(() => undefined);
  return info && `${info.size}:${info.mtimeMs}:${info.ino}`;
}
