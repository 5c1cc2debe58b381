// The forecasts in the store: one issue-month per pair of Parquet files (statistics; members where kept), rows sorted
// by issue, then name, lead and statistic (or member), so that one issue is one run of rows the manifest names and
// "latest" decodes only the row groups of the newest issue of one file. Written within a store snapshot like every
// other file, so revisions and as_of behave as everywhere else.

import { gunzipSync } from 'node:zlib';
import { DateDay, Int32, makeVector, Table, type Vector } from 'apache-arrow';
import { parquetRead } from 'hyparquet';
import { formatDay, parseDay } from '../dates.js';
import { StoreError, WriterMisuseError } from '../errors.js';
import { sha256, storePath } from '../store/disk.js';
import type { FileEntry, ForecastFile, ForecastIssue, ForecastMonth, Manifest } from '../store/manifest.js';
import { type ColumnValues, chunkSum, decodeChunkAsync, type Footer, parseFooter } from '../store/parquet.js';
import type { ByteSource } from '../store/source.js';
import { floatVector, utf8Vector, withFieldIds } from '../store/vectors.js';
import type { StoreWriter } from '../store/write.js';
import { fieldIdsOf, forecastFields } from '../tables/fields.js';
import type { Issue, ReservoirForecast } from './issue.js';
import { ensembleStatistics } from './stats.js';
import { type ForecastVariable, forecastVariables, MAX_LEAD, memberName } from './variables.js';

const S = ensembleStatistics.length;

/** The month (YYYY-MM) of an issue day. */
export function monthOf(issued: number): string {
  return formatDay(issued).slice(0, 7);
}

/**
 * Writes the issues of one month (replacing whatever the snapshot held for that month) and names them in the
 * writer's snapshot. `months` is the snapshot's forecasts so far; the new list is returned and set on the writer.
 */
export async function writeForecastMonth(writer: StoreWriter, months: readonly ForecastMonth[], issues: readonly Issue[]): Promise<ForecastMonth[]> {
  if (issues.length === 0) throw new WriterMisuseError('a month of forecasts needs at least one issue');
  const sorted = [...issues].sort((a, b) => a.issued - b.issued);
  const month = monthOf(sorted[0]!.issued);
  for (let i = 0; i < sorted.length; i++) {
    if (monthOf(sorted[i]!.issued) !== month) throw new WriterMisuseError(`issue ${formatDay(sorted[i]!.issued)} is not in ${month}`);
    if (i > 0 && sorted[i]!.issued === sorted[i - 1]!.issued) throw new WriterMisuseError(`issue ${formatDay(sorted[i]!.issued)} is given twice`);
  }
  const known = new Set(writer.current.reservoirs.names);
  for (const issue of sorted)
    for (const name of issue.byName.keys()) if (!known.has(name)) throw new WriterMisuseError(`reservoir ${name} in the forecasts has no metadata row`);
  const stats = layOut(sorted, false);
  const members = layOut(sorted, true);
  const tag = `${writer.snapshot}-${sha256(new TextEncoder().encode(`${month}:${sorted.map((i) => i.issued).join(',')}`)).slice(0, 8)}`;
  // the footer's length and checksum kept: a reader reads only the row groups of the issue it wants, each chunk checked
  const write = async (kind: string, laid: LaidOut): Promise<ForecastFile> => {
    const { path, rows, bytes, sha256, start, end, footerBytes, footerSha256 } = await writer.writeForecastFile(
      storePath('forecasts', `month=${month}`, `${kind}-${tag}.parquet`),
      laid.table,
      laid.issuedDays,
      Math.max(1, laid.largest),
    );
    return { path, rows, bytes, sha256, start, end, footerBytes, footerSha256 };
  };
  const entry: ForecastMonth = {
    month,
    stats: await write('stats', stats),
    members: members.table.numRows > 0 ? await write('members', members) : null,
    issues: sorted.map((issue, i) => {
      const count = Math.max(0, ...[...issue.byName.values()].map((f) => f.count));
      return { issued: formatDay(issue.issued), rows: stats.ranges[i]!, members: count, memberRows: count > 0 ? members.ranges[i]! : [0, 0] };
    }),
  };
  const next = [...months.filter((m) => m.month !== month), entry].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
  writer.setForecasts(next);
  return next;
}

interface LaidOut {
  table: Table;
  issuedDays: Int32Array;
  ranges: [number, number][]; // per issue
  largest: number; // rows of the largest issue: the row-group size, so an issue spans two row groups at most
}

