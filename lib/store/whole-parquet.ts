// Files written before their footer's checksum was kept (the forecasts of older stores): read whole through the
// store's reader, checked against the manifest's SHA-256, and kept among the reader's derived values while in use.
import { StoreError } from '../errors.js';
import type { FileEntry } from './manifest.js';
import { type ColumnValues, decodeChunkAsync, type FileLayout, parseFooter } from './parquet.js';
import type { PartitionReader } from './partitions.js';

/** A file read whole: its layout, and the columns of a row group decoded from its bytes. */
interface WholeParquet extends FileLayout {
  chunks(group: number, names: readonly string[]): Promise<(ColumnValues | undefined)[]>;
}

export function readWholeParquet(reader: PartitionReader, entry: FileEntry): Promise<WholeParquet> {
  return reader.derive(`whole#${entry.path}`, async () => {
    const bytes = await reader.wholeFile(entry);
    reader.checkWhole(entry, bytes);
    let layout: FileLayout;
    try {
      layout = parseFooter(bytes);
    } catch (error) {
      throw new StoreError(`store file ${entry.path} has an unreadable footer: ${(error as Error).message}`);
    }
    const chunks = (group: number, names: readonly string[]) =>
      Promise.all(
        names.map((name) => {
          const index = layout.columns.get(name);
          if (index === undefined) return undefined;
          const [start, end] = layout.ranges[group]![index]!;
          return decodeChunkAsync(layout, group, name, bytes.subarray(start, end));
        }),
      );
    return { value: { ...layout, chunks }, bytes: bytes.byteLength };
  });
}
