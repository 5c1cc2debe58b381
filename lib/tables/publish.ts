// Publishing the Iceberg tables of a store: after each store commit, every table whose files changed gets the matching
// Iceberg snapshot (new manifests for the changed partitions only), a new `v<N>.metadata.json`, then `version-hint.text`.
// The tables are derived data: whatever a crash left, publishing again brings them level with the store.
import { createHash } from 'node:crypto';
import { StoreError } from '../errors.js';
import { readCurrentManifest } from '../store/history.js';
import { openStorage } from '../store/location.js';
import { MANIFEST_FILE, type Manifest, parseManifest, snapshotPath } from '../store/manifest.js';
import { loadNames } from '../store/names-file.js';
import { readSnapshots } from '../store/snapshots.js';
import type { Storage } from '../store/storage.js';
import { LEVEL_FILE, metadataFolder, readLevel, readTable, type StoredTable, tableLocation, tablesBase, writeTable } from './catalog.js';
import { metadataFields } from './columns.js';
import { tableNames } from './fields.js';
import { fileBounds, snapshotTables } from './layout.js';
import { decodeManifestList, encodeManifest, encodeManifestList, type ManifestListEntry } from './manifests.js';
import { addSnapshot, emptyTableMetadata, nextVersion, type TableMetadata, useSchema } from './metadata.js';

/** What publishing did. */
export interface PublishSummary {
  sequence: number; // the store snapshot the tables are now level with
  tables: string[]; // tables given a new metadata file
  snapshots: number; // Iceberg snapshots added, over all tables
  files: number; // metadata files written (manifests, manifest lists, metadata, hints)
  bytes: number; // their bytes
}

/**
 * Whether the tables are behind the snapshot the store serves (a publish that failed after its commit, or a writer
 * stopped between the two): the store's sequence and the tables', or undefined when they are level (or there is no store).
 */
export async function tablesBehind(location: string | Storage): Promise<{ store: number; tables: number | undefined } | undefined> {
  const storage = openStorage(location);
  const current = await readCurrentManifest(storage);
  if (!current) return undefined;
  const level = await readLevel(storage).catch(() => undefined); // unreadable: as good as missing
  const tables = level?.location === tablesBase(storage) ? level.sequence : undefined; // written for another location: behind
  return tables !== undefined && tables >= current.sequence ? undefined : { store: current.sequence, tables };
}

/** Brings every table level with the store at `location`, under the store's lock (see publishTablesLocked). */
export async function publishTables(location: string | Storage): Promise<PublishSummary> {
  const storage = openStorage(location);
  return storage.withLock(`${MANIFEST_FILE}.lock`, () => publishTablesLocked(storage));
}

/**
 * Brings every table level with the store (call under the store's lock): applies, in order, each store snapshot
 * published since the tables were last level, or, for a table that is missing or was written for another location (a
 * moved folder, a copy), every retained snapshot from the start.
 */
export async function publishTablesLocked(storage: Storage): Promise<PublishSummary> {
  const current = await readCurrentManifest(storage);
  if (!current) throw new StoreError(`no store at ${storage.location}: manifest.json is missing`);
  const base = tablesBase(storage);
  const level = await readLevel(storage);
  const summary: PublishSummary = { sequence: current.sequence, tables: [], snapshots: 0, files: 0, bytes: 0 };
  const count = (bytes: Uint8Array | string) => {
    summary.files++;
    summary.bytes += typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength;
  };
  const write = async (path: string, bytes: Uint8Array | string) => {
    await storage.write(path, bytes);
    count(bytes);
  };
  const snapshots = new SnapshotSource(storage, current);
  for (const name of tableNames) {
    const stored = await readTable(storage, name);
    const location = tableLocation(base, name);
    const fresh = !stored || stored.metadata.location !== location || level?.location !== base;
    const from = fresh ? 0 : Math.max(level?.sequence ?? 0, stored.metadata['current-snapshot-id']);
    const history = await snapshots.after(fresh ? 0 : from);
    if (!fresh && history.length === 0) continue;
    const table = new TableUpdate(storage, name, location, stored, fresh, write);
    for (const manifest of history) if (await table.apply(manifest)) summary.snapshots++;
    if (await table.finish((_path, bytes) => count(bytes))) summary.tables.push(name);
  }
  if (level?.sequence !== current.sequence || level.location !== base) {
    await storage.replace(LEVEL_FILE, `${JSON.stringify({ sequence: current.sequence, location: base })}\n`);
  }
  return summary;
}

