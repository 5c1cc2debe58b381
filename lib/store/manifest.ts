// The manifest: one JSON document naming every file of a store snapshot. Readers open only what it names.
import { createHash } from 'node:crypto';
import { StoreError } from '../errors.js';
import { compareText } from '../order.js';
import { dataKinds, type StoreAbout } from './about.js';

export const MANIFEST_FILE = 'manifest.json';
/**
 * The format written: 4 keeps a dataset's date-major copy a month a file (`byDate`, by-date.ts), 3 as one file of the
 * last days; 3 and 4 keep the reservoirs' names in a file of their own (names-file.ts), 2 kept them in the manifest.
 */
export const FORMAT_VERSION = 4;
/** The formats read (a store of a format before is read as it is; its next commit writes the format of now). */
export const READ_VERSIONS: readonly number[] = [2, 3, 4];

/** A file of the snapshot, with what is needed to verify it. */
export interface FileEntry {
  path: string; // relative to the store folder, always '/'-separated
  rows: number;
  bytes: number;
  sha256: string;
}

/** A data file, read piecewise: its footer first (verified here), then the column chunks a query needs (verified by the footer). */
export interface DataFile extends FileEntry {
  footerBytes: number; // the tail read first: the Parquet footer, its length and the magic
  footerSha256: string; // of those tail bytes; the footer holds a checksum of every column chunk
  start: string; // first date held
  end: string; // last date held
  index?: FileEntry; // the file's layout beside it (file-index.ts), read instead of the footer; absent in stores written before
}

/** A file of reservoir rows, sorted by name then date: one dataset, a span of days within one year, a range of names. */
export interface ReservoirFile extends DataFile {
  first: string; // first name held
  last: string; // last name held
}

/** A file of a dataset's date-major copy (by-date.ts): its rows sorted by date then name. */
export interface ByDateFile extends ReservoirFile {
  month?: string; // the month it holds whole, YYYY-MM (absent: a format-3 copy of the last days, never kept by a writer)
}

/** The files of one dataset and year; their (dates x names) rectangles never overlap. */
export interface ReservoirPartition {
  year: number;
  start: string; // first date held by any file
  end: string; // last date held by any file
  files: ReservoirFile[]; // by start date, then first name
}

/** A station's file: every date it has, sorted by date. */
export interface StationPartition extends DataFile {
  variables: string[];
}

/** One issue of the forecasts in its month's files: the rows it fills in each (half-open ranges, rows sorted by issue). */
export interface ForecastIssue {
  issued: string; // the issue date
  rows: [number, number]; // its statistics' rows in the month's statistics file
  members: number; // members kept (0: statistics only)
  memberRows: [number, number]; // its members' rows in the month's members file ([0, 0] when none)
  // the reservoirs it holds: the least and greatest name and how many, and their names when they are not every reservoir
  // of the store between those two (absent in issues written before: a reader then looks in the file)
  reservoirs?: { first: string; last: string; count: number; names?: string[] };
  withoutTotals?: string[]; // reservoirs loaded without members, so without the totals' statistics (absent: none)
}

/** A file of forecasts (its rows are a month's, whose issues the month names). */
export interface ForecastFile extends FileEntry {
  start: string; // first issue date held
  end: string; // last
  // the footer (its tail bytes) and their checksum: an issue's row groups are read alone, each chunk checked against
  // the footer; absent in files written before, which are read whole and checked against their SHA-256
  footerBytes?: number;
  footerSha256?: string;
  index?: FileEntry; // the footer's layout beside the file (file-index.ts), read instead of it; absent in files written before
}

/**
 * The forecasts of one file set: a file of statistics, a file of members where any are kept, and the table of the
 * totals over whole weeks of leads (lib/forecast/totals.ts). Written one issue per entry; stores written before hold
 * one entry per calendar month of issues (and no totals table), read the same way.
 */
export interface ForecastMonth {
  month: string; // YYYY-MM of the issue dates
  stats: ForecastFile;
  members: ForecastFile | null;
  totals?: ForecastFile; // one issue's totals: a row per window of leads, statistic and reservoir (absent before)
  issues: ForecastIssue[]; // by issue date
}

