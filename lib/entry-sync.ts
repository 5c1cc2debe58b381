// evap/sync: another copy of the data: the HTTP client of a server (the library's queries over HTTP), a store copied
// or mirrored from one (docs/data.md). A script that reads a store (evap) loads none of it.
export { type ClientOptions, createClient, EvapClient, RemoteError } from './sync/client.js';
export { type CopyOptions, type CopySummary, copyStore } from './sync/copy.js';
export { type MirrorOptions, type MirrorSummary, mirror, PROGRESS_FILE } from './sync/mirror.js';