// the rows of a file: statistics (with the totals' statistics) or members (totals left null: a member's total is its sum)
function layOut(issues: readonly Issue[], members: boolean): LaidOut {
  const names: string[] = [];
  const issued: number[] = [];
  const leads: number[] = [];
  const statistic: string[] = [];
  const values = Object.fromEntries(
    forecastVariables.flatMap((v) => [
      [v, [] as number[]],
      [`${v}_total`, [] as number[]],
    ]),
  ) as Record<string, number[]>;
  const ranges: [number, number][] = [];
  let largest = 0;
  for (const issue of issues) {
    const start = names.length;
    for (const name of [...issue.byName.keys()].sort()) {
      const f = issue.byName.get(name)!;
      const count = members ? f.count : S;
      if (members && (f.count === 0 || !f.members)) continue;
      for (let lead = 1; lead <= MAX_LEAD; lead++) {
        for (let k = 0; k < count; k++) {
          names.push(name);
          issued.push(issue.issued);
          leads.push(lead);
          statistic.push(members ? memberName(k) : ensembleStatistics[k]!);
          const at = k * MAX_LEAD + lead - 1;
          for (const v of forecastVariables) {
            values[v]!.push(members ? f.members![v][at]! : f.stats[v][at]!);
            values[`${v}_total`]!.push(members ? Number.NaN : f.totals[v][at]!);
          }
        }
      }
    }
    ranges.push([start, names.length]);
    largest = Math.max(largest, names.length - start);
  }
  const issuedDays = Int32Array.from(issued);
  const columns: Record<string, Vector> = {
    RES_NAME: utf8Vector(names),
    issued: makeVector({ type: new DateDay(), data: issuedDays }),
    valid_date: makeVector({ type: new DateDay(), data: Int32Array.from(issued, (d, i) => d + leads[i]!) }),
    lead_days: makeVector({ type: new Int32(), data: Int32Array.from(leads) }),
    statistic: utf8Vector(statistic),
  };
  for (const [name, column] of Object.entries(values)) columns[name] = floatVector(Float64Array.from(column));
  const table = new Table(columns);
  return { table: withFieldIds(table, fieldIdsOf(forecastFields(), table.schema.names as string[])), issuedDays, ranges, largest };
}

/** The issue entries of a snapshot, oldest first, each with its month. */
export function issuesOf(manifest: Manifest): { month: ForecastMonth; issue: ForecastIssue }[] {
  return (manifest.forecasts ?? []).flatMap((month) => month.issues.map((issue) => ({ month, issue })));
}

// decoded issues and verified files, by the store's location and the file's path (a path names a file never rewritten)
const decoded = new Map<string, Promise<Issue>>();
const verified = new Map<string, Promise<ArrayBuffer>>();
const KEPT_ISSUES = 48;
const KEPT_FILES = 3;
const footers = new Map<string, Promise<Footer>>();
const KEPT_FOOTERS = 24;

function remember<T>(cache: Map<string, T>, key: string, make: () => T, bound: number): T {
  const held = cache.get(key);
  if (held !== undefined) {
    cache.delete(key);
    cache.set(key, held); // most recently used last
    return held;
  }
  const made = make();
  cache.set(key, made);
  if (cache.size > bound) cache.delete(cache.keys().next().value!);
  if (made instanceof Promise) made.catch(() => cache.get(key) === made && cache.delete(key));
  return made;
}

/** One issue of a month read back (its members too when `withMembers` and kept); every file checked against its SHA-256. */
export function readIssue(source: ByteSource, where: string, month: ForecastMonth, entry: ForecastIssue, withMembers: boolean): Promise<Issue> {
  const want = withMembers && entry.members > 0 && month.members !== null;
  return remember(
    decoded,
    `${where}\u0000${month.stats.path}\u0000${entry.issued}\u0000${want}`,
    () => decodeIssue(source, where, month, entry, want),
    KEPT_ISSUES,
  );
}

async function decodeIssue(source: ByteSource, where: string, month: ForecastMonth, entry: ForecastIssue, withMembers: boolean): Promise<Issue> {
  const issued = parseDay(entry.issued, 'issued');
  const byName = new Map<string, ReservoirForecast>();
  const stats = await readRows(source, where, month.stats, entry.rows);
  for (let r = 0; r < stats.names.length; r++) {
    const name = stats.names[r]!;
    let f = byName.get(name);
    if (!f) byName.set(name, (f = emptyForecast()));
    const s = ensembleStatistics.indexOf(stats.statistic[r] as (typeof ensembleStatistics)[number]);
    if (s < 0) throw new StoreError(`${month.stats.path}: unknown statistic ${JSON.stringify(stats.statistic[r])}`);
    const at = s * MAX_LEAD + stats.leads[r]! - 1;
    for (const v of forecastVariables) {
      f.stats[v][at] = stats.values[v]![r]!;
      f.totals[v][at] = stats.values[`${v}_total`]![r]!;
    }
  }
  if (withMembers && month.members) {
    const rows = await readRows(source, where, month.members, entry.memberRows);
    for (let r = 0; r < rows.names.length; r++) {
      const f = byName.get(rows.names[r]!);
      if (!f) continue;
      const m = Number(rows.statistic[r]!.slice(1)) - 1;
      if (!f.members) {
        f.count = entry.members;
        f.members = Object.fromEntries(forecastVariables.map((v) => [v, new Float64Array(entry.members * MAX_LEAD).fill(Number.NaN)])) as Record<
          ForecastVariable,
          Float64Array
        >;
      }
      for (const v of forecastVariables) f.members[v][m * MAX_LEAD + rows.leads[r]! - 1] = rows.values[v]![r]!;
    }
  }
  return { issued, byName };
}

