// Writing forecasts: each issue as its own set of files (statistics; members where kept; the totals table,
// lib/forecast/totals.ts) and its own manifest entry, so a revision of one issue rewrites that issue alone and a
// reader of one issue reads its own small index. Rows sorted by name, lead and statistic (or member), in row groups
// of a few reservoirs, streamed to the files a row group at a time as the forecasts come (lib/forecast/rows.ts), so
// an issue of 44,000 reservoirs is written in the memory of a row group and of its totals.
import type { Table } from 'apache-arrow';
import { formatDay } from '../dates.js';
import { WriterMisuseError } from '../errors.js';
import { MAX_LEAD } from '../forecast-variables.js';
import { storePath } from '../store/disk.js';
import type { ForecastIssue, ForecastMonth } from '../store/manifest.js';
import type { StoreWriter } from '../writer/write.js';
import { Channel } from './channel.js';
import { monthOf } from './files.js';
import type { Issue, ReservoirForecast } from './issue.js';
import { ROW_COLUMNS, RowBatcher, TOTALS_COLUMNS, TotalsKeeper } from './rows.js';
import { ensembleStatistics } from './stats.js';
import { TOTAL_WINDOWS } from './totals.js';

const S = ensembleStatistics.length;

/** An issue to write as its rows are made: its reservoirs in order, and their forecasts in that order, made when asked. */
interface IssueSource {
  issued: number; // epoch day
  names: readonly string[]; // sorted
  memberCounts: readonly number[]; // per name, the members it keeps (0: none)
  forecasts: Iterable<ReservoirForecast> | AsyncIterable<ReservoirForecast>; // one per name, in order
}

/**
 * Writes issues, each as its own files (statistics, members where kept, the totals table) and entry, replacing the
 * entries of the snapshot that held those issue dates. `entries` is the snapshot's forecasts so far; the new list is
 * returned and set on the writer. An entry of an older store holding a month of issues is replaced only when every
 * one of its issues is given (a caller revising one of them reads the others back and gives them too).
 */
export function writeForecastIssues(writer: StoreWriter, entries: readonly ForecastMonth[], issues: readonly Issue[]): Promise<ForecastMonth[]> {
  return writeForecastSources(writer, entries, issues.map(sourceOf));
}

/** As writeForecastIssues, each issue's rows made as they are written (an issue of any size in a row group's memory). */
export async function writeForecastSources(writer: StoreWriter, entries: readonly ForecastMonth[], sources: readonly IssueSource[]): Promise<ForecastMonth[]> {
  if (sources.length === 0) throw new WriterMisuseError('writing forecasts needs at least one issue');
  const sorted = [...sources].sort((a, b) => a.issued - b.issued);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i]!.issued === sorted[i - 1]!.issued) throw new WriterMisuseError(`issue ${formatDay(sorted[i]!.issued)} is given twice`);
  const known = new Set(writer.current.reservoirs.names);
  for (const issue of sorted) {
    for (const name of issue.names) if (!known.has(name)) throw new WriterMisuseError(`reservoir ${name} in the forecasts has no metadata row`);
    for (let i = 1; i < issue.names.length; i++)
      if (!(issue.names[i - 1]! < issue.names[i]!)) throw new WriterMisuseError(`the reservoirs of issue ${formatDay(issue.issued)} are not in order`);
  }
  const given = new Set(sorted.map((i) => formatDay(i.issued)));
  const kept = entries.filter((e) => {
    const replaced = e.issues.filter((i) => given.has(i.issued)).length;
    if (replaced > 0 && replaced < e.issues.length)
      throw new WriterMisuseError(
        `the forecasts of ${e.month} are one file set: give all of its issues (${e.issues.map((i) => i.issued).join(', ')}) to replace any`,
      );
    return replaced === 0;
  });
  const storeNames = [...known].sort();
  const written: ForecastMonth[] = [];
  for (const issue of sorted) written.push(await writeIssue(writer, issue, storeNames));
  const next = [...kept, ...written].sort((a, b) => (a.issues[0]!.issued < b.issues[0]!.issued ? -1 : a.issues[0]!.issued > b.issues[0]!.issued ? 1 : 0));
  writer.setForecasts(next);
  return next;
}

// an issue held whole, as a source
function sourceOf(issue: Issue): IssueSource {
  const names = [...issue.byName.keys()].sort();
  return {
    issued: issue.issued,
    names,
    memberCounts: names.map((n) => {
      const f = issue.byName.get(n)!;
      return f.members ? f.count : 0;
    }),
    forecasts: names.map((n) => issue.byName.get(n)!),
  };
}

