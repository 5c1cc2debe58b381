// Where a store lives: one small interface over a folder or an object-storage bucket, so the reader, the writer,
// vacuum and leases follow one protocol on both (location.ts opens the one a folder path or `s3://bucket/prefix` names).
import type { ByteSource } from './source.js';

/** A file of the store as a listing shows it. */
export interface StoredFile {
  path: string; // store-relative, '/'-separated
  bytes: number;
  mtimeMs: number; // when it was last written, on this machine's clock
}

/** A file's text with a tag that changes whenever the file is replaced (a folder's size-time-inode, a bucket's ETag). */
export interface TaggedText {
  text: string;
  tag: string;
}

/**
 * The operations a store needs from where it lives. Files are written once under new names; only manifest.json and
 * bookkeeping files are replaced, and the commit point is `create` of a new snapshot file, which one writer only can win.
 */
export interface Storage extends ByteSource {
  readonly location: string; // the folder or s3:// URL, for messages
  readText(path: string): Promise<TaggedText | undefined>; // undefined when absent
  stamp(path: string): Promise<string | undefined>; // the tag alone, cheaply: has it changed?
  write(path: string, bytes: Uint8Array | string | AsyncIterable<Uint8Array>): Promise<void>; // a new file, durable when this returns; pieces streamed where the storage can
  create(path: string, text: string): Promise<boolean>; // only if absent, whole or not at all; false when taken
  replace(path: string, text: string, expected?: string): Promise<boolean>; // atomically; false if its tag is no longer `expected`
  list(folder: string): Promise<StoredFile[]>; // every file under a folder ('' : the top level only)
  exists(path: string): Promise<boolean>;
  remove(path: string): Promise<void>; // gone already: fine
  withLock<T>(path: string, work: () => Promise<T>): Promise<T>; // one holder at a time, a dead holder's lock taken over
  mark(path: string): Promise<() => Promise<void>>; // a marker that stays alive while this process holds it; returns its release
  markerAlive(file: StoredFile): Promise<boolean>; // whether a marker's holder still holds it
}
