// Reader leases: an opened store names the snapshot it reads in `readers/`, so vacuum keeps that snapshot's files.
import { randomBytes } from 'node:crypto';
import type { Storage } from './storage.js';

export const READERS_FOLDER = 'readers';

/** The snapshot sequence a lease file holds, from its name `<sequence>.<pid>.<random>.lease`. */
export function leaseSequence(path: string): number {
  return Number(path.slice(READERS_FOLDER.length + 1).split('.')[0]);
}

/**
 * Takes a lease on a snapshot; returns its release. It lives while this process does (a folder's names the pid; a
 * bucket's is refreshed while held, as no other machine can see this process). A store that cannot be written gets none.
 */
export async function takeLease(storage: Storage, sequence: number): Promise<() => Promise<void>> {
  const path = `${READERS_FOLDER}/${sequence}.${process.pid}.${randomBytes(4).toString('hex')}.lease`;
  try {
    return await storage.mark(path);
  } catch {
    return async () => {}; // nobody can vacuum a store this process cannot write either
  }
}

/**
 * A snapshot's lease shared by the reads under way on it: given back once retired (the store moved to a newer
 * snapshot, or closed) and the last read has ended, so an answer still streaming from a replaced snapshot keeps its
 * files from a vacuum however long it takes.
 */
export class HeldLease {
  private reads = 0;
  private retired = false;
  private released = false;

  constructor(private readonly release: () => Promise<void>) {}

  /** A read begins; the function returned ends it (a second call does nothing). */
  enter(): () => void {
    this.reads++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--this.reads === 0 && this.retired) void this.giveBack().catch(() => {}); // a lease left behind only delays a vacuum
    };
  }

  /** No new reads will come: the lease goes now, or when the last read under way ends. */
  async retire(): Promise<void> {
    this.retired = true;
    if (this.reads === 0) await this.giveBack();
  }

  private async giveBack(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.release();
  }
}