// one issue's files and entry: its statistics and members streamed a row group at a time as the forecasts come, the
// totals kept aside and written last as their own table
async function writeIssue(writer: StoreWriter, issue: IssueSource, storeNames: readonly string[]): Promise<ForecastMonth> {
  const day = formatDay(issue.issued);
  const month = monthOf(issue.issued);
  const n = issue.names.length;
  const withMembers = issue.memberCounts.filter((c) => c > 0).length;
  const count = Math.max(0, ...issue.memberCounts);
  const memberRows = issue.memberCounts.reduce((sum, c) => sum + c * MAX_LEAD, 0);
  const path = (kind: string) => storePath('forecasts', `month=${month}`, `${kind}-${day}-${writer.snapshot}.parquet`);
  // a file written from a channel of row groups; none when it has no rows (the members of an issue keeping none)
  const file = (kind: string, rows: number, groupRows: number, columns: number) => {
    const channel = new Channel<Table>();
    const written = rows === 0 ? undefined : writer.writeForecastStream(path(kind), channel, { rows, rowGroupSize: groupRows, columns }, issue.issued);
    written?.catch((error) => channel.fail(error));
    return { channel, written };
  };
  const statsGroup = reservoirsPerGroup([n]) * S * MAX_LEAD;
  const memberGroup = reservoirsPerGroup([withMembers]) * count * MAX_LEAD;
  const stats = file('stats', n * S * MAX_LEAD, statsGroup, ROW_COLUMNS);
  const members = file('members', memberRows, Math.max(1, memberGroup), ROW_COLUMNS);
  const statRows = new RowBatcher(issue.issued, statsGroup, false, (t) => stats.channel.push(t));
  const memberBatches = new RowBatcher(issue.issued, Math.max(1, memberGroup), true, (t) => members.channel.push(t));
  const totals = new TotalsKeeper(issue.names);
  const withoutTotals: string[] = [];
  try {
    let i = 0;
    for await (const f of issue.forecasts) {
      if (i >= n) throw new WriterMisuseError(`issue ${day} has more forecasts than its ${n} reservoirs`);
      const name = issue.names[i]!;
      const kept = issue.memberCounts[i++]!;
      if (kept > 0 && (!f.members || f.count !== kept))
        throw new WriterMisuseError(`${name} in issue ${day} keeps ${f.members ? f.count : 0} members, not ${kept}`);
      await statRows.add(name, f, S);
      if (kept > 0) await memberBatches.add(name, f, kept);
      if (!totals.keep(f)) withoutTotals.push(name);
    }
    if (i !== n) throw new WriterMisuseError(`issue ${day} has ${i} forecasts for its ${n} reservoirs`);
    await statRows.end();
    await memberBatches.end();
  } catch (error) {
    for (const f of [stats, members]) f.channel.fail(error);
    await Promise.allSettled([stats.written, members.written]);
    throw error;
  } finally {
    stats.channel.close();
    members.channel.close();
  }
  const statsFile = (await stats.written) ?? (await writer.writeForecastFile(path('stats'), statRows.empty(), new Int32Array(0), 1));
  const membersFile = (await members.written) ?? null;
  const totalsFile = totals.any
    ? await writer.writeForecastStream(
        path('totals'),
        totals.groups(issue.issued),
        { rows: TOTAL_WINDOWS.length * S * n, rowGroupSize: n, columns: TOTALS_COLUMNS },
        issue.issued,
      )
    : undefined;
  return {
    month,
    stats: statsFile,
    members: membersFile,
    ...(totalsFile ? { totals: totalsFile } : {}),
    issues: [
      {
        issued: day,
        rows: [0, n * S * MAX_LEAD],
        members: count,
        memberRows: count > 0 ? [0, memberRows] : [0, 0],
        reservoirs: reservoirsOf(issue.names, storeNames),
        ...(withoutTotals.length > 0 ? { withoutTotals } : {}),
      },
    ],
  };
}

// the reservoirs of an issue for the manifest: their range and count, and their names when the range alone does not
// say which (not every reservoir of the store between the first and the last)
function reservoirsOf(names: readonly string[], storeNames: readonly string[]): ForecastIssue['reservoirs'] {
  if (names.length === 0) return { first: '', last: '', count: 0, names: [] };
  const first = names[0]!;
  const last = names.at(-1)!;
  const inRange = storeNames.filter((n) => n >= first && n <= last).length;
  return inRange === names.length ? { first, last, count: names.length } : { first, last, count: names.length, names: [...names] };
}

const GROUP_TARGET = 12; // reservoirs per row group: one reservoir's query decodes 12 x 224 rows, not the issue's
const GROUP_MAX = 24;

/**
 * How many reservoirs a row group holds. The writer's row groups are all of one size, and an issue's rows are a run of
 * whole reservoirs, so a size dividing every issue's count of reservoirs makes every row group lie within one issue
 * (its name range, in the footer's statistics, then names exactly its reservoirs). Else GROUP_TARGET: a group may then
 * straddle two issues, and a query reads up to two more row groups.
 */
export function reservoirsPerGroup(counts: readonly number[]): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = counts.filter((c) => c > 0).reduce(gcd, 0);
  if (g === 0) return 1;
  if (g <= GROUP_MAX) return g;
  let best = 0;
  for (let d = Math.ceil(GROUP_TARGET / 2); d <= GROUP_MAX; d++) if (g % d === 0 && Math.abs(d - GROUP_TARGET) < Math.abs(best - GROUP_TARGET)) best = d;
  return best > 0 ? best : GROUP_TARGET;
}