export interface Manifest {
  format: 'evap-store';
  version: number;
  snapshot: string; // unique id of this snapshot; also part of every file name it wrote
  sequence: number; // 1 for a store's first snapshot, then one more for each published after it
  created: string; // ISO timestamp
  rowGroupSize: number;
  // names: in memory always; in the file of a format-3 manifest not at all, but in `namesFile` (absent: no names)
  reservoirs: { names: string[]; metadata: FileEntry | null; namesFile?: FileEntry };
  stations: { names: string[]; metadata: FileEntry | null; partitions: Record<string, StationPartition>; byDate?: ByDateFile[] }; // byDate: by-date.ts
  datasets: Record<string, { variables: string[]; partitions: ReservoirPartition[]; byDate?: ByDateFile[] }>; // byDate: by-date.ts, by month
  forecasts?: ForecastMonth[]; // the forecasts' issue-months, oldest first (absent in stores without forecasts)
  byDateDays?: number; // the days of the date-major copy the store keeps, carried from snapshot to snapshot (absent: by-date.ts's default)
  about?: StoreAbout; // provenance and citation, carried from snapshot to snapshot (absent in stores written before it)
}

/** An empty manifest for a new store. */
export function emptyManifest(snapshot: string, rowGroupSize: number): Manifest {
  return {
    format: 'evap-store',
    version: FORMAT_VERSION,
    snapshot,
    sequence: 0,
    created: new Date().toISOString(),
    rowGroupSize,
    reservoirs: { names: [], metadata: null },
    stations: { names: [], metadata: null, partitions: {} },
    datasets: {},
  };
}

/** Parses and checks manifest text; every path must stay inside the store folder. */
export function parseManifest(text: string): Manifest {
  let value: Manifest;
  try {
    value = JSON.parse(text) as Manifest;
  } catch (error) {
    throw new StoreError(`manifest.json is not valid JSON: ${(error as Error).message}`);
  }
  if (value?.format !== 'evap-store') throw new StoreError('manifest.json is not an evap store manifest (format field)');
  if (!READ_VERSIONS.includes(value.version)) {
    throw new StoreError(
      `manifest.json has format version ${value.version}; this library reads versions ${READ_VERSIONS.slice(0, -1).join(', ')} and ${READ_VERSIONS.at(-1)}`,
    );
  }
  value.sequence ??= 0; // a store written before snapshots were numbered
  checkShape(value);
  if (value.version >= 3 && value.reservoirs.names === undefined) {
    if (value.reservoirs.namesFile)
      deferNames(value.reservoirs); // read with the manifest (history.ts), not parsed here
    else value.reservoirs.names = [];
  }
  return value;
}

// A format-3 manifest's names are in its names file, read with it (names-file.ts, history.ts); until then asking for
// them is the caller's mistake, said as such. Setting them replaces the file's.
function deferNames(reservoirs: Manifest['reservoirs']): void {
  Object.defineProperty(reservoirs, 'names', {
    enumerable: true,
    configurable: true,
    get: () => {
      throw new StoreError(`the reservoirs' names are in ${reservoirs.namesFile?.path}, not read yet (read manifests with readCurrentManifest)`);
    },
    set: (value: string[]) => Object.defineProperty(reservoirs, 'names', { value, enumerable: true, writable: true, configurable: true }),
  });
}

/** A manifest's text as this library writes it (format 3): its reservoirs' names left to `namesFile`, set before. */
export function manifestText(manifest: Manifest): string {
  const { metadata, namesFile } = manifest.reservoirs;
  if (namesFile === undefined && manifest.reservoirs.names.length > 0) throw new StoreError('a manifest with names needs its names file');
  const reservoirs = namesFile === undefined ? { metadata } : { metadata, namesFile };
  return `${JSON.stringify({ ...manifest, version: FORMAT_VERSION, reservoirs })}\n`;
}

