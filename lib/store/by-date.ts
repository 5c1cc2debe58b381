// The date-major copy of a dataset's latest year: the same rows as its partition files, a calendar month a file,
// sorted by date then name, so every reservoir on one of those dates is a few row groups of one file instead of every
// name's month or year decoded. The stations have one too: every station's rows of a month in one file, where a date
// of every station read a row group of each station's file. The writer makes a month's file again only when its
// rows change (a daily revision: the months it touched); it is the manifest's
// `datasets[d].byDate` and `stations.byDate`, read by the library only: it is no data file of the Iceberg tables (it
// would count rows twice).
import { formatDay, overlaps, parseDay } from '../dates.js';
import { reservoirDayAttributes, stationDayAttributes } from '../flags.js';
import { compareText, rowsWithin } from '../order.js';
import type { ByDateFile, Manifest, ReservoirFile, StationPartition } from './manifest.js';
import { readReservoirFiles, readStationPartition, type SnapshotFiles } from './readback.js';
import type { ReservoirRows } from './rows.js';

/**
 * Days of the copy, ending at the dataset's last date, in whole months: the year a water manager compares day by day,
 * and the days the service revises. A copy's bytes are those days' rows once more (bench/RESULTS.md: the stores).
 */
export const BY_DATE_DAYS = 366;

/** The folder of the copies, beside the datasets' partitions (engines reading `dataset=*` folders never see it). */
export const BY_DATE_FOLDER = 'by-date';

/** The months (YYYY-MM, ascending) a copy of the dataset's last `days` days holds: none without rows or days. */
export function copyMonths(manifest: Manifest, dataset: string, days: number): string[] {
  return monthsEndingAt(latestDay(manifest.datasets[dataset]?.partitions ?? []), days);
}

/** The months of the stations' copy: their last `days` days. */
export function stationCopyMonths(manifest: Manifest, days: number): string[] {
  return monthsEndingAt(latestDay(Object.values(manifest.stations.partitions)), days);
}

function monthsEndingAt(end: string | undefined, days: number): string[] {
  if (end === undefined || days <= 0) return [];
  const months: string[] = [];
  for (let month = formatDay(parseDay(end, 'end') - days + 1).slice(0, 7); month <= end.slice(0, 7); month = nextMonth(month)) months.push(month);
  return months;
}

/** The partition files holding days of the month: a month's copy is made again when they change. */
export function filesOfMonth(manifest: Manifest, dataset: string, month: string): ReservoirFile[] {
  const [first, last] = monthText(month);
  return (manifest.datasets[dataset]?.partitions ?? []).flatMap((p) => p.files).filter((f) => overlaps(f, first, last));
}

/** The stations whose files hold days of the month, by name: the stations' copy of a month is made again when they change. */
export function stationsOfMonth(manifest: Manifest, month: string): [string, StationPartition][] {
  const [first, last] = monthText(month);
  const held = Object.entries(manifest.stations.partitions).filter(([, p]) => overlaps(p, first, last));
  return held.sort(([a], [b]) => compareText(a, b));
}

/** The copy's file holding the day, if any (a format-3 copy of the last days is one such file). */
export function copyOfDay(files: readonly ByDateFile[] | undefined, dayText: string): ByDateFile | undefined {
  return files?.find((f) => overlaps(f, dayText, dayText));
}

/** The rows of one month of the dataset in date then name order, read from the snapshot's files; undefined if none. */
export async function readMonthByDate(snapshot: SnapshotFiles, dataset: string, month: string): Promise<ReservoirRows | undefined> {
  const files = filesOfMonth(snapshot.manifest, dataset, month);
  if (files.length === 0) return undefined;
  const rows = await readReservoirFiles(snapshot, dataset, files);
  const [first, last] = monthDays(month);
  const order = byDay(rows.days, first, last); // rows come sorted by name then date
  return pickRows(rows, order, reservoirDayAttributes);
}

/**
 * Every station's rows of one month in date then name order, read from the snapshot's station files (each read once
 * for all the months asked: a station's file holds all its days); a column is every variable some station of the
 * month has (NaN where a station lacks it), and its day flags.
 */