/** The store snapshots to apply: those after a sequence number still on record, oldest first, the current last. */
class SnapshotSource {
  private retained: Manifest[] | undefined;
  private readonly read = new Map<number, Manifest | undefined>(); // by sequence number, read once for all tables
  constructor(
    private readonly storage: Storage,
    private readonly current: Manifest,
  ) {}

  async after(sequence: number): Promise<Manifest[]> {
    if (sequence >= this.current.sequence) return [];
    if (sequence === 0 || this.current.sequence - sequence > 64) {
      this.retained ??= await readSnapshots(this.storage);
      return this.retained.filter((m) => m.sequence > sequence);
    }
    const found: Manifest[] = [];
    for (let s = sequence + 1; s < this.current.sequence; s++) {
      if (!this.read.has(s)) {
        const file = await this.storage.readText(snapshotPath(s));
        // a missing one was retired by vacuum: nothing to time-travel to
        this.read.set(s, file ? await loadNames(this.storage, parseManifest(file.text)).catch(() => undefined) : undefined);
      }
      const manifest = this.read.get(s);
      if (manifest) found.push(manifest);
    }
    return [...found, this.current];
  }
}

/** One table being brought level: the snapshots it gains, in memory until finish() writes its metadata. */
class TableUpdate {
  private metadata: TableMetadata | undefined;
  private entries = new Map<string, ManifestListEntry>(); // the current snapshot's manifests by the hash in their names
  private changed = false;
  private loaded = false;

  constructor(
    private readonly storage: Storage,
    private readonly name: string,
    private readonly location: string,
    private readonly stored: StoredTable | undefined,
    private readonly fresh: boolean,
    private readonly write: (path: string, bytes: Uint8Array | string) => Promise<void>,
  ) {}

  /** Adds the Iceberg snapshot of a store snapshot if this table's files changed in it; true if added. */
  async apply(manifest: Manifest): Promise<boolean> {
    await this.load();
    const table = tablesOf(manifest).find((t) => t.name === this.name)!;
    const hashes = table.groups.map((g) => groupHash(this.name, g.key, g.files));
    const same = hashes.length === this.entries.size && hashes.every((h) => this.entries.has(h));
    // a table gets a snapshot from the store's first one on, even empty, so that time travel reads it as empty, not as absent
    if (this.metadata && this.metadata.snapshots.length > 0 && same) {
      this.changed ||= this.fresh; // a new or moved table still gets its metadata file
      return false;
    }
    const fields = table.fields ?? (await metadataFields(this.storage, table)); // a schema changes only with the files
    if (!this.metadata) this.metadata = emptyTableMetadata(this.location, table.kind, fields);
    const metadata = this.metadata;
    const schemaId = useSchema(metadata, fields);
    const id = manifest.sequence;
    const entries = new Map<string, ManifestListEntry>();
    let added = 0;
    for (const [i, group] of table.groups.entries()) {
      const hash = hashes[i]!;
      const reused = this.entries.get(hash);
      if (reused) {
        entries.set(hash, reused);
        continue;
      }
      const path = `${metadataFolder(this.name)}/m-${hash}-${id}.avro`;
      const files = group.files.map((f) => ({ path: `${this.root}/${f.path}`, rows: f.rows, bytes: f.bytes, ...fileBounds(f) }));
      const schema = metadata.schemas.find((s) => s['schema-id'] === schemaId)!;
      const { bytes, entry } = encodeManifest({ kind: table.kind, partition: group.value, files, snapshotId: id, schema, path: `${this.root}/${path}` });
      await this.write(path, bytes);
      entries.set(hash, entry);
      added += files.length;
    }
    const removed = [...this.entries.keys()].filter((h) => !entries.has(h)).reduce((n, h) => n + this.entries.get(h)!.added_files_count, 0);
    const parent = metadata.snapshots.at(-1)?.['snapshot-id'];
    const listPath = `${metadataFolder(this.name)}/snap-${id}.avro`;
    await this.write(listPath, encodeManifestList([...entries.values()], id, parent ?? null));
    addSnapshot(metadata, {
      'snapshot-id': id,
      ...(parent === undefined ? {} : { 'parent-snapshot-id': parent }),
      'sequence-number': id,
      'timestamp-ms': Date.parse(manifest.created),
      'manifest-list': `${this.root}/${listPath}`,
      'schema-id': schemaId,
      summary: {
        operation: removed > 0 ? 'overwrite' : 'append',
        'added-data-files': String(added),
        'deleted-data-files': String(removed),
        'total-data-files': String(table.groups.reduce((n, g) => n + g.files.length, 0)),
        'total-records': String(table.groups.reduce((n, g) => n + g.files.reduce((m, f) => m + f.rows, 0), 0)),
        'evap.snapshot': manifest.snapshot,
      },
    });
    this.entries = entries;
    this.changed = true;
    return true;
  }

