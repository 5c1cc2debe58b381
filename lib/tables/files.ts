// The current data files of each table, for readers without Iceberg support (pandas alone): what `evap files` prints.
import { InvalidParameterError, StoreError } from '../errors.js';
import { readCurrentManifest } from '../store/history.js';
import { openStorage } from '../store/location.js';
import { readSnapshots, snapshotAt } from '../store/snapshots.js';
import type { Storage } from '../store/storage.js';
import { tableNames } from './fields.js';
import { snapshotTables } from './layout.js';

/** A data file of a table, with where to read it: an absolute path for a folder, `s3://bucket/key` for a bucket. */
export interface ListedFile {
  table: string;
  path: string;
  rows: number;
  bytes: number;
  partition: string; // the year, the station, or '' for a metadata table
}

export interface ListFilesOptions {
  asOf?: string; // an ISO date or time: the files of the snapshot current then (as `as_of` answers)
  table?: string; // one table (default: every table)
}

/** The data files of the store's current snapshot (or the one current at `asOf`), table by table. */
export async function listTableFiles(location: string | Storage, options: ListFilesOptions = {}): Promise<ListedFile[]> {
  if (options.table !== undefined && !tableNames.includes(options.table)) {
    throw new InvalidParameterError('table', `unknown table ${JSON.stringify(options.table)}; the tables are ${tableNames.join(', ')}`);
  }
  const storage = openStorage(location);
  const manifest = options.asOf === undefined ? await readCurrentManifest(storage) : snapshotAt(await readSnapshots(storage), options.asOf);
  if (!manifest) throw new StoreError(`no store at ${storage.location}: manifest.json is missing`);
  const out: ListedFile[] = [];
  for (const table of snapshotTables(manifest)) {
    if (options.table !== undefined && table.name !== options.table) continue;
    for (const group of table.groups) {
      for (const f of group.files) out.push({ table: table.name, path: `${storage.location}/${f.path}`, rows: f.rows, bytes: f.bytes, partition: group.key });
    }
  }
  return out;
}
