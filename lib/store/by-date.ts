// The date-major copy of a dataset's latest days: the same rows as its partition files over the last BY_DATE_DAYS days,
// sorted by date then name, so every reservoir on one of those dates is a few row groups of one file instead of every
// name's month or year. The writer makes it again whenever the dataset's files change; it is the manifest's
// `datasets[d].byDate`, read by the library only: it is no data file of the Iceberg tables (it would count rows twice).
import { formatDay, parseDay } from '../dates.js';
import { reservoirDayAttributes } from '../flags.js';
import type { Manifest } from './manifest.js';
import { readReservoirFiles, type SnapshotFiles } from './readback.js';
import type { ReservoirRows } from './rows.js';

/** Days of the copy, ending at the dataset's last date: the days the service revises and people ask about most. */
export const BY_DATE_DAYS = 14;

/** The folder of the copies, beside the datasets' partitions (engines reading `dataset=*` folders never see it). */
export const BY_DATE_FOLDER = 'by-date';

/** The rows of a dataset's last `days` days in date then name order, read from the snapshot's files; undefined if none. */
export async function readLatestDays(snapshot: SnapshotFiles, dataset: string, days: number): Promise<ReservoirRows | undefined> {
  const entry = snapshot.manifest.datasets[dataset];
  const end = latestDay(snapshot.manifest, dataset);
  if (!entry || end === undefined) return undefined;
  const startText = formatDay(parseDay(end, 'end') - days + 1);
  const files = entry.partitions.flatMap((p) => p.files).filter((f) => f.start !== '' && f.end >= startText && f.start <= end);
  const rows = await readReservoirFiles(snapshot, dataset, files);
  const [first, last] = [parseDay(startText, 'start'), parseDay(end, 'end')];
  const order: number[] = [];
  for (let i = 0; i < rows.days.length; i++) if (rows.days[i]! >= first && rows.days[i]! <= last) order.push(i);
  // names are in order within each day already (rows come sorted by name then date): a stable sort by day keeps it
  order.sort((a, b) => rows.days[a]! - rows.days[b]!);
  const values: Record<string, Float64Array> = {};
  for (const [name, column] of Object.entries(rows.values)) {
    const picked = Float64Array.from(order, (i) => column[i]!);
    // a day flag no file of the span holds stays absent, as in the partitions
    if (!reservoirDayAttributes.includes(name as never) || picked.some((v) => !Number.isNaN(v))) values[name] = picked;
  }
  return { names: order.map((i) => rows.names[i]!), days: Int32Array.from(order, (i) => rows.days[i]!), values };
}

/** The last date any file of the dataset holds. */
function latestDay(manifest: Manifest, dataset: string): string | undefined {
  let end: string | undefined;
  for (const p of manifest.datasets[dataset]?.partitions ?? []) if (p.end !== '' && (end === undefined || p.end > end)) end = p.end;
  return end;
}
