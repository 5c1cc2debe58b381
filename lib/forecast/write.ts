// Writing forecasts: each issue as its own set of files (statistics; members where kept; the totals table,
// lib/forecast/totals.ts) and its own manifest entry, so a revision of one issue rewrites that issue alone and a
// reader of one issue reads its own small index. Rows sorted by name, lead and statistic (or member), in row groups
// of a few reservoirs.
import { DateDay, Int32, makeVector, Table, type Vector } from 'apache-arrow';
import { formatDay } from '../dates.js';
import { WriterMisuseError } from '../errors.js';
import { forecastVariables, MAX_LEAD, memberName } from '../forecast-variables.js';
import { storePath } from '../store/disk.js';
import type { ForecastFile, ForecastIssue, ForecastMonth } from '../store/manifest.js';
import { fieldIdsOf, forecastFields, forecastTotalsFields } from '../tables/fields.js';
import { floatVector, utf8Vector, withFieldIds } from '../writer/vectors.js';
import type { StoreWriter } from '../writer/write.js';
import { monthOf } from './files.js';
import type { Issue } from './issue.js';
import { ensembleStatistics } from './stats.js';
import { TOTAL_WINDOWS } from './totals.js';

const S = ensembleStatistics.length;

/**
 * Writes issues, each as its own files (statistics, members where kept, the totals table) and entry, replacing the
 * entries of the snapshot that held those issue dates. `entries` is the snapshot's forecasts so far; the new list is
 * returned and set on the writer. An entry of an older store holding a month of issues is replaced only when every
 * one of its issues is given (a caller revising one of them reads the others back and gives them too).
 */
export async function writeForecastIssues(writer: StoreWriter, entries: readonly ForecastMonth[], issues: readonly Issue[]): Promise<ForecastMonth[]> {
  if (issues.length === 0) throw new WriterMisuseError('writing forecasts needs at least one issue');
  const sorted = [...issues].sort((a, b) => a.issued - b.issued);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i]!.issued === sorted[i - 1]!.issued) throw new WriterMisuseError(`issue ${formatDay(sorted[i]!.issued)} is given twice`);
  const known = new Set(writer.current.reservoirs.names);
  for (const issue of sorted)
    for (const name of issue.byName.keys()) if (!known.has(name)) throw new WriterMisuseError(`reservoir ${name} in the forecasts has no metadata row`);
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

// one issue's files and entry: its statistics (and members) laid out as a month's were, and its totals table
async function writeIssue(writer: StoreWriter, issue: Issue, storeNames: readonly string[]): Promise<ForecastMonth> {
  const day = formatDay(issue.issued);
  const month = monthOf(issue.issued);
  const stats = layOut([issue], false);
  const members = layOut([issue], true);
  const totals = layOutTotals(issue);
  // the footer's length and checksum kept: a reader reads only the row groups it wants, each chunk checked
  const write = async (kind: string, laid: { table: Table; issuedDays: Int32Array; groupRows: number }): Promise<ForecastFile> => {
    const { path, rows, bytes, sha256, start, end, footerBytes, footerSha256, index } = await writer.writeForecastFile(
      storePath('forecasts', `month=${month}`, `${kind}-${day}-${writer.snapshot}.parquet`),
      laid.table,
      laid.issuedDays,
      laid.groupRows,
    );
    return { path, rows, bytes, sha256, start, end, footerBytes, footerSha256, ...(index ? { index } : {}) };
  };
  const count = Math.max(0, ...[...issue.byName.values()].map((f) => f.count));
  return {
    month,
    stats: await write('stats', stats),
    members: members.table.numRows > 0 ? await write('members', members) : null,
    ...(totals.table.numRows > 0 ? { totals: await write('totals', totals) } : {}),
    issues: [
      {
        issued: day,
        rows: stats.ranges[0]!,
        members: count,
        memberRows: count > 0 ? members.ranges[0]! : [0, 0],
        reservoirs: reservoirsOf(issue, storeNames),
        ...withoutTotals(issue),
      },
    ],
  };
}