export async function readStationMonthsByDate(snapshot: SnapshotFiles, months: readonly string[]): Promise<Map<string, ReservoirRows>> {
  const heldByMonth = months.map((month) => new Set(stationsOfMonth(snapshot.manifest, month).map(([name]) => name)));
  const names = [...new Set(heldByMonth.flatMap((held) => [...held]))].sort(compareText);
  const read = await Promise.all(names.map(async (name) => [name, await readStationPartition(snapshot, name)] as const));
  const byMonth = new Map<string, ReservoirRows>();
  for (const [m, month] of months.entries()) {
    const held = heldByMonth[m]!;
    const [first, last] = monthDays(month);
    // the month's rows station by station (names ascending), days ascending within each: as a reservoir file's rows;
    // each station's own days of the month only (its file holds every day it has: decades, at 247 reservoirs)
    const parts = read.flatMap(([name, rows]) => (rows && held.has(name) ? [{ name, rows, span: rowsWithin(rows.days, first, last) }] : []));
    const variables = [...new Set(parts.flatMap(({ rows }) => Object.keys(rows.values)))];
    const rowNames: string[] = [];
    const all: ReservoirRows = { names: rowNames, days: new Int32Array(parts.reduce((n, { span }) => n + span[1] - span[0], 0)), values: {} };
    for (const v of variables) all.values[v] = new Float64Array(all.days.length).fill(Number.NaN);
    let at = 0;
    for (const { name, rows, span } of parts) {
      const [from, to] = span;
      for (let i = from; i < to; i++) rowNames.push(name);
      all.days.set(rows.days.subarray(from, to), at);
      for (const [v, column] of Object.entries(rows.values)) all.values[v]!.set(column.subarray(from, to), at);
      at += to - from;
    }
    const order = byDay(all.days, first, last);
    const picked = pickRows(all, order, stationDayAttributes);
    if (picked) byMonth.set(month, picked);
  }
  return byMonth;
}

// a stable counting sort of the rows within [first, last] by day: rows sorted by name then date stay in name order
// within each day (31 buckets, one pass, where a comparison sort of 1.4 million rows took a second)
function byDay(days: Int32Array, first: number, last: number): Int32Array {
  const starts = new Int32Array(last - first + 2);
  for (let i = 0; i < days.length; i++) {
    const day = days[i]!;
    if (day >= first && day <= last) starts[day - first + 1]!++;
  }
  for (let d = 1; d < starts.length; d++) starts[d]! += starts[d - 1]!;
  const order = new Int32Array(starts[starts.length - 1]!);
  for (let i = 0; i < days.length; i++) {
    const day = days[i]!;
    if (day >= first && day <= last) order[starts[day - first]!++] = i;
  }
  return order;
}

// a month's first and last dates as text (the 31st bounds every month: dates compare as text)
function monthText(month: string): [string, string] {
  return [`${month}-01`, `${month}-31`];
}

function monthDays(month: string): [number, number] {
  return [parseDay(`${month}-01`, 'start'), parseDay(`${nextMonth(month)}-01`, 'end') - 1];
}

// the rows at `order`; a day flag no row holds stays absent, as in the partitions
function pickRows(rows: ReservoirRows, order: Int32Array, flags: readonly string[]): ReservoirRows | undefined {
  if (order.length === 0) return undefined;
  const values: Record<string, Float64Array> = {};
  for (const [name, column] of Object.entries(rows.values)) {
    const picked = new Float64Array(order.length);
    for (let k = 0; k < order.length; k++) picked[k] = column[order[k]!]!;
    if (!flags.includes(name) || picked.some((v) => !Number.isNaN(v))) values[name] = picked;
  }
  const names = Array.from(order, (i) => rows.names[i]!);
  const days = new Int32Array(order.length);
  for (let k = 0; k < order.length; k++) days[k] = rows.days[order[k]!]!;
  return { names, days, values };
}

function nextMonth(month: string): string {
  const [year, m] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/** The last date any of the files holds. */
function latestDay(files: readonly { end: string }[]): string | undefined {
  let end: string | undefined;
  for (const f of files) if (f.end !== '' && (end === undefined || f.end > end)) end = f.end;
  return end;
}