function emptyForecast(): ReservoirForecast {
  const filled = () =>
    Object.fromEntries(forecastVariables.map((v) => [v, new Float64Array(S * MAX_LEAD).fill(Number.NaN)])) as Record<ForecastVariable, Float64Array>;
  return { stats: filled(), totals: filled(), count: 0, members: undefined };
}

interface Rows {
  names: string[];
  leads: number[];
  statistic: string[];
  values: Record<string, number[]>;
}

const gzip = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };

async function readRows(source: ByteSource, where: string, file: ForecastFile, rows: [number, number]): Promise<Rows> {
  const columns = ['RES_NAME', 'lead_days', 'statistic', ...forecastVariables.flatMap((v) => [v, `${v}_total`])];
  const values = file.footerSha256 === undefined ? await readWhole(source, where, file, columns, rows) : await readGroups(source, where, file, columns, rows);
  const number = (v: unknown) => (v === null || v === undefined ? Number.NaN : Number(v));
  const out: Rows = { names: Array.from(values[0]!, String), leads: Array.from(values[1]!, number), statistic: Array.from(values[2]!, String), values: {} };
  columns.slice(3).forEach((c, i) => (out.values[c] = Array.from(values[i + 3]!, number)));
  return out;
}

// files written before their footer's checksum was kept: read whole, checked against the file's SHA-256
async function readWhole(source: ByteSource, where: string, file: FileEntry, columns: string[], [rowStart, rowEnd]: [number, number]): Promise<ColumnValues[]> {
  const bytes = await remember(verified, `${where}\u0000${file.path}`, () => readVerified(source, file), KEPT_FILES);
  const rows = await new Promise<unknown[][]>((resolve, reject) => {
    parquetRead({ file: bytes, columns, rowStart, rowEnd, compressors: gzip, onComplete: (data) => resolve(data as unknown[][]) }).catch(reject);
  });
  return columns.map((_, c) => rows.map((row) => row[c] as number | string | null));
}

// only the row groups holding the rows asked: the footer checked against the manifest, each chunk against the footer
// (a month of statistics is 72 MB at 247 reservoirs, of which one issue needs one or two row groups)
async function readGroups(
  source: ByteSource,
  where: string,
  file: ForecastFile,
  columns: string[],
  [rowStart, rowEnd]: [number, number],
): Promise<ColumnValues[]> {
  const footer = await remember(footers, `${where}\u0000${file.path}`, () => readFooter(source, file), KEPT_FOOTERS);
  const out = columns.map(() => [] as (number | string | null)[]);
  for (let g = 0; g + 1 < footer.groupStarts.length; g++) {
    const first = footer.groupStarts[g]!;
    const end = footer.groupStarts[g + 1]!;
    if (end <= rowStart || first >= rowEnd) continue;
    const chunks = await Promise.all(
      columns.map(async (name) => {
        const index = footer.columns.get(name);
        if (index === undefined) throw new StoreError(`${file.path} has no column ${name}`);
        const [start, stop] = footer.ranges[g]![index]!;
        const bytes = await source.read(file.path, start, stop - start);
        if (footer.sums?.[g]?.[index] !== chunkSum(bytes))
          throw new StoreError(`${file.path} is corrupt: column ${name} of row group ${g} does not match its checksum`);
        return decodeChunkAsync(footer, g, name, bytes);
      }),
    );
    const from = Math.max(rowStart, first) - first;
    const to = Math.min(rowEnd, end) - first;
    chunks.forEach((values, c) => {
      for (let i = from; i < to; i++) out[c]!.push(values[i]!);
    });
  }
  return out;
}

async function readFooter(source: ByteSource, file: ForecastFile): Promise<Footer> {
  const tail = await source.read(file.path, file.bytes - file.footerBytes!, file.footerBytes!);
  if (sha256(tail) !== file.footerSha256) throw new StoreError(`${file.path} is corrupt: its footer does not match the manifest's checksum`);
  return parseFooter(tail);
}

async function readVerified(source: ByteSource, file: FileEntry): Promise<ArrayBuffer> {
  const bytes = await source.read(file.path, 0, file.bytes);
  if (bytes.byteLength !== file.bytes || sha256(bytes) !== file.sha256)
    throw new StoreError(`${file.path} does not match the manifest (size or SHA-256): the file was changed or damaged`);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