interface LaidOut {
  table: Table;
  issuedDays: Int32Array;
  ranges: [number, number][]; // per issue
  groupRows: number; // the row-group size: a few reservoirs' rows (see reservoirsPerGroup)
}

// the reservoirs of an issue for the manifest: their range and count, and their names when the range alone does not
// say which (not every reservoir of the store between the first and the last)
function reservoirsOf(issue: Issue, storeNames: readonly string[]): ForecastIssue['reservoirs'] {
  const names = [...issue.byName.keys()].sort();
  if (names.length === 0) return { first: '', last: '', count: 0, names: [] };
  const first = names[0]!;
  const last = names.at(-1)!;
  const inRange = storeNames.filter((n) => n >= first && n <= last).length;
  return inRange === names.length ? { first, last, count: names.length } : { first, last, count: names.length, names };
}

// the reservoirs whose totals are empty (loaded as statistics alone: a total's statistics need the members)
function withoutTotals(issue: Issue): { withoutTotals?: string[] } {
  const names = [...issue.byName].filter(([, f]) => forecastVariables.every((v) => f.totals[v].every(Number.isNaN))).map(([name]) => name);
  return names.length > 0 ? { withoutTotals: names.sort() } : {};
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
  const counts: number[] = [];
  let perReservoir = 1; // rows of one reservoir in one issue (statistics: S x 28; members: their count x 28)
  for (const issue of issues) {
    counts.push(0);
    const start = names.length;
    for (const name of [...issue.byName.keys()].sort()) {
      const f = issue.byName.get(name)!;
      const count = members ? f.count : S;
      if (members && (f.count === 0 || !f.members)) continue;
      counts[counts.length - 1]!++;
      perReservoir = Math.max(perReservoir, count * MAX_LEAD);
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
  const groupRows = reservoirsPerGroup(counts) * perReservoir;
  return { table: withFieldIds(table, fieldIdsOf(forecastFields(), table.schema.names as string[])), issuedDays, ranges, groupRows };
}

/** The issue's totals table (lib/forecast/totals.ts), and its row group size (every reservoir of the issue); no rows when none has totals. */
function layOutTotals(issue: Issue): { table: Table; issuedDays: Int32Array; groupRows: number } {
  const all = [...issue.byName.keys()].sort();
  const withTotals = all.some((n) => forecastVariables.some((v) => !issue.byName.get(n)!.totals[v].every(Number.isNaN)));
  const names = withTotals ? all : []; // an issue loaded without members has no totals: no table
  const n = names.length;
  const rows = TOTAL_WINDOWS.length * S * n;
  const resNames: string[] = new Array(rows);
  const leads = new Int32Array(rows);
  const statistic: string[] = new Array(rows);
  const values = forecastVariables.map(() => new Float64Array(rows));
  let r = 0;
  for (const window of TOTAL_WINDOWS)
    for (let s = 0; s < S; s++)
      for (const name of names) {
        const f = issue.byName.get(name)!;
        resNames[r] = name;
        leads[r] = window;
        statistic[r] = ensembleStatistics[s]!;
        forecastVariables.forEach((v, k) => {
          values[k]![r] = f.totals[v][s * MAX_LEAD + window - 1]!;
        });
        r++;
      }
  const issuedDays = new Int32Array(rows).fill(issue.issued);
  const columns: Record<string, Vector> = {
    RES_NAME: utf8Vector(resNames),
    issued: makeVector({ type: new DateDay(), data: issuedDays }),
    lead_days: makeVector({ type: new Int32(), data: leads }),
    statistic: utf8Vector(statistic),
  };
  forecastVariables.forEach((v, k) => {
    columns[`${v}_total`] = floatVector(values[k]!);
  });
  const table = new Table(columns);
  return { table: withFieldIds(table, fieldIdsOf(forecastTotalsFields(), table.schema.names as string[])), issuedDays, groupRows: Math.max(1, n) };
}
