// The library's only use of node:fs: read and durably write files inside one store folder, and the few files of the
// package and folders of the demo store that lib/synthetic/demo.ts finds and makes.
import { createHash, randomBytes } from 'node:crypto';
import { close as closeFd, constants, existsSync, fstat, open as openFd, read as readFd, readFileSync, rmSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { StoreError } from '../errors.js';
import type { Storage } from './storage.js';

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

/** Positional reads of a store's files through a bounded set of open handles (a query reads a file many times). */
interface RangeReader {
  read(path: string, offset: number, length: number): Promise<Uint8Array>; // fewer bytes only past the end of the file
  forget(path: string): void; // the file at `path` was replaced or removed: a handle kept open would read the old one
  close(): Promise<void>;
}

interface OpenFile {
  fd: Promise<number>;
  users: number;
  evicted: boolean;
  idle?: NodeJS.Timeout; // closes it after a while unused: a store never closed holds no descriptors for long
}

const IDLE_CLOSE_MS = 5_000;

// node:fs's descriptor calls as promises: a FileHandle's open, read and close cost a fresh process twice the CPU of these
// (its objects and their JavaScript run in the interpreter), and a one-reservoir answer of decades opens 368 files
const openRead = (path: string) =>
  new Promise<number>((done, fail) => openFd(path, constants.O_RDONLY | constants.O_NOFOLLOW, (error, fd) => (error ? fail(error) : done(fd))));
const readAt = (fd: number, into: Uint8Array, at: number, length: number, position: number) =>
  new Promise<number>((done, fail) => readFd(fd, into, at, length, position, (error, bytesRead) => (error ? fail(error) : done(bytesRead))));
const sizeOf = (fd: number) => new Promise<number>((done, fail) => fstat(fd, (error, stats) => (error ? fail(error) : done(stats.size))));

/**
 * A RangeReader over a store folder keeping up to `maxOpen` files open, least recently used closed first (a file in
 * use is closed when its reads end). Symbolic links are refused, so a file swapped for a link cannot point outside.
 */
function createRangeReader(root: string, maxOpen = 64): RangeReader {
  const files = new Map<string, OpenFile>();
  const closeWhenIdle = (file: OpenFile) => {
    if (file.evicted && file.users === 0) void file.fd.then((fd) => closeFd(fd, () => undefined)).catch(() => undefined);
  };
  const acquire = (path: string): OpenFile => {
    let file = files.get(path);
    if (file) {
      files.delete(path);
      clearTimeout(file.idle);
    } else file = { fd: openRead(resolveInside(root, path)), users: 0, evicted: false };
    files.set(path, file);
    file.users++;
    for (const [oldest, old] of files) {
      if (files.size <= maxOpen) break;
      files.delete(oldest);
      old.evicted = true;
      closeWhenIdle(old);
    }
    return file;
  };
  return {
    async read(path, offset, length) {
      const file = acquire(path);
      try {
        const fd = await file.fd;
        // a read of "the rest" asks for more than a small file holds (the tables' manifest lists ask 1 GiB): a buffer
        // that large, zeroed then collected, cost a commit more CPU than all its writing
        const wanted = length > 1 << 20 ? Math.max(0, Math.min(length, (await sizeOf(fd)) - offset)) : length;
        const bytes = new Uint8Array(wanted);
        let done = 0;
        while (done < wanted) {
          const bytesRead = await readAt(fd, bytes, done, wanted - done, offset + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return done === wanted ? bytes : bytes.subarray(0, done);
      } catch (error) {
        if (files.get(path) === file) files.delete(path); // a failed open is not kept: the next read tries again
        file.evicted = true;
        if (error instanceof StoreError) throw error;
        throw new StoreError(`cannot read store file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
      } finally {
        file.users--;
        closeWhenIdle(file);
        if (file.users === 0 && !file.evicted) {
          file.idle = setTimeout(() => {
            if (file.users > 0 || files.get(path) !== file) return;
            files.delete(path);
            file.evicted = true;
            closeWhenIdle(file);
          }, IDLE_CLOSE_MS).unref();
        }
      }
    },
    forget(path) {
      const file = files.get(path);
      if (!file) return;
      files.delete(path);
      clearTimeout(file.idle);
      file.evicted = true;
      closeWhenIdle(file);
    },
    async close() {
      for (const file of files.values()) {
        clearTimeout(file.idle);
        file.evicted = true;
        closeWhenIdle(file);
      }
      files.clear();
    },
  };
}

/**
 * Writes a new file and flushes it to disk before returning. A file that is already there is replaced atomically, never
 * truncated and rewritten in place: a crash would leave it torn, and a copy of the store made with hard links would
 * change with it (the Iceberg tables republished for a new location rewrite files of the same names).
 */
async function writeDurable(root: string, path: string, bytes: Uint8Array | string | AsyncIterable<Uint8Array>, sync = true): Promise<void> {
  const full = resolveInside(root, path);
  await mkdir(dirname(full), { recursive: true });
  if (!sync) return writeFile(full, bytes);
  const created = await writeSynced(full, bytes, 'wx').then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw error;
    },
  );
  if (!created) await replaceAtomically(root, path, bytes);
}

/** Replaces a file atomically: write a temporary sibling, fsync, rename over, fsync the folder. */
async function replaceAtomically(root: string, path: string, bytes: Uint8Array | string | AsyncIterable<Uint8Array>): Promise<void> {
  const full = resolveInside(root, path);
  const temporary = `${full}.${process.pid}.${Date.now()}.tmp`;
  await mkdir(dirname(full), { recursive: true });
  await writeSynced(temporary, bytes);
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

async function writeSynced(full: string, bytes: Uint8Array | string | AsyncIterable<Uint8Array>, flags = 'w'): Promise<void> {
  const handle = await open(full, flags);
  try {
    if (typeof bytes === 'string' || bytes instanceof Uint8Array) await handle.writeFile(bytes);
    else for await (const piece of bytes) await handle.writeFile(piece); // a streamed file, a piece at a time (each from the current position)
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads the text of a store file, or undefined when it does not exist. */
async function readStoreText(root: string, path: string): Promise<string | undefined> {
  try {
    return await readFile(resolveInside(root, path), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Joins path segments with '/', the separator manifests use on every platform. */
export function storePath(...segments: string[]): string {
  return join(...segments)
    .split(sep)
    .join('/');
}

const STALE_LOCK_MS = 30_000;

/**
 * Creates a file with the given text only if no file has that path: the text is written and flushed under a temporary
 * name first, then hard-linked into place, so the file never exists half-written. False when the path was taken.
 */
export async function createExclusive(root: string, path: string, text: string): Promise<boolean> {
  const full = resolveInside(root, path);
  const temporary = `${full}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await mkdir(dirname(full), { recursive: true });
  await writeSynced(temporary, text);
  try {
    await link(temporary, full); // atomic, and fails with EEXIST if another process got there first
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

/**
 * Runs `work` holding an exclusive lock file in the store. The lock appears whole (pid, host, token) or not at all;
 * a lock left by a dead process, or older than any commit could hold it, is moved aside and taken over, and moving
 * aside checks that it moved the very lock it judged stale.
 */
async function withLock<T>(root: string, path: string, work: () => Promise<T>): Promise<T> {
  const full = resolveInside(root, path);
  const token = randomBytes(8).toString('hex');
  for (let attempt = 0; ; attempt++) {
    if (await createExclusive(root, path, `${process.pid} ${hostname()} ${token}`)) break;
    if (attempt > 100) throw new StoreError(`cannot take the store lock ${path}: held by another writer for too long`);
    const seen = await stat(full).catch(() => undefined);
    const owner = (await readFile(full, 'utf8').catch(() => '')).split(' ');
    if (seen && (!isOwnerAlive(owner) || Date.now() - seen.mtimeMs > STALE_LOCK_MS)) await takeOver(full, seen.ino);
    else await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
  }
  try {
    return await work();
  } finally {
    if ((await readFile(full, 'utf8').catch(() => '')).endsWith(token)) await rm(full, { force: true }); // ours still, not a taker's
  }
}

// Moves a stale lock aside; if another process replaced it since it was judged (another inode), puts that one back.
async function takeOver(full: string, judged: number): Promise<void> {
  const aside = `${full}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await rename(full, aside);
  } catch {
    return; // gone already: someone else took it over or released it
  }
  const moved = await stat(aside).catch(() => undefined);
  if (moved && moved.ino !== judged) await link(aside, full).catch(() => undefined); // a live lock: restore it (the commit's sequence check still guards if this loses)
  await rm(aside, { force: true });
}

function isOwnerAlive([pid, host]: string[]): boolean {
  if (host !== undefined && host !== '' && host !== hostname()) return true; // another machine's process: only its age can tell
  return isAlive(Number(pid));
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
async function listStoreFiles(root: string, folder: string): Promise<{ path: string; bytes: number; mtimeMs: number }[]> {
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
async function removeStoreFile(root: string, path: string): Promise<void> {
  await rm(resolveInside(root, path), { force: true });
}

/** Deletes a file of the store synchronously (for process exit, where nothing asynchronous runs). */
function removeStoreFileSync(root: string, path: string): void {
  rmSync(resolveInside(root, path), { force: true });
}

/** Whether a file of the store exists. */
async function storeFileExists(root: string, path: string): Promise<boolean> {
  return stat(resolveInside(root, path)).then(
    () => true,
    () => false,
  );
}

/** What a marker file holds to say which process wrote it: "<pid> <host>". */
function ownerStamp(): string {
  return `${process.pid} ${hostname()}`;
}

/** Whether the process that wrote a marker (a writer's, or a reader's lease) is still running. */
async function markerAlive(root: string, path: string): Promise<boolean> {
  const text = await readFile(resolveInside(root, path), 'utf8').catch(() => undefined);
  return text !== undefined && isOwnerAlive(text.split(' '));
}

/** A file's size and modification time as one string (undefined when it is missing): a cheap "has it changed?". */
async function fileStamp(root: string, path: string): Promise<string | undefined> {
  const info = await stat(resolveInside(root, path)).catch(() => undefined);
  return info && `${info.size}:${info.mtimeMs}:${info.ino}`;
}

const marked = new Map<string, string>(); // marker path -> store root, removed at exit by whoever still holds them
let exitHook = false;

/** A store folder on this machine as a Storage: atomic renames, exclusive creation by hard link, pid-stamped markers. */
export function folderStorage(root: string): Storage {
  const location = resolve(root);
  const reader = createRangeReader(location);
  return {
    location,
    read: reader.read,
    close: reader.close,
    async readText(path) {
      const tag = await fileStamp(location, path);
      const text = await readStoreText(location, path);
      return text === undefined ? undefined : { text, tag: tag ?? '' };
    },
    stamp: (path) => fileStamp(location, path),
    async write(path, bytes) {
      await writeDurable(location, path, bytes);
      reader.forget(path); // written over a file this storage had read
    },
    create: (path, text) => createExclusive(location, path, text),
    async replace(path, text, expected) {
      if (expected !== undefined && (await fileStamp(location, path)) !== expected) return false; // exact under the lock, where commits call it
      await replaceAtomically(location, path, text);
      reader.forget(path);
      return true;
    },
    list: (folder) => listStoreFiles(location, folder),
    exists: (path) => storeFileExists(location, path),
    async remove(path) {
      await removeStoreFile(location, path);
      reader.forget(path);
    },
    withLock: (path, work) => withLock(location, path, work),
    async mark(path) {
      await writeDurable(location, path, ownerStamp(), false); // a marker dies with its process: no need to survive a crash
      const key = `${location}\0${path}`;
      marked.set(key, path);
      if (!exitHook) {
        exitHook = true;
        process.once('exit', () => marked.forEach((p, k) => removeStoreFileSync(k.slice(0, k.indexOf('\0')), p)));
      }
      return async () => {
        marked.delete(key);
        await removeStoreFile(location, path);
      };
    },
    markerAlive: (file) => markerAlive(location, file.path),
  };
}

/** Whether a file or folder exists on this machine (any path: the package's own files, the demo store's folder). */
export function pathExists(path: string): boolean {
  return existsSync(path);
}

/** The text of a file on this machine (the package's own package.json). */
export function readTextFile(path: string): string {
  return readFileSync(path, 'utf8');
}

/**
 * Makes a folder under a temporary sibling name and renames it to `target`, so no process ever sees it half made.
 * When another process placed `target` first (it holds `marker` then), theirs is kept and this one's removed.
 */
export async function makeFolderAside(target: string, marker: string, make: (aside: string) => Promise<void>): Promise<void> {
  const aside = `${target}.${process.pid}.tmp`;
  await mkdir(dirname(target), { recursive: true });
  await rm(aside, { recursive: true, force: true });
  await make(aside);
  await rename(aside, target).catch(async (error: NodeJS.ErrnoException) => {
    if (!existsSync(join(target, marker))) throw error;
    await rm(aside, { recursive: true, force: true });
  });
}
