// A store location (a folder path or `s3://bucket/prefix`) opened as the Storage that serves it.
import { bucketStorage, isBucketLocation } from './bucket.js';
import { folderStorage } from './disk.js';
import type { Storage } from './storage.js';

/** The storage of a store location: `s3://bucket/prefix` (with the AWS environment) or a folder; a Storage is kept. */
export function openStorage(location: string | Storage, env: NodeJS.ProcessEnv = process.env): Storage {
  if (typeof location !== 'string') return location;
  return isBucketLocation(location) ? bucketStorage(location, env) : folderStorage(location);
}
