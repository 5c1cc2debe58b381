// Answers on stdout as an aligned table (a terminal's default), CSV (a pipe's default), JSON, or a Parquet file.
import { writeFile } from 'node:fs/promises';
import { formatNumber, recordsToCsv } from '../lib/format/csv.js';
import { didYouMean } from '../lib/suggest.js';
import type { WireRecord, WireValue } from '../lib/types.js';
import { UsageError } from './command.js';
import type { CliIo } from './io.js';
import { pathIn } from './paths.js';
import { visibleText } from './safe-text.js';

const formats = ['table', 'csv', 'json', 'parquet'] as const;
type Format = (typeof formats)[number];

export const formatUsage = `  --format F              table (aligned; the default on a terminal), csv (the default in a pipe), json, parquet
  --out FILE              write there instead of stdout (required for parquet); FILE.parquet, .csv or .json
                          chooses the format when --format is left out (another extension, like .xlsx, is refused)`;

// the format a file name's extension says
const extensions: Record<string, Format> = { '.parquet': 'parquet', '.csv': 'csv', '.json': 'json' };

/**
 * The format of `--out FILE`'s extension (.parquet, .csv, .json); undefined for a name without one or a .txt (text:
 * the default). Another extension promises a format evap does not write (mead.xlsx): a UsageError, unless --format says.
 */
function formatOfFile(out: string | undefined, asked: string | undefined): Format | undefined {
  const extension = out?.match(/\.[^./\\]+$/)?.[0]?.toLowerCase();
  if (extension === undefined || extension === '.txt') return undefined;
  if (Object.hasOwn(extensions, extension)) return extensions[extension];
  if (asked !== undefined) return undefined;
  throw new UsageError(`--out ${out}: evap writes no ${extension} files; name it .csv, .json or .parquet, or give --format (${formats.join(', ')})`);
}

/** The format asked for, else the --out file's extension's, else table on a terminal and CSV in a pipe; a contradiction is a UsageError. */
export function chooseFormat(io: CliIo, value: string | undefined, out: string | undefined): Format {
  if (value !== undefined && !(formats as readonly string[]).includes(value))
    throw new UsageError(`--format must be one of ${formats.join(', ')}; got ${JSON.stringify(value)}${didYouMean(value, formats)}`);
  const byFile = formatOfFile(out, value);
  if (value !== undefined && byFile !== undefined && value !== byFile)
    throw new UsageError(`--format ${value} contradicts --out ${out} (a ${byFile} file name); leave one out or make them agree`);
  const format = (value as Format | undefined) ?? byFile ?? (io.stdout.isTTY && out === undefined ? 'table' : 'csv');
  if (format === 'parquet' && out === undefined) throw new UsageError('--format parquet needs --out FILE');
  return format;
}

/** Writes text chunks to the run's stdout (waiting when the pipe is full) or to a file. */
export async function writeText(io: CliIo, chunks: AsyncIterable<string> | Iterable<string>, out?: string): Promise<void> {
  if (out !== undefined) {
    let text = '';
    for await (const chunk of chunks) text += chunk;
    await writeFile(pathIn(io, out), text);
    return;
  }
  for await (const chunk of chunks) {
    if (!io.stdout.write(chunk)) await new Promise((resolve) => io.stdout.once('drain', resolve));
  }
}

/** Writes whole records in the format (columns: the CSV header and table columns, in order). */
export async function writeRecords(
  io: CliIo,
  records: readonly WireRecord[],
  columns: readonly string[],
  format: Format,
  out?: string,
  metadata?: ReadonlyMap<string, string>, // a Parquet file's key-value metadata: the data's provenance
): Promise<void> {
  if (format === 'parquet') {
    // the table the server's parquet answers are made of: every column kept (one of gaps only too), typed by its name
    const { recordsToTable, tableToParquet } = await import('../lib/format/answer-table.js');
    await writeFile(pathIn(io, out!), tableToParquet(recordsToTable(records, columns, metadata)));
    return;
  }
  const text = format === 'json' ? `${JSON.stringify(records)}\n` : format === 'csv' ? recordsToCsv(records, columns) : formatTable(records, columns);
  await writeText(io, [text], out);
}

/** Records as aligned columns: a header, a rule, numbers right-aligned, missing values blank. */
export function formatTable(records: readonly WireRecord[], columns: readonly string[]): string {
  const cell = (v: WireValue | undefined) => (v === null || v === undefined ? '' : typeof v === 'number' ? formatNumber(v) : visibleText(String(v)));
  const rows = records.map((r) => columns.map((c) => cell(r[c])));
  const numeric = columns.map((c) => records.some((r) => typeof r[c] === 'number'));
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), ''].join('\n');
}
