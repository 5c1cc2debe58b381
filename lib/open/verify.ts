// A whole-store check: every byte of every file of the snapshot against the manifest and the footers' chunk checksums,
// and every file index against its footer.
import { checkTotals } from '../forecast/totals.js';
import { sha256 } from '../store/disk.js';
import { fileIndexText } from '../store/file-index.js';
import { type DataFile, type FileEntry, manifestFiles } from '../store/manifest.js';
import { parseFooter } from '../store/parquet.js';
import { createReaderCaches, PartitionReader } from '../store/partitions.js';
import type { ByteSource } from '../store/source.js';
import type { EvapStore } from './store.js';

/** What a verification found: files checked, bytes read, and one line per problem (empty when the store is whole). */
interface VerifySummary {
  files: number;
  bytes: number;
  problems: string[];
}

/** Reads every file of the store's snapshot whole and checks its size, SHA-256, footer and every column chunk. */
export async function verifyStore(
  store: EvapStore,
  source: ByteSource,
  onProgress?: (done: number, total: number, what: string) => void,
): Promise<VerifySummary> {
  const files = manifestFiles(store.manifest);
  // a forecast file keeps its footer's checksum too, but its columns are not the estimates' the reader checks: the
  // file's SHA-256 covers its every byte
  const entries = store.manifest.forecasts ?? [];
  const forecasts = new Set(entries.flatMap((m) => [m.stats.path, ...(m.members ? [m.members.path] : []), ...(m.totals ? [m.totals.path] : [])]));
  // an issue's totals table must say what its statistics file says (a query of the totals reads the table alone)
  const totalsOf = new Map(entries.filter((m) => m.totals).map((m) => [m.totals!.path, m]));
  const reader = new PartitionReader(source, createReaderCaches(0, 0)); // nothing cached: every check reads the disk
  const summary: VerifySummary = { files: 0, bytes: 0, problems: [] };
  const failed = new Set<string>();
  for (const file of files) {
    try {
      const bytes = await source.read(file.path, 0, file.bytes + 1); // one byte more: a file that grew is wrong too
      summary.bytes += bytes.byteLength;
      if (bytes.byteLength !== file.bytes) throw new Error(`store file ${file.path} has ${bytes.byteLength} bytes, the manifest says ${file.bytes}`);
      if (sha256(bytes) !== file.sha256) throw new Error(`store file ${file.path} is corrupt: checksum does not match the manifest`);
      if (isDataFile(file) && !forecasts.has(file.path)) await checkChunks(reader, file, source);
      else if (isDataFile(file) && file.index) await checkForecastIndex(file, file.index, bytes, source);
      const totalsEntry = totalsOf.get(file.path);
      if (totalsEntry && !failed.has(totalsEntry.stats.path)) await checkTotals(reader, totalsEntry); // a damaged file is its own problem
    } catch (error) {
      failed.add(file.path);
      summary.problems.push((error as Error).message);
    }
    summary.files++; // not inside the optional call below: without a callback its arguments are never evaluated
    onProgress?.(summary.files, files.length, file.path);
  }
  return summary;
}

// a forecast file's index must say what its footer says (the reader uses the index instead of the footer)
async function checkForecastIndex(file: DataFile, index: FileEntry, bytes: Uint8Array, source: ByteSource): Promise<void> {
  const text = await source.read(index.path, 0, index.bytes);
  if (sha256(text) === index.sha256 && new TextDecoder().decode(text) !== fileIndexText(parseFooter(bytes.subarray(bytes.byteLength - file.footerBytes))))
    throw new Error(`store file ${index.path} does not match the footer of ${file.path}`);
}

function isDataFile(file: FileEntry): file is DataFile {
  return 'footerSha256' in file;
}

async function checkChunks(reader: PartitionReader, file: DataFile, source: ByteSource): Promise<void> {
  const footer = await reader.footer(file);
  if (file.index) {
    // the index must say what the footer says: it is made from the footer, so the texts are equal
    const bytes = await source.read(file.index.path, 0, file.index.bytes);
    const text = new TextDecoder().decode(bytes);
    // an index that fails its own checksum is reported as its own file's problem
    if (sha256(bytes) === file.index.sha256 && text !== fileIndexText(footer))
      throw new Error(`store file ${file.index.path} does not match the footer of ${file.path}`);
  }
  for (let g = 0; g < footer.ranges.length; g++) for (const column of footer.columns.keys()) await reader.column(file, g, column);
}