/** Where every published snapshot's manifest is kept (`snapshots/<sequence>.json`) until vacuum retires it. */
export const SNAPSHOTS_FOLDER = 'snapshots';

/** The history path of the snapshot with this sequence number; zero-padded so names sort in sequence order. */
export function snapshotPath(sequence: number): string {
  return `${SNAPSHOTS_FOLDER}/${String(sequence).padStart(10, '0')}.json`;
}

/** The sequence number of a history path written by snapshotPath, or undefined for any other file. */
export function snapshotSequence(path: string): number | undefined {
  const match = /^snapshots\/(\d{10})\.json$/.exec(path);
  return match ? Number(match[1]) : undefined;
}

/** Every file a manifest names. */
export function manifestFiles(manifest: Manifest): FileEntry[] {
  const files: FileEntry[] = [];
  if (manifest.reservoirs.metadata) files.push(manifest.reservoirs.metadata);
  if (manifest.reservoirs.namesFile) files.push(manifest.reservoirs.namesFile);
  if (manifest.stations.metadata) files.push(manifest.stations.metadata);
  const withIndex = (f: DataFile) => {
    files.push(f);
    if (f.index) files.push(f.index);
  };
  for (const dataset of Object.values(manifest.datasets)) {
    for (const p of dataset.partitions) for (const f of p.files) withIndex(f);
    for (const f of dataset.byDate ?? []) withIndex(f);
  }
  for (const p of Object.values(manifest.stations.partitions)) withIndex(p);
  for (const f of manifest.stations.byDate ?? []) withIndex(f);
  for (const m of manifest.forecasts ?? [])
    for (const f of [m.stats, ...(m.members ? [m.members] : []), ...(m.totals ? [m.totals] : [])]) files.push(f, ...(f.index ? [f.index] : []));
  return files;
}

/** The files holding the store's rows once each: the metadata tables, the partitions and the forecasts (no index, no date-major copy). */
export function rowFiles(manifest: Manifest): FileEntry[] {
  const files: FileEntry[] = [];
  if (manifest.reservoirs.metadata) files.push(manifest.reservoirs.metadata);
  if (manifest.stations.metadata) files.push(manifest.stations.metadata);
  for (const dataset of Object.values(manifest.datasets)) for (const p of dataset.partitions) files.push(...p.files);
  files.push(...Object.values(manifest.stations.partitions));
  for (const m of manifest.forecasts ?? []) files.push(...(m.members ? [m.stats, m.members] : [m.stats]));
  return files;
}

