// Every station's records on one date, from the day's values of every station gathered once and kept: answered again,
// the records are made straight from those vectors, where reading station by station cost a footer lookup, a row-group
// scan and a search per station (47 stations: fifteen times the time of JSON.stringify of the answer).
import { formatDay, overlaps } from '../dates.js';
import { decodeFlag, type FlagColumn } from '../flags.js';
import type { BuilderKind } from '../format/emit.js';
import type { Frame, FrameColumn } from '../format/frame.js';
import { frameRecords } from '../format/frame-records.js';
import { frameText } from '../format/frame-text.js';
import { copyOfDay } from '../store/by-date.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import type { WireValue } from '../types.js';
import { convert } from '../units.js';
import type { Plan } from './plan.js';
import { type DayColumns, dayFromCopy, readNameRows, stationRange } from './timeseries.js';

/** Stations whose records are made and handed on together. */
const NAMES_PER_BATCH = 1000;

/** Every station's values on one day, by index in the manifest's station names (NaN where not held). */
interface StationDay {
  seen: Uint8Array; // stations with a row on the day
  values: (Float64Array | undefined)[]; // by wanted column; undefined where no station holds it
  single: boolean; // no station has two rows on the day (else the day is answered station by station, as written)
}

/** The records of a plan on one date (plan.startDay), stations in the plan's order, as frames or written from them. */
export async function* stationsOnDate(source: TimeseriesSource, plan: Plan, kind: BuilderKind = 'records'): AsyncGenerator<unknown[]> {
  const wanted = [...plan.columns.map((v) => v.name), ...plan.flags];
  const gathered = await stationDay(source, plan.startDay, wanted);
  if (!gathered.single) return yield* stationRange(source, plan, kind);
  const index = new Map(source.manifest.stations.names.map((n, i) => [n, i]));
  for (let n = 0; n < plan.names.length; n += NAMES_PER_BATCH) {
    const batch = plan.names.slice(n, n + NAMES_PER_BATCH);
    const rows = batch.flatMap((name) => {
      const i = index.get(name);
      return i !== undefined && gathered.seen[i] ? [[name, i] as const] : [];
    });
    if (rows.length === 0) continue;
    const frame = dayFrame(plan, gathered, rows);
    yield kind === 'frames' ? [frame] : kind === 'records' ? frameRecords(frame) : frameText(frame, kind, plan.header);
  }
}

// the rows of the stations held on the day (name and index in the manifest's names) as a frame of the answer's shape:
// name, the day twice, the values in the answer's units, then the attributes with each station's own day flags
function dayFrame(plan: Plan, gathered: StationDay, rows: readonly (readonly [string, number])[]): Frame {
  const { columns: variables, flags } = plan;
  const days = new Int32Array(rows.length).fill(plan.startDay);
  const values = variables.map((v, j): FrameColumn => {
    const column = gathered.values[j];
    const converted = new Float64Array(rows.length);
    for (let r = 0; r < rows.length; r++) converted[r] = column ? convert(column[rows[r]![1]]!, v) : NaN;
    return { key: v.key, kind: 'number', values: converted, variable: v.name };
  });
  const attached = rows.map(([name]) => plan.attach(name));
  // a day without a flag (files written before flags) keeps the name's attribute: the metadata qflag, else null
  const attributes = plan.attributes
    .filter((key) => key !== plan.nameKey)
    .map((key): FrameColumn => {
      const k = flags.indexOf(key as FlagColumn);
      const codes = k < 0 ? undefined : gathered.values[variables.length + k];
      const values = rows.map(([, i], r): WireValue => (k >= 0 && codes ? decodeFlag(flags[k]!, codes[i]!) : null) ?? attached[r]![key] ?? null);
      return { key, kind: 'value', values };
    });
  const head: FrameColumn[] = [
    { key: plan.nameKey, kind: 'value', values: rows.map(([name]) => name) },
    { key: 'start_date', kind: 'day', days },
    { key: 'end_date', kind: 'day', days },
  ];
  return { rows: rows.length, columns: [...head, ...values, ...attributes] };
}

/** The day's values of every station for the wanted columns, worked out once per snapshot, day and columns. */
function stationDay(source: TimeseriesSource, day: number, wanted: readonly string[]): Promise<StationDay> {
  const names = source.manifest.stations.names;
  const key = `${source.manifest.snapshot}|stations|${day}|${wanted.join(',')}`;
  return source.reader.derive(key, async () => {
    const dayText = formatDay(day);
    const seen = new Uint8Array(names.length);
    const values: (Float64Array | undefined)[] = wanted.map(() => undefined);
    const copy = copyOfDay(source.manifest.stations.byDate, dayText);
    let single: boolean;
    if (copy) {
      const index = new Map(names.map((n, i) => [n, i]));
      single = await dayFromCopy(source.reader, copy, 'STA_NAME', (n) => index.get(n), day, wanted, { seen, values });
    } else single = await dayFromStationFiles(source, day, dayText, wanted, { seen, values });
    return { value: { seen, values, single }, bytes: names.length * (1 + 8 * wanted.length) };
  });
}

// the day from each station's own file (a day outside the stations' date-major copy); false when a station has two
// rows on the day, as dayFromCopy says
async function dayFromStationFiles(
  source: TimeseriesSource,
  day: number,
  dayText: string,
  wanted: readonly string[],
  { seen, values }: DayColumns,
): Promise<boolean> {
  const names = source.manifest.stations.names;
  let single = true;
  // every station's file asked at once: their reads overlap and their pages inflate on every core (one after another,
  // the event loop waited on each station's reads: 40% of a cold answer at 47 stations)
  const spans = await Promise.all(
    names.map((name) => {
      const partition = source.manifest.stations.partitions[name];
      return partition && overlaps(partition, dayText, dayText) ? readNameRows(source.reader, [partition], undefined, day, day, wanted) : undefined;
    }),
  );
  for (const [i, span] of spans.entries()) {
    if (!span || span.days.length === 0) continue;
    if (span.days.length > 1) single = false;
    seen[i] = 1;
    wanted.forEach((column, k) => {
      const held = span.column(column);
      if (held) (values[k] ??= new Float64Array(names.length).fill(Number.NaN))[i] = held[0]!;
    });
  }
  return single;
}
