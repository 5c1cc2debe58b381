// The forecasts in the store: one issue per set of Parquet files (statistics; members where kept; the totals table),
// rows sorted by name, lead and statistic (or member), in row groups of a few reservoirs, so that "latest" of one
// reservoir decodes one small row group of one file. Stores written before hold a month of issues per file (rows
// sorted by issue first, each issue a run of rows the manifest names), read by the same code. Written within a store
// snapshot like every other file, so revisions and as_of behave as everywhere else.

import { formatDay, parseDay } from '../dates.js';
import { StoreError } from '../errors.js';
import { type ForecastVariable, forecastVariables, MAX_LEAD } from '../forecast-variables.js';
import type { ForecastFile, ForecastIssue, ForecastMonth, Manifest } from '../store/manifest.js';
import type { ColumnValues } from '../store/parquet.js';
import type { PartitionReader, PiecewiseFile } from '../store/partitions.js';
import { readWholeParquet } from '../store/whole-parquet.js';
import type { Issue, ReservoirForecast } from './issue.js';
import { ensembleStatistics } from './stats.js';

const S = ensembleStatistics.length;

/** The month (YYYY-MM) of an issue day. */
export function monthOf(issued: number): string {
  return formatDay(issued).slice(0, 7);
}

/** The issue entries of a snapshot, oldest first, each with its month. */
export function issuesOf(manifest: Manifest): { month: ForecastMonth; issue: ForecastIssue }[] {
  return (manifest.forecasts ?? []).flatMap((month) => month.issues.map((issue) => ({ month, issue })));
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
export function readIssue(reader: PartitionReader, month: ForecastMonth, entry: ForecastIssue, withMembers: boolean, wanted: IssueWanted = {}): Promise<Issue> {
  const want = withMembers && entry.members > 0 && month.members !== null;
  const names = wanted.names === undefined ? undefined : [...new Set(wanted.names)].sort();
  const variables = wanted.variables === undefined ? [...forecastVariables] : forecastVariables.filter((v) => wanted.variables!.includes(v));
  const daily = wanted.daily ?? true;
  const totals = wanted.totals ?? true;
  // in the reader's cache of derived values (a file's path names one snapshot's file, never rewritten)
  const key = ['forecast', month.stats.path, entry.issued, want, variables.join(','), daily, totals, names?.join('\u0001') ?? '*'].join('\u0000');
  return reader.derive(key, async () => {
    const issue = await decodeIssue(reader, month, entry, want, { names, variables, daily, totals });
    let bytes = 0;
    for (const f of issue.byName.values())
      for (const held of [f.stats, f.totals, f.members ?? {}]) for (const a of Object.values(held) as Float64Array[]) bytes += a.byteLength;
    return { value: issue, bytes };
  });
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

async function decodeIssue(reader: PartitionReader, month: ForecastMonth, entry: ForecastIssue, withMembers: boolean, d: Decoding): Promise<Issue> {
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
    reader,
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
      reader,
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

/**
 * Reads the rows of [rowStart, rowEnd) of the names asked (all when undefined): for each row, the arrays its value
 * columns go to (`targets`, by its reservoir; undefined: skip it) at `position(statistic or member) * 28 + lead - 1`.
 */
async function readRows(
  reader: PartitionReader,
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
  await readGroups(reader, file, columns, rows, asked, add);
}

// only the row groups holding rows asked: those of the issue whose name range (the footer's statistics) holds a name
// asked; of each, the names first, then the other columns only if a name asked is there. Read by the store's reader:
// the footer (or the index beside it) checked against the manifest, each chunk against the footer, decoded chunks in
// its caches. Files written before their footer's checksum was kept are read whole (store/whole-parquet.ts).
export async function readGroups(
  reader: PartitionReader,
  file: ForecastFile,
  columns: string[],
  [rowStart, rowEnd]: [number, number],
  asked: ReadonlySet<string> | undefined,
  add: (values: readonly ColumnValues[], from: number, to: number) => void,
): Promise<void> {
  const piecewise = file.footerSha256 === undefined ? undefined : (file as PiecewiseFile);
  const whole = piecewise ? undefined : await readWholeParquet(reader, file);
  const footer = whole ?? (await reader.layout(piecewise!));
  const chunks = (g: number, names: string[]): Promise<(ColumnValues | undefined)[]> => (whole ? whole.chunks(g, names) : reader.columns(piecewise!, g, names));
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
      const [resNames] = await chunks(g, [columns[0]!]);
      if (asked) {
        let any = false;
        for (let i = from; i < to && !any; i++) any = asked.has(String(resNames![i]));
        if (!any) return undefined;
      }
      const rest = await chunks(g, columns.slice(1));
      const missing = rest.indexOf(undefined);
      if (missing >= 0) throw new StoreError(`${file.path} has no column ${columns[missing + 1]}`);
      return { values: [resNames!, ...rest] as ColumnValues[], from, to };
    }),
  );
  for (const group of decodedGroups) if (group) add(group.values, group.from, group.to);
}