// Checks every field a reader relies on, so a damaged manifest is a StoreError naming the field, never a TypeError
// or a wrong answer later (loops, not recursion or spreads: a million entries must not overflow the stack).
function checkShape(m: Manifest): void {
  const fail = (what: string) => {
    throw new StoreError(`manifest.json is malformed: ${what}`);
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const count = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  // a checksum by its length only: one that is not lowercase hex never equals a file's own, so the file is refused when
  // read (a pattern test of each was a sixth of parsing the manifest of 44,000 reservoirs, in a fresh process)
  const hex = (v: unknown, length: number) => typeof v === 'string' && v.length === length;
  const day = (v: unknown) => v === '' || (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v));
  const names = (v: unknown, where: string) => {
    if (!Array.isArray(v)) fail(`${where} is not a list`);
    if (!allText(v as unknown[])) fail(`${where} holds a non-text name`);
  };
  const copies = (list: unknown, of: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) return fail(`the date-major copy of ${of} is not a list`);
    for (const f of list as unknown[]) {
      file(f, `the date-major copy of ${of}`, true);
      const { first, last, month } = f as ByDateFile;
      if (typeof first !== 'string' || typeof last !== 'string') fail(`the date-major copy of ${of} needs its first and last names`);
      if (month !== undefined && !(typeof month === 'string' && /^\d{4}-\d{2}$/.test(month))) fail(`the date-major copy of ${of} has a malformed month`);
    }
  };
  const file = (f: unknown, where: string, data: boolean) => {
    if (!isObject(f)) return fail(`${where} is not an object`);
    checkRelativePath(f.path as string);
    if (typeof f.path !== 'string' || !count(f.rows) || !count(f.bytes) || !hex(f.sha256, 64))
      fail(`${where} needs a path, rows and bytes (whole numbers) and a SHA-256`);
    if (
      data &&
      (!count(f.footerBytes) ||
        (f.footerBytes as number) < 8 ||
        (f.footerBytes as number) > (f.bytes as number) ||
        !hex(f.footerSha256, 64) ||
        !day(f.start) ||
        !day(f.end))
    ) {
      fail(`${where} (${String(f.path)}) needs footerBytes within its size, a footer SHA-256 and start and end dates`);
    }
    if (data && f.index !== undefined) file(f.index, `the index of ${String(f.path)}`, false);
  };
  if (!Number.isSafeInteger(m.sequence) || m.sequence < 0 || typeof m.snapshot !== 'string' || !count(m.rowGroupSize))
    fail('snapshot, sequence or rowGroupSize');
  if (!isObject(m.reservoirs) || !isObject(m.stations) || !isObject(m.datasets) || !isObject(m.stations.partitions)) fail('reservoirs, stations or datasets');
  if (m.about !== undefined) checkAbout(m.about, fail);
  if (m.byDateDays !== undefined && !count(m.byDateDays)) fail('byDateDays is not a whole number');
  // format 3 names them in a file, or, written some other way (JSON of a manifest in memory), lists them as format 2 did
  if (m.version < 3 || m.reservoirs.names !== undefined) names(m.reservoirs.names, 'reservoirs.names');
  if (m.version >= 3 && m.reservoirs.namesFile !== undefined) file(m.reservoirs.namesFile, 'reservoirs.namesFile', false);
  names(m.stations.names, 'stations.names');
  if (m.reservoirs.metadata !== null) file(m.reservoirs.metadata, 'reservoirs.metadata', false);
  if (m.stations.metadata !== null) file(m.stations.metadata, 'stations.metadata', false);
  for (const [dataset, entry] of Object.entries(m.datasets)) {
    if (!isObject(entry) || !Array.isArray(entry.partitions)) return fail(`dataset ${dataset}`);
    names(entry.variables, `dataset ${dataset} variables`);
    // format 3 wrote one file of the last days where format 4 writes a list of months
    if (isObject(entry.byDate) && m.version < 4) entry.byDate = [entry.byDate as unknown as ByDateFile];
    copies(entry.byDate, dataset);
    for (const p of entry.partitions as unknown[]) {
      if (!isObject(p) || !Number.isSafeInteger(p.year) || !Array.isArray(p.files)) return fail(`a partition of ${dataset}`);
      for (const f of p.files as unknown[]) {
        file(f, `a file of ${dataset} ${String(p.year)}`, true);
        if (typeof (f as ReservoirFile).first !== 'string' || typeof (f as ReservoirFile).last !== 'string')
          fail(`a file of ${dataset} ${String(p.year)} needs its first and last names`);
      }
    }
  }
  for (const [name, p] of Object.entries(m.stations.partitions)) {
    file(p, `the file of station ${name}`, true);
    names((p as StationPartition).variables, `station ${name} variables`);
  }
  copies(m.stations.byDate, 'the stations');
  if (m.forecasts !== undefined && !Array.isArray(m.forecasts)) fail('forecasts is not a list');
  const range = (r: unknown) => Array.isArray(r) && r.length === 2 && count(r[0]) && count(r[1]) && (r[0] as number) <= (r[1] as number);
  for (const month of (m.forecasts ?? []) as unknown[]) {
    if (!isObject(month) || typeof month.month !== 'string' || !Array.isArray(month.issues)) return fail('a month of forecasts');
    if (month.totals !== undefined && (!Array.isArray(month.issues) || month.issues.length !== 1))
      fail(`the totals of forecasts ${month.month} are of one issue`);
    for (const f of [month.stats, ...(month.members === null ? [] : [month.members]), ...(month.totals === undefined ? [] : [month.totals])]) {
      file(f, `a file of forecasts ${month.month}`, false);
      if (!day((f as ForecastFile).start) || !day((f as ForecastFile).end)) fail(`a file of forecasts ${month.month} needs its first and last issue dates`);
      const { footerBytes, footerSha256 } = f as ForecastFile;
      if ((footerBytes !== undefined || footerSha256 !== undefined) && !(count(footerBytes) && hex(footerSha256, 64)))
        fail(`a file of forecasts ${month.month} has a malformed footer length or checksum`);
      if ((f as ForecastFile).index !== undefined) file((f as ForecastFile).index, `the index of a file of forecasts ${month.month}`, false);
    }
    for (const issue of month.issues as unknown[]) {
      if (!isObject(issue) || !day(issue.issued) || !range(issue.rows) || !count(issue.members) || !range(issue.memberRows))
        fail(`an issue of forecasts ${month.month}`);
      const r = (issue as ForecastIssue).reservoirs;
      const texts = (list: unknown) => Array.isArray(list) && list.every((n) => typeof n === 'string');
      if (
        r !== undefined &&
        !(isObject(r) && typeof r.first === 'string' && typeof r.last === 'string' && count(r.count) && (r.names === undefined || texts(r.names)))
      )
        fail(`the reservoirs of an issue of forecasts ${month.month}`);
      if ((issue as ForecastIssue).withoutTotals !== undefined && !texts((issue as ForecastIssue).withoutTotals))
        fail(`the reservoirs without totals of an issue of forecasts ${month.month}`);
    }
  }
}

