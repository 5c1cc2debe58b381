// The date-major copy of a dataset's latest year: the same rows as its partition files, a calendar month a file,
// sorted by date then name, so every reservoir on one of those dates is a few row groups of one file instead of every
// name's month or year decoded. The writer makes a month's file again only when the partition files holding that month
// change (a daily revision: the months it touched); it is the manifest's `datasets[d].byDate`, read by the library
// only: it is no data file of the Iceberg tables (it would count rows twice).
import { formatDay, parseDay } from '../dates.js';
import { reservoirDayAttributes } from '../flags.js';
import type { ByDateFile, Manifest, ReservoirFile } from './manifest.js';
import { readReservoirFiles, type SnapshotFiles } from './readback.js';
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
  const end = latestDay(manifest, dataset);
  if (end === undefined || days <= 0) return [];
  const months: string[] = [];
  for (let month = formatDay(parseDay(end, 'end') - days + 1).slice(0, 7); month <= end.slice(0, 7); month = nextMonth(month)) months.push(month);
  return months;
}

/** The partition files holding days of the month: a month's copy is made again when they change. */
export function filesOfMonth(manifest: Manifest, dataset: string, month: string): ReservoirFile[] {
  const [first, last] = [`${month}-01`, `${month}-31`]; // dates as text: the 31st bounds every month
  return (manifest.datasets[dataset]?.partitions ?? []).flatMap((p) => p.files).filter((f) => f.start !== '' && f.start <= last && f.end >= first);
}

/** The copy's file holding the day, if any (a format-3 copy of the last days is one such file). */
export function copyOfDay(files: readonly ByDateFile[] | undefined, dayText: string): ByDateFile | undefined {
  return files?.find((f) => f.start <= dayText && dayText <= f.end);
}

/** The rows of one month of the dataset in date then name order, read from the snapshot's files; undefined if none. */
export async function readMonthByDate(snapshot: SnapshotFiles, dataset: string, month: string): Promise<ReservoirRows | undefined> {
  const files = filesOfMonth(snapshot.manifest, dataset, month);
  if (files.length === 0) return undefined;
  const rows = await readReservoirFiles(snapshot, dataset, files);
  const [first, last] = [parseDay(`${month}-01`, 'start'), parseDay(nextMonth(month) + '-01', 'end') - 1];
  // rows come sorted by name then date: placed day by day in that order, each day's names stay in order (a stable
  // counting sort: 31 buckets, one pass, where a comparison sort of 1.4 million rows took a second)
  const starts = new Int32Array(last - first + 2);
  for (let i = 0; i < rows.days.length; i++) {
    const day = rows.days[i]!;
    if (day >= first && day <= last) starts[day - first + 1]!++;
  }
  for (let d = 1; d < starts.length; d++) starts[d]! += starts[d - 1]!;
  const order = new Int32Array(starts[starts.length - 1]!);
  for (let i = 0; i < rows.days.length; i++) {
    const day = rows.days[i]!;
    if (day >= first && day <= last) order[starts[day - first]!++] = i;
  }
  if (order.length === 0) return undefined;
  const values: Record<string, Float64Array> = {};
  for (const [name, column] of Object.entries(rows.values)) {
    const picked = new Float64Array(order.length);
    for (let k = 0; k < order.length; k++) picked[k] = column[order[k]!]!;
    // a day flag no file of the month holds stays absent, as in the partitions
    if (!reservoirDayAttributes.includes(name as never) || picked.some((v) => !Number.isNaN(v))) values[name] = picked;
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

/** The last date any file of the dataset holds. */
function latestDay(manifest: Manifest, dataset: string): string | undefined {
  let end: string | undefined;
  for (const p of manifest.datasets[dataset]?.partitions ?? []) if (p.end !== '' && (end === undefined || p.end > end)) end = p.end;
  return end;
}
