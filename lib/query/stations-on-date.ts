// Every station's records on one date, from the day's values of every station gathered once and kept: answered again,
// the records are made straight from those vectors, where reading station by station cost a footer lookup, a row-group
// scan and a search per station (47 stations: fifteen times the time of JSON.stringify of the answer).
import { formatDay, overlaps } from '../dates.js';
import type { DayFlags, Frame } from '../format/frame.js';
import { copyOfDay } from '../store/by-date.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import { dayFrame } from './day-frame.js';
import type { Plan } from './plan.js';
import { type DayColumns, dayFromCopy, NAMES_PER_BATCH, readNameRows, stationRange } from './timeseries.js';

/** Every station's values on one day, by index in the manifest's station names (NaN where not held). */
interface StationDay {
  seen: Uint8Array; // stations with a row on the day
  values: (Float64Array | undefined)[]; // by wanted column; undefined where no station holds it
  single: boolean; // no station has two rows on the day (else the day is answered station by station, as written)
}

/** The records of a plan on one date (plan.startDay), stations in the plan's order, as frames of a batch of stations. */
export async function* stationsOnDate(source: TimeseriesSource, plan: Plan): AsyncGenerator<Frame> {
  const wanted = [...plan.columns.map((v) => v.name), ...plan.flags];
  const gathered = await stationDay(source, plan.startDay, wanted);
  if (!gathered.single) return yield* stationRange(source, plan);
  const names = source.manifest.stations.names;
  const index = new Map(names.map((n, i) => [n, i]));
  const flags: DayFlags = new Map(plan.flags.map((f, k) => [f, gathered.values[plan.columns.length + k]]));
  for (let n = 0; n < plan.names.length; n += NAMES_PER_BATCH) {
    const at = plan.names.slice(n, n + NAMES_PER_BATCH).flatMap((name) => {
      const i = index.get(name);
      return i !== undefined && gathered.seen[i] ? [i] : [];
    });
    if (at.length > 0) yield dayFrame(plan, names, Int32Array.from(at), gathered.values, flags);
  }
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
