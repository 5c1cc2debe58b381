// Publishing staged rows and metadata: merge each touched partition with what the store holds, write it, commit once.
import { formatDay } from '../dates.js';
import { compareText } from '../order.js';
import type { StoreAbout } from '../store/about.js';
import { overlapsExtent, type ReservoirFile } from '../store/manifest.js';
import { type Readback, readMetadataRows, readReservoirFiles, readStationPartition } from '../store/readback.js';
import type { Storage } from '../store/storage.js';
import type { MetadataRow } from '../types.js';
import { createStoreWriter, type StoreWriter } from '../writer/write.js';
import { mergeReservoirRows, mergeStationRows, type StagedPartition, type Staging } from './stage.js';

/** Metadata rows to add or replace, by name. */
export interface StagedMetadata {
  reservoirs: Map<string, MetadataRow>;
  stations: Map<string, MetadataRow>;
}

/** What a commit changed. */
interface Applied {
  added: number; // store rows (name, dataset or station, date) that did not exist before
  replaced: number; // store rows that existed and were replaced
  metadata: number; // metadata rows added or replaced
  partitions: number; // partition files written
  snapshot: string | null; // the snapshot published, or null when there was nothing to write
}

/** Writes the staged rows over the snapshot `base` (none for a new store), read back from its files, and publishes one new snapshot. */
export async function applyStaging(
  dir: string | Storage,
  base: Readback | undefined,
  staging: Staging,
  metadata: StagedMetadata,
  onPartition?: (what: string) => void,
  about?: StoreAbout, // the store's provenance, set with the rows (a mirror's source and retrieval time)
): Promise<Applied> {
  const applied: Applied = { added: 0, replaced: 0, metadata: metadata.reservoirs.size + metadata.stations.size, partitions: 0, snapshot: null };
  if (staging.partitions.size === 0 && applied.metadata === 0) return applied;
  const writer = createStoreWriter(dir, { base: base?.manifest });
  if (about) writer.setAbout(about);
  if (metadata.reservoirs.size > 0) await writer.writeReservoirMetadata(await upsertMetadata(base, 'reservoirs', metadata.reservoirs, 'RES_NAME'));
  if (metadata.stations.size > 0) await writer.writeStationMetadata(await upsertMetadata(base, 'stations', metadata.stations, 'STA_NAME'));
  const written = await writeStaging(writer, base, staging, onPartition);
  applied.added = written.added;
  applied.replaced = written.replaced;
  applied.partitions = written.partitions;
  applied.snapshot = (await writer.commit()).snapshot;
  return applied;
}

/** Writes the staged rows over `base` with `writer` (not committed), each touched partition merged with what it holds. */
export async function writeStaging(
  writer: StoreWriter,
  base: Readback | undefined,
  staging: Staging,
  onPartition?: (what: string) => void,
): Promise<{ added: number; replaced: number; partitions: number }> {
  const counts = { added: 0, replaced: 0, partitions: 0 };
  for (const [key, part] of [...staging.partitions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    staging.partitions.delete(key); // let the staged rows go once written
    const target = part.target;
    let merged: { added: number; replaced: number } | undefined;
    if (target.kind === 'reservoirs') {
      // only the files whose rows the staged ones fall among are read and rewritten: a revision costs what it revises
      const affected = affectedFiles(writer.current.datasets[target.dataset]?.partitions.find((p) => p.year === target.year)?.files ?? [], part);
      const old = base && affected.length > 0 ? await readReservoirFiles(base, target.dataset, affected) : undefined;
      const m = mergeReservoirRows(old, part);
      writer.removeReservoirFiles(
        target.dataset,
        target.year,
        affected.map((f) => f.path),
      );
      await writer.addReservoirRows(target.dataset, target.year, (merged = m).rows);
    } else {
      const old = base && (await readStationPartition(base, target.name));
      const m = mergeStationRows(old, part, target.name);
      if (old || m.rows.days.length > 0) await writer.writeStationPartition(target.name, (merged = m).rows);
    }
    if (merged) {
      counts.added += merged.added;
      counts.replaced += merged.replaced;
      counts.partitions++;
    }
    const what = target.kind === 'reservoirs' ? `${target.dataset} ${target.year}` : target.name;
    onPartition?.(what);
  }
  return counts;
}

/**
 * The files of a dataset-year to rewrite with staged rows: those overlapping the staged rows' dates and names, widened
 * until no other file overlaps what they and the staged rows span together (the rewritten files must not overlap the kept ones).
 */
function affectedFiles(files: readonly ReservoirFile[], staged: StagedPartition): ReservoirFile[] {
  const names = [...staged.cells.keys()].sort(compareText);
  if (names.length === 0) return [];
  let [low, high] = [Infinity, -Infinity];
  for (const days of staged.cells.values()) for (const day of days.keys()) [low, high] = [Math.min(low, day), Math.max(high, day)];
  let box = { first: names[0]!, last: names[names.length - 1]!, start: formatDay(low), end: formatDay(high) };
  let chosen: ReservoirFile[] = [];
  for (;;) {
    const next = files.filter((f) => overlapsExtent(f, box));
    if (next.length === chosen.length) return chosen;
    chosen = next;
    for (const f of chosen) {
      box = {
        first: compareText(f.first, box.first) < 0 ? f.first : box.first,
        last: compareText(f.last, box.last) > 0 ? f.last : box.last,
        start: f.start < box.start ? f.start : box.start,
        end: f.end > box.end ? f.end : box.end,
      };
    }
  }
}

/** The store's metadata rows with the given ones added or replaced (a given row replaces the whole row). */
async function upsertMetadata(
  base: Readback | undefined,
  kind: 'reservoirs' | 'stations',
  rows: Map<string, MetadataRow>,
  key: string,
): Promise<MetadataRow[]> {
  const merged = new Map<string, MetadataRow>((base ? await readMetadataRows(base, kind) : []).map((r) => [String(r[key]), r]));
  for (const [name, row] of rows) merged.set(name, row);
  return [...merged.values()];
}
