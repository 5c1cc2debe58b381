// Every station's records on one date, from the day's values of every station gathered once and kept: answered again,
// the records are made straight from those vectors, where reading station by station cost a footer lookup, a row-group
// scan and a search per station (47 stations: fifteen times the time of JSON.stringify of the answer).
import { formatDay, overlaps } from '../dates.js';
import type { FlagColumn } from '../flags.js';
import { type Block, type BuilderKind, emitWithFlags, RecordBuilder } from '../format/emit.js';
import { copyOfDay } from '../store/by-date.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
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

/** The records of a plan on one date (plan.startDay), stations in the plan's order. */
export async function* stationsOnDate(source: TimeseriesSource, plan: Plan, kind: BuilderKind = 'records'): AsyncGenerator<unknown[]> {
  const { names, columns: variables, startDay: day, attach, flags } = plan;
  const wanted = [...variables.map((v) => v.name), ...flags];
  const gathered = await stationDay(source, day, wanted);
  if (!gathered.single) return yield* stationRange(source, plan, kind);
  const index = new Map(source.manifest.stations.names.map((n, i) => [n, i]));
  const builder = new RecordBuilder('STA_NAME', variables, kind, source.codegen);
  const block: Block = { days: new Int32Array(gathered.seen.length).fill(day), columns: gathered.values.slice(0, variables.length) };
  const flagCodes = new Map<FlagColumn, Float64Array | undefined>(flags.map((f, k) => [f, gathered.values[variables.length + k]]));
  let out: unknown[] = [];
  for (let n = 0; n < names.length; n++) {
    const i = index.get(names[n]!);
    if (i !== undefined && gathered.seen[i]) emitWithFlags(builder, out, names[n]!, block, attach(names[n]!), flagCodes, i, i + 1);
    if (out.length > 0 && (n + 1) % NAMES_PER_BATCH === 0) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
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
