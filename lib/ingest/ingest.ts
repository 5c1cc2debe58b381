// Ingest: load files exported from the public service (or long CSV, or metadata) into a store as one new snapshot.
// Upsert: a (name, dataset, date) row given by a file replaces the stored one (the variables it carries; the others
// are kept); partitions not touched are carried over unchanged; readers see the old snapshot until the commit.

import { ingestedAbout } from '../store/about.js';
import { openStorage } from '../store/location.js';
import { openReadback } from '../store/readback.js';
import type { Storage } from '../store/storage.js';
import type { MetadataRow } from '../types.js';
import { applyStaging } from './apply.js';
import { classifyKeys, type FileKind, type KnownNames, longColumns, metadataRow, stageLongRow, WideReader } from './records.js';
import { Staging } from './stage.js';
import { csvRows, decodeChunks, firstCharacter, type IngestSource, jsonObjects, SyntaxProblem } from './text.js';

export { type IngestSource, textSource } from './text.js';

export interface IngestOptions {
  skipBadRows?: boolean; // apply the good rows of a file that has bad ones (default: such a file is not applied at all)
  maxProblems?: number; // problems kept in the summary (default 1000); all are counted in `rejected`
  onProgress?: (done: number, total: number, what: string) => void;
}

/** Why a record (or a whole file) was rejected, and where. */
export interface IngestProblem {
  file: string;
  line: number; // 1-based; a CSV header is line 1, a JSON record is the line it starts on
  reason: string;
}

export interface IngestSummary {
  files: number; // files read
  filesApplied: number; // files whose rows went into the snapshot
  records: number; // input records accepted: wide records, long rows, metadata rows
  added: number; // store rows (name, dataset or station, date) that did not exist before
  replaced: number; // store rows that existed and were replaced
  rejected: number; // rejected records and unreadable files
  metadata: number; // metadata rows added or replaced
  partitions: number; // partition files written
  snapshot: string | null; // the snapshot published, or null when nothing changed
  problems: IngestProblem[];
}

type Format = 'json' | 'csv';
interface Classified {
  source: IngestSource;
  format: Format;
  kind: FileKind | 'empty';
}
interface Entries {
  entries: (readonly [string, unknown])[];
  line: number;
  problem?: string;
}

/** Loads files into the store in `dir` (created when absent) and publishes one new snapshot; returns a summary. */
export async function ingest(location: string | Storage, sources: readonly IngestSource[], options: IngestOptions = {}): Promise<IngestSummary> {
  const dir = openStorage(location);
  const base = await openReadback(dir); // the snapshot this ingest builds on, none for a new store
  const summary: IngestSummary = {
    files: sources.length,
    filesApplied: 0,
    records: 0,
    added: 0,
    replaced: 0,
    rejected: 0,
    metadata: 0,
    partitions: 0,
    snapshot: null,
    problems: [],
  };
  const report = (file: string, line: number, reason: string) => {
    summary.rejected++;
    if (summary.problems.length < (options.maxProblems ?? 1000)) summary.problems.push({ file, line, reason });
  };
  let done = 0;
  let total = sources.length;
  const progress = (what: string) => options.onProgress?.(++done, total, what);

  const files: Classified[] = [];
  for (const source of sources) {
    const found = await classify(source);
    if (typeof found === 'string') {
      report(source.name, 1, found);
      progress(source.name);
    } else files.push(found);
  }

  // metadata first, so that timeseries rows may name the reservoirs and stations it brings
  const metadata = { reservoirs: new Map<string, MetadataRow>(), stations: new Map<string, MetadataRow>() };
  for (const file of files.filter((f) => f.kind === 'reservoir-metadata' || f.kind === 'station-metadata')) {
    const key = file.kind === 'reservoir-metadata' ? 'RES_NAME' : 'STA_NAME';
    const rows: MetadataRow[] = [];
    const bad = await readFile(file, report, (record) => {
      const row = record.problem ?? metadataRow(record.entries, key, file.format === 'csv');
      if (typeof row === 'string') return row;
      rows.push(row);
      return undefined;
    });
    if (bad === 0 || (bad > 0 && options.skipBadRows)) {
      for (const row of rows) metadata[file.kind === 'reservoir-metadata' ? 'reservoirs' : 'stations'].set(row[key] as string, row);
      summary.records += rows.length;
      summary.filesApplied++;
    }
    progress(file.source.name);
  }

  const known: KnownNames = {
    reservoirs: new Set([...(base?.manifest.reservoirs.names ?? []), ...metadata.reservoirs.keys()]),
    stations: new Set([...(base?.manifest.stations.names ?? []), ...metadata.stations.keys()]),
  };
  const staging = new Staging();
  for (const file of files.filter((f) => f.kind === 'timeseries' || f.kind === 'long' || f.kind === 'empty')) {
    const fileStaging = new Staging();
    const wide = new WideReader(known);
    const headerProblem = file.kind === 'timeseries' && file.format === 'csv' ? wide.checkKeys(await csvHeader(file.source)) : undefined;
    if (headerProblem) {
      report(file.source.name, 1, `${headerProblem}; the file is not applied`);
      progress(file.source.name);
      continue;
    }
    const bad = await readFile(file, report, (record) => {
      if (record.problem) return record.problem;
      if (file.kind === 'long') return stageLongRow(fileStaging, known, Object.fromEntries(record.entries) as Record<(typeof longColumns)[number], string>);
      return wide.stage(fileStaging, record.entries);
    });
    if (bad === 0 || (bad > 0 && options.skipBadRows)) {
      staging.absorb(fileStaging);
      summary.filesApplied++;
    }
    progress(file.source.name);
  }
  summary.records += staging.records;
  const order = new Map(sources.map((s, i) => [s.name, i]));
  summary.problems.sort((a, b) => order.get(a.file)! - order.get(b.file)! || a.line - b.line);

  total += staging.partitions.size;
  try {
    // a store first made from files says so; one that has its provenance (a mirror, say) keeps it
    const about = base?.manifest.about
      ? undefined
      : ingestedAbout(
          sources.map((s) => s.name),
          new Date().toISOString(),
        );
    const applied = await applyStaging(dir, base, staging, metadata, progress, about);
    return { ...summary, ...applied };
  } finally {
    await base?.close(); // its lease: a bucket's would otherwise hold the replaced snapshot until it expires
  }
}

