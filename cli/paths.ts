// Locations typed on the command line, read as the run sees them: a folder from its working folder, a bucket with its environment.
import { resolve } from 'node:path';
import { isBucketLocation } from '../lib/store/bucket.js';
import { openStorage } from '../lib/store/location.js';
import type { Storage } from '../lib/store/storage.js';
import type { CliIo } from './io.js';

/** A folder the user typed, resolved against the run's folder (a bucket location, s3://..., as it is). */
export function pathIn(io: CliIo, path: string): string {
  return isBucketLocation(path) ? path : resolve(io.cwd, path);
}

/** A store location the user typed: a folder resolved against the run's folder, or a bucket reached with the run's environment. */
export function storageIn(io: CliIo, location: string): string | Storage {
  return isBucketLocation(location) ? openStorage(location, io.env) : resolve(io.cwd, location);
}