  /** Writes the new metadata file, then the version hint; true if the table changed. */
  async finish(count: (path: string, bytes: string) => void): Promise<boolean> {
    if (!this.changed || !this.metadata) return false;
    await writeTable(this.storage, this.name, this.stored, nextVersion(this.metadata, this.stored?.file), count);
    return true;
  }

  private get root(): string {
    return this.location.slice(0, -`/tables/${this.name}`.length);
  }

  // the current metadata and its snapshot's manifests (reused when their partition did not change)
  private async load(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    if (!this.stored || this.fresh) {
      if (this.stored) this.metadata = { ...structuredClone(this.stored.metadata), location: this.location, snapshots: [], 'snapshot-log': [] };
      if (this.metadata) {
        this.metadata['current-snapshot-id'] = -1;
        this.metadata.refs = {};
      }
      return;
    }
    this.metadata = structuredClone(this.stored.metadata);
    const snapshot = this.metadata.snapshots.find((s) => s['snapshot-id'] === this.metadata!['current-snapshot-id']);
    if (!snapshot) return;
    const list = await this.storage.read(storagePath(this.location, this.name, snapshot['manifest-list']), 0, 1 << 30);
    for (const entry of decodeManifestList(list)) this.entries.set(hashOf(entry.manifest_path), entry);
  }
}

const tablesOfManifest = new WeakMap<Manifest, ReturnType<typeof snapshotTables>>();

/** The tables of a store snapshot, worked out once for all seven. */
function tablesOf(manifest: Manifest): ReturnType<typeof snapshotTables> {
  let tables = tablesOfManifest.get(manifest);
  if (!tables) tablesOfManifest.set(manifest, (tables = snapshotTables(manifest)));
  return tables;
}

/** A manifest's identity: its table, partition and files (paths and sizes). */
function groupHash(table: string, key: string, files: readonly { path: string; bytes: number }[]): string {
  const text = `${table}\0${key}\0${files.map((f) => `${f.path}:${f.bytes}`).join('\n')}`;
  return createHash('sha256').update(text).digest('hex').slice(0, 24);
}

function hashOf(manifestPath: string): string {
  return /\/m-([0-9a-f]+)-\d+\.avro$/.exec(manifestPath)?.[1] ?? manifestPath;
}

/** The store-relative path of a file a table's metadata names by its absolute location. */
export function storagePath(location: string, table: string, uri: string): string {
  const root = location.slice(0, -`/tables/${table}`.length);
  if (!uri.startsWith(`${root}/`)) throw new StoreError(`table ${table} names ${uri}, outside its store ${root}`);
  return uri.slice(root.length + 1);
}
