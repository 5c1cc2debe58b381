// Reader leases: an opened store names the snapshot it reads in `readers/`, so vacuum keeps that snapshot's files.
import { randomBytes } from 'node:crypto';
import { ownerStamp, removeStoreFile, removeStoreFileSync, writeDurable } from './disk.js';

export const READERS_FOLDER = 'readers';

/** The snapshot sequence a lease file holds, from its name `<sequence>.<pid>.<random>.lease`. */
export function leaseSequence(path: string): number {
  return Number(path.slice(READERS_FOLDER.length + 1).split('.')[0]);
}

const held = new Map<string, string>(); // lease path -> store root, removed at exit by whoever still holds them
let exitHook = false;

/** Takes a lease on a snapshot; returns its release. A store folder that cannot be written (read-only) gets none. */
export async function takeLease(root: string, sequence: number): Promise<() => Promise<void>> {
  const path = `${READERS_FOLDER}/${sequence}.${process.pid}.${randomBytes(4).toString('hex')}.lease`;
  try {
    await writeDurable(root, path, ownerStamp(), false); // a lease dies with its process: no need to survive a crash
  } catch {
    return async () => {}; // nobody can vacuum a store this process cannot write either
  }
  held.set(path, root);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => held.forEach((r, p) => removeStoreFileSync(r, p)));
  }
  return async () => {
    held.delete(path);
    await removeStoreFile(root, path);
  };
}
