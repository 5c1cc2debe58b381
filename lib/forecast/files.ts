// The forecasts in the store: one issue per set of Parquet files (statistics; members where kept; the totals table),
// rows sorted by name, lead and statistic (or member), in row groups of a few reservoirs, so that "latest" of one
// reservoir decodes one small row group of one file. Stores written before hold a month of issues per file (rows
// sorted by issue first, each issue a run of rows the manifest names), read by the same code. Written within a store
// snapshot like every other file, so revisions and as_of behave as everywhere else.

import { gunzipSync } from 'node:zlib';
import { parquetRead } from 'hyparquet';
import { formatDay, parseDay } from '../dates.js';
import { StoreError } from '../errors.js';
import { sha256 } from '../store/disk.js';
import { parseFileIndex } from '../store/file-index.js';
import type { FileEntry, ForecastFile, ForecastIssue, ForecastMonth, Manifest } from '../store/manifest.js';
import { type ColumnValues, chunkSum, decodeChunkAsync, type FileLayout, type Footer, parseFooter } from '../store/parquet.js';
import type { ByteSource } from '../store/source.js';
import type { Issue, ReservoirForecast } from './issue.js';
import { ensembleStatistics } from './stats.js';
import { type ForecastVariable, forecastVariables, MAX_LEAD } from './variables.js';

const S = ensembleStatistics.length;