// whether every item is a string: an indexed loop, as it runs before the optimizing compiler sees it (44,000 names in a
// fresh process; a for-of loop's iterator cost several times more)
function allText(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) if (typeof list[i] !== 'string') return false;
  return true;
}

function checkAbout(about: unknown, fail: (what: string) => void): void {
  const a = about as Record<string, unknown>;
  if (typeof about !== 'object' || about === null || !(dataKinds as readonly unknown[]).includes(a.data)) return fail('about.data');
  for (const [key, value] of Object.entries(a)) if (typeof value !== 'string') fail(`about.${key} is not text`);
  for (const key of ['title', 'source', 'licence', 'citation', 'dayTimeZone']) if (typeof a[key] !== 'string') fail(`about.${key} is missing`);
}

function checkRelativePath(path: string): void {
  if (typeof path !== 'string' || outsideStore.test(path)) throw new StoreError(`manifest.json names a file outside the store: ${JSON.stringify(path)}`);
}

// a path that is empty, absolute, holds a backslash, or has an empty, '.' or '..' segment: one test of a regular
// expression instead of splitting each of a snapshot's thousand paths into an array
const outsideStore = /^$|^\/|\/$|\/\/|\\|(?:^|\/)\.\.?(?:\/|$)/;

/** Encodes a name for a Hive-style path segment: percent-encoding leaves no '/', '\\' or '.' to escape with. */
export function encodePathName(name: string): string {
  const encoded = encodeURIComponent(name).replace(/[.!~*'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  if (encoded.length <= MAX_PATH_NAME) return encoded;
  // a file system takes 255 bytes a name: a long one keeps a readable start and a digest of the whole name, after a
  // '~' (escaped above, so never in a short name's folder): two long names never share a folder
  const start = encoded.slice(0, MAX_PATH_NAME - 17).replace(/%[0-9A-F]?$/, '');
  return `${start}~${createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 16)}`;
}

/** The longest encoded name a partition folder holds (with `station=`, well under the 255 bytes of a file name). */
export const MAX_PATH_NAME = 200;

/** A rectangle of names and dates; ISO dates compare as text. */
export interface Extent {
  first: string;
  last: string;
  start: string;
  end: string;
}

/** Whether a file's names and dates overlap an extent (files of one dataset-year must not overlap each other). */
export function overlapsExtent(file: Extent, box: Extent): boolean {
  return compareText(file.first, box.last) <= 0 && compareText(box.first, file.last) <= 0 && file.start <= box.end && box.start <= file.end;
}