/** The format (from the first character) and kind (from the first record) of a file, or why it is not readable. */
async function classify(source: IngestSource): Promise<Classified | string> {
  const first = await firstCharacter(source);
  if (first === '') return { source, format: 'csv', kind: 'empty' };
  const format: Format = first === '[' || first === '{' ? 'json' : 'csv';
  try {
    const keys = format === 'csv' ? await csvHeader(source) : await jsonKeys(source);
    const kind = classifyKeys(keys);
    if (kind) return { source, format, kind };
  } catch (error) {
    if (error instanceof SyntaxProblem) return error.message;
    throw error;
  }
  return `not a file that can be ingested: expected wide records with RES_NAME or STA_NAME and start_date, a long CSV with columns ${longColumns.join(',')}, or metadata rows with RES_NAME or STA_NAME`;
}

/** The header of a CSV file. */
async function csvHeader(source: IngestSource): Promise<string[]> {
  for await (const { fields } of csvRows(decodeChunks(source.open()))) return fields.map((f) => f.trim());
  return [];
}

/** The keys of the first object of a JSON file. */
async function jsonKeys(source: IngestSource): Promise<string[]> {
  for await (const { value } of jsonObjects(decodeChunks(source.open()))) return typeof value === 'object' && value !== null ? Object.keys(value) : [];
  return [];
}

/** Reads every record of a file through `take` (which returns a reason to reject); returns how many were rejected. */
async function readFile(
  file: Classified,
  report: (file: string, line: number, reason: string) => void,
  take: (record: Entries) => string | undefined,
): Promise<number> {
  if (file.kind === 'empty') return 0;
  let bad = 0;
  try {
    for await (const record of recordsOf(file.source, file.format)) {
      const reason = take(record);
      if (reason !== undefined) {
        bad++;
        report(file.source.name, record.line, reason);
      }
    }
  } catch (error) {
    if (!(error instanceof SyntaxProblem)) throw error;
    report(file.source.name, error.line, error.message);
    return Number.POSITIVE_INFINITY; // unreadable: never applied
  }
  return bad;
}

/** The records of a file as key-value entries: JSON objects, or CSV rows under their header. */
async function* recordsOf(source: IngestSource, format: Format): AsyncGenerator<Entries> {
  const text = decodeChunks(source.open());
  if (format === 'json') {
    for await (const { value, line, duplicate } of jsonObjects(text)) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) yield { entries: [], line, problem: 'not a JSON object' };
      else if (duplicate !== undefined)
        yield { entries: [], line, problem: `key ${JSON.stringify(duplicate)} appears twice in the record` }; // JSON.parse would keep the last silently
      else yield { entries: Object.entries(value), line };
    }
    return;
  }
  let header: string[] | undefined;
  for await (const { fields, line } of csvRows(text)) {
    if (!header) {
      header = fields.map((f) => f.trim());
      continue;
    }
    const entries = header.map((h, i) => [h, fields[i] ?? ''] as const);
    yield fields.length === header.length ? { entries, line } : { entries, line, problem: `${fields.length} fields where the header has ${header.length}` };
  }
}