/** The month (YYYY-MM) of an issue day. */
export function monthOf(issued: number): string {
  return formatDay(issued).slice(0, 7);
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
const footers = new Map<string, Promise<FileLayout>>();
const KEPT_FOOTERS = 24;

export function remember<T>(cache: Map<string, T>, key: string, make: () => T, bound: number): T {
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

/** What a query needs of an issue: some reservoirs (default all), some variables (default all), their daily statistics and the totals' (default both). */
interface IssueWanted {
  names?: readonly string[];
  variables?: readonly ForecastVariable[];
  daily?: boolean;
  totals?: boolean;
}

/**
 * One issue of a month read back (its members too when `withMembers` and kept), only what `wanted` asks decoded: the
 * row groups whose name range holds a reservoir asked, and of them the columns of the variables asked; the values
 * not asked are NaN. Every byte read is checked (against the footer's chunk checksums, or the file's SHA-256).
 */
export function readIssue(
  source: ByteSource,
  where: string,
  month: ForecastMonth,
  entry: ForecastIssue,
  withMembers: boolean,
  wanted: IssueWanted = {},
): Promise<Issue> {
  const want = withMembers && entry.members > 0 && month.members !== null;
  const names = wanted.names === undefined ? undefined : [...new Set(wanted.names)].sort();
  const variables = wanted.variables === undefined ? [...forecastVariables] : forecastVariables.filter((v) => wanted.variables!.includes(v));
  const daily = wanted.daily ?? true;
  const totals = wanted.totals ?? true;
  return remember(
    decoded,
    [where, month.stats.path, entry.issued, want, variables.join(','), daily, totals, names?.join('\u0001') ?? '*'].join('\u0000'),
    () => decodeIssue(source, where, month, entry, want, { names, variables, daily, totals }),
    KEPT_ISSUES,
  );
}

/** Whether the issue holds the reservoir, by its manifest entry; undefined when the entry cannot say (then look in the file). */
export function issueHolds(entry: ForecastIssue, name: string, storeNames: ReadonlySet<string>): boolean | undefined {
  const r = entry.reservoirs;
  if (!r) return undefined;
  const facts = factsOf(entry, r, storeNames);
  if (facts.names) return facts.names.has(name);
  if (r.count === 0 || name < r.first || name > r.last) return false;
  // every reservoir of the store in the range was held when written; if the store's list has changed since, look
  return facts.full ? storeNames.has(name) : undefined;
}

// per issue entry (and the store's names it was asked against): its names as a set, and whether its range still holds
// exactly `count` of the store's reservoirs; made once, as list_issues asks every reservoir of every issue
const facts = new WeakMap<ForecastIssue, { store: ReadonlySet<string>; names: ReadonlySet<string> | undefined; full: boolean }>();
function factsOf(entry: ForecastIssue, r: NonNullable<ForecastIssue['reservoirs']>, storeNames: ReadonlySet<string>) {
  let known = facts.get(entry);
  if (known?.store !== storeNames) {
    let inRange = 0;
    if (!r.names) for (const n of storeNames) if (n >= r.first && n <= r.last) inRange++;
    known = { store: storeNames, names: r.names ? new Set(r.names) : undefined, full: inRange === r.count };
    facts.set(entry, known);
  }
  return known;
}

interface Decoding {
  names: string[] | undefined; // sorted; undefined: all
  variables: ForecastVariable[];
  daily: boolean;
  totals: boolean;
}

async function decodeIssue(source: ByteSource, where: string, month: ForecastMonth, entry: ForecastIssue, withMembers: boolean, d: Decoding): Promise<Issue> {
  const issued = parseDay(entry.issued, 'issued');
  const byName = new Map<string, ReservoirForecast>();
  const r = entry.reservoirs;
  // the manifest's range of the issue's reservoirs: an issue without any asked is not read at all
  const held = r?.names ? new Set(r.names) : undefined;
  if (d.names && r && !d.names.some((n) => r.count > 0 && n >= r.first && n <= r.last && (held === undefined || held.has(n)))) return { issued, byName };
  const asked = d.names === undefined ? undefined : new Set(d.names);
  // each value column's array in a reservoir's forecast, by the row's statistic (or member) and lead
  const statTargets = d.variables.flatMap((v) => [
    ...(d.daily ? [(f: ReservoirForecast) => f.stats[v]] : []),
    ...(d.totals ? [(f: ReservoirForecast) => f.totals[v]] : []),
  ]);
  const statColumns = d.variables.flatMap((v) => [...(d.daily ? [v] : []), ...(d.totals ? [`${v}_total`] : [])]);
  await readRows(
    source,
    where,
    month.stats,
    entry.rows,
    statColumns,
    asked,
    (name) => {
      const held = byName.get(name);
      if (held) return statTargets.map((t) => t(held));
      const made = emptyForecast();
      byName.set(name, made);
      return statTargets.map((t) => t(made));
    },
    (statistic) => {
      const s = statisticPosition.get(statistic);
      if (s === undefined) throw new StoreError(`${month.stats.path}: unknown statistic ${JSON.stringify(statistic)}`);
      return s;
    },
  );
  if (withMembers && month.members) {
    await readRows(
      source,
      where,
      month.members,
      entry.memberRows,
      d.variables,
      asked,
      (name) => {
        const f = byName.get(name);
        if (!f) return undefined;
        if (!f.members) {
          f.count = entry.members;
          f.members = Object.fromEntries(forecastVariables.map((v) => [v, new Float64Array(entry.members * MAX_LEAD).fill(Number.NaN)])) as Record<
            ForecastVariable,
            Float64Array
          >;
        }
        return d.variables.map((v) => f.members![v]);
      },
      (member) => Number(member.slice(1)) - 1,
    );
  }
  return { issued, byName };
}

const statisticPosition = new Map<string, number>(ensembleStatistics.map((s, i) => [s, i]));

function emptyForecast(): ReservoirForecast {
  const filled = () =>
    Object.fromEntries(forecastVariables.map((v) => [v, new Float64Array(S * MAX_LEAD).fill(Number.NaN)])) as Record<ForecastVariable, Float64Array>;
  return { stats: filled(), totals: filled(), count: 0, members: undefined };
}

const gzip = { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) };

/**
 * Reads the rows of [rowStart, rowEnd) of the names asked (all when undefined): for each row, the arrays its value
 * columns go to (`targets`, by its reservoir; undefined: skip it) at `position(statistic or member) * 28 + lead - 1`.
 */
async function readRows(
  source: ByteSource,
  where: string,
  file: ForecastFile,
  rows: [number, number],
  valueColumns: readonly string[],
  asked: ReadonlySet<string> | undefined,
  targets: (name: string) => Float64Array[] | undefined,
  position: (statistic: string) => number,
): Promise<void> {
  const columns = ['RES_NAME', 'lead_days', 'statistic', ...valueColumns];
  const add = (values: readonly ColumnValues[], from: number, to: number) => {
    const [names, leads, statistics] = values as [ColumnValues, ColumnValues, ColumnValues];
    let name: string | undefined;
    let arrays: Float64Array[] | undefined;
    let statistic: string | undefined;
    let at = 0;
    for (let i = from; i < to; i++) {
      const n = names[i] as string;
      if (n !== name) {
        name = n;
        arrays = asked && !asked.has(n) ? undefined : targets(n);
      }
      if (!arrays) continue;
      const st = statistics[i] as string;
      if (st !== statistic) {
        statistic = st;
        at = position(st) * MAX_LEAD - 1;
      }
      const lead = Number(leads[i]);
      for (let k = 0; k < arrays.length; k++) {
        const x = values[k + 3]![i];
        arrays[k]![at + lead] = x === null || x === undefined ? Number.NaN : Number(x);
      }
    }
  };
  if (file.footerSha256 === undefined) add(await readWhole(source, where, file, columns, rows), 0, rows[1] - rows[0]);
  else await readGroups(source, where, file, columns, rows, asked, add);
}

// files written before their footer's checksum was kept: read whole, checked against the file's SHA-256
async function readWhole(source: ByteSource, where: string, file: FileEntry, columns: string[], [rowStart, rowEnd]: [number, number]): Promise<ColumnValues[]> {
  const bytes = await remember(verified, `${where}\u0000${file.path}`, () => readVerified(source, file), KEPT_FILES);
  const rows = await new Promise<unknown[][]>((resolve, reject) => {
    parquetRead({ file: bytes, columns, rowStart, rowEnd, compressors: gzip, onComplete: (data) => resolve(data as unknown[][]) }).catch(reject);
  });
  return columns.map((_, c) => rows.map((row) => row[c] as number | string | null));
}

// only the row groups holding rows asked: those of the issue whose name range (the footer's statistics) holds a name
// asked; of each, the names first, then the other columns only if a name asked is there. The footer is checked
// against the manifest, each chunk against the footer.
export async function readGroups(
  source: ByteSource,
  where: string,
  file: ForecastFile,
  columns: string[],
  [rowStart, rowEnd]: [number, number],
  asked: ReadonlySet<string> | undefined,
  add: (values: readonly ColumnValues[], from: number, to: number) => void,
): Promise<void> {
  const footer = await remember(footers, `${where}\u0000${file.path}`, () => readLayout(source, file), KEPT_FOOTERS);
  const chunk = async (g: number, name: string) => {
    const index = footer.columns.get(name);
    if (index === undefined) throw new StoreError(`${file.path} has no column ${name}`);
    const [start, stop] = footer.ranges[g]![index]!;
    const bytes = await source.read(file.path, start, stop - start);
    if (footer.sums?.[g]?.[index] !== chunkSum(bytes))
      throw new StoreError(`${file.path} is corrupt: column ${name} of row group ${g} does not match its checksum`);
    return decodeChunkAsync(footer, g, name, bytes);
  };
  const names = asked === undefined ? undefined : [...asked];
  const groups: number[] = [];
  for (let g = 0; g + 1 < footer.groupStarts.length; g++) {
    if (footer.groupStarts[g + 1]! <= rowStart || footer.groupStarts[g]! >= rowEnd) continue;
    const range = footer.names[g];
    if (names && range && !names.some((n) => n >= range[0] && n <= range[1])) continue;
    groups.push(g);
  }
  const decodedGroups = await Promise.all(
    groups.map(async (g) => {
      const first = footer.groupStarts[g]!;
      const from = Math.max(rowStart, first) - first;
      const to = Math.min(rowEnd, footer.groupStarts[g + 1]!) - first;
      const resNames = await chunk(g, columns[0]!);
      if (asked) {
        let any = false;
        for (let i = from; i < to && !any; i++) any = asked.has(String(resNames[i]));
        if (!any) return undefined;
      }
      const rest = await Promise.all(columns.slice(1).map((c) => chunk(g, c)));
      return { values: [resNames, ...rest], from, to };
    }),
  );
  for (const group of decodedGroups) if (group) add(group.values, group.from, group.to);
}

// the layout from the index beside the file when there is one and it matches the manifest's checksum (JSON, parsed
// natively: the footer of a month's 600 row groups is 0.8 MB of Thrift), else from the footer
async function readLayout(source: ByteSource, file: ForecastFile): Promise<FileLayout> {
  if (file.index) {
    try {
      const bytes = await source.read(file.index.path, 0, file.index.bytes);
      if (sha256(bytes) === file.index.sha256)
        return parseFileIndex(new TextDecoder().decode(bytes), { rows: file.rows, bytes: file.bytes, footerBytes: file.footerBytes! });
    } catch {
      // a missing or unreadable index: the footer says the same
    }
  }
  return readFooter(source, file);
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
