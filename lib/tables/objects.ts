// The files of a store's tables as objects under another root (a folder's tables served as `s3://<bucket>/...`): the
// data files as they are, the metadata files relocated (relocate.ts) and kept, since each is written once under its
// name. Only what an engine reading the tables needs is an object: the tables' folder and the Parquet files.
import type { Storage, StoredFile } from '../store/storage.js';
import { TABLES_FOLDER, tablesBase } from './catalog.js';
import { decodeManifestList } from './manifests.js';
import type { TableMetadata } from './metadata.js';
import { relocateManifest, relocateManifestList, relocateMetadata } from './relocate.js';

/** Bytes of relocated metadata kept (manifests are a few KB each; a store's tables have hundreds at most). */
const KEPT_BYTES = 32 * 2 ** 20;

/** An object: its key (store-relative path) and size. */
interface TableObject {
  key: string;
  bytes: number;
}

/** The objects of a store's tables, their metadata naming `root` (e.g. `s3://usbr.evap`) where it named the store. */
export class TableObjects {
  private readonly from: string;
  private readonly kept = new Map<string, Uint8Array>(); // relocated metadata by key, least recently used first
  private keptBytes = 0;

  constructor(
    private readonly storage: Storage,
    readonly root: string,
  ) {
    this.from = tablesBase(storage);
  }

  /** Whether a key names an object: under `tables/`, or a Parquet file, and a plain store-relative path. */
  static served(key: string): boolean {
    if (key === '' || key.startsWith('/') || key.split('/').some((part) => part === '' || part === '.' || part === '..')) return false;
    return key.startsWith(`${TABLES_FOLDER}/`) || key.endsWith('.parquet');
  }

  /** An object's size, or undefined when there is none. */
  async size(key: string): Promise<number | undefined> {
    if (!TableObjects.served(key)) return undefined;
    if (relocated(key)) return (await this.metadataFile(key))?.byteLength;
    const slash = key.lastIndexOf('/');
    const listed = await this.storage.list(slash < 0 ? '' : key.slice(0, slash));
    return listed.find((f) => f.path === key)?.bytes;
  }

  /** `length` bytes of an object from `offset` (fewer past its end); undefined when there is none. */
  async read(key: string, offset: number, length: number): Promise<Uint8Array | undefined> {
    if (!TableObjects.served(key)) return undefined;
    if (relocated(key)) return (await this.metadataFile(key))?.subarray(offset, offset + length);
    return this.storage.read(key, offset, length);
  }

  /** The objects whose keys start with `prefix`, in key order. */
  async list(prefix: string): Promise<TableObject[]> {
    const slash = prefix.lastIndexOf('/');
    const folder = slash < 0 ? '' : prefix.slice(0, slash);
    if (folder !== '' && !folder.split('/').every((part) => part !== '' && part !== '.' && part !== '..')) return [];
    const files: StoredFile[] = await this.storage.list(folder);
    const out: TableObject[] = [];
    for (const f of files.filter((f) => f.path.startsWith(prefix) && TableObjects.served(f.path)).sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const bytes = relocated(f.path) ? (await this.metadataFile(f.path))?.byteLength : f.bytes;
      if (bytes !== undefined) out.push({ key: f.path, bytes });
    }
    return out;
  }

  // a metadata file relocated under `root`, made once
  private async metadataFile(key: string): Promise<Uint8Array | undefined> {
    const kept = this.kept.get(key);
    if (kept) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const bytes = await this.storage.read(key, 0, 1 << 30).catch(() => undefined);
    if (!bytes || bytes.byteLength === 0) return undefined;
    let moved: Uint8Array;
    if (key.endsWith('.metadata.json')) {
      const metadata = JSON.parse(new TextDecoder().decode(bytes)) as TableMetadata;
      moved = new TextEncoder().encode(`${JSON.stringify(relocateMetadata(metadata, this.from, this.root))}\n`);
    } else if (/\/snap-[^/]*\.avro$/.test(key)) {
      const lengths = new Map<string, number>();
      // each manifest's relocated length, which the list records
      for (const entry of decodeManifestList(bytes)) {
        const path = entry.manifest_path.startsWith(`${this.from}/`) ? entry.manifest_path.slice(this.from.length + 1) : undefined;
        const manifest = path === undefined ? undefined : await this.metadataFile(path);
        lengths.set(entry.manifest_path, manifest?.byteLength ?? entry.manifest_length);
      }
      moved = relocateManifestList(bytes, this.from, this.root, (path) => lengths.get(path)!);
    } else {
      moved = relocateManifest(bytes, this.from, this.root);
    }
    this.keep(key, moved);
    return moved;
  }

  private keep(key: string, bytes: Uint8Array): void {
    this.kept.set(key, bytes);
    this.keptBytes += bytes.byteLength;
    for (const [k, v] of this.kept) {
      if (this.keptBytes <= KEPT_BYTES) break;
      this.kept.delete(k);
      this.keptBytes -= v.byteLength;
    }
  }
}

// the metadata files that name locations (the version hint and level.json name none)
function relocated(key: string): boolean {
  return key.startsWith(`${TABLES_FOLDER}/`) && (key.endsWith('.metadata.json') || key.endsWith('.avro'));
}
