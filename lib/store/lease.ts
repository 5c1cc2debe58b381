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
