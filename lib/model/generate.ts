// Generates a store from the seeded physical model, one year at a time so any span fits in memory.
import { type DatasetName, datasetNames, reservoirDatasets } from '../catalogue.js';
import { firstDayOfYear, formatDay, parseRange, yearOfDay } from '../dates.js';
import { encodeFlags, statusOfDay } from '../flags.js';
import { addForecasts } from '../forecast/add.js';
import { syntheticAbout } from '../store/about.js';
import type { Manifest } from '../store/manifest.js';
import { createStoreWriter, ROWS_PER_FILE } from '../store/write.js';
import type { MetadataRow } from '../types.js';
import {
  catalogueReservoirs,
  catalogueStations,
  createReservoirModel,
  isStaticReservoir,
  type ReservoirSpec,
  type StationSpec,
  simulateStation,
} from './index.js';

export interface GenerateOptions {
  reservoirs: number; // how many reservoirs: the 67 reference ones, extended with generated ones past that
  stations: number; // likewise, 27 reference stations
  start: string; // first date, YYYY-MM-DD
  end: string; // last date, inclusive
  stationStart?: string; // stations' first date (default: start)
  stationEnd?: string; // stations' last date (default: end)
  seed: number;
  rowGroupSize?: number;
  rowsPerFile?: number; // bound on rows per reservoir file (default the writer's)
  // ensemble forecasts issued daily over that span for the named reservoirs (default every one), lib/forecast/add.ts
  forecasts?: { firstIssue: string; lastIssue: string; members: number; keepMembers?: number; names?: readonly string[] };
  onProgress?: (done: number, total: number, what: string) => void;
}

/**
 * Writes a new store snapshot into `dir` from the model and returns its manifest. Reservoirs are simulated a chunk of
 * names at a time, period by period (a month or a year, as the writer lays files out), so memory stays bounded and
 * time grows linearly with reservoirs x days.
 */
export async function generateStore(dir: string, options: GenerateOptions): Promise<Manifest> {
  const { startDay, endDay } = parseRange(options.start, options.end);
  const stationRange = parseRange(options.stationStart ?? options.start, options.stationEnd ?? options.end);
  const reservoirs = catalogueReservoirs(options.reservoirs, options.seed);
  const stations = catalogueStations(options.stations, reservoirs, options.seed);
  const writer = createStoreWriter(dir, { rowGroupSize: options.rowGroupSize, rowsPerFile: options.rowsPerFile, overwrite: true }); // a generated store starts afresh
  const rowsPerFile = options.rowsPerFile ?? ROWS_PER_FILE;
  const monthly = reservoirs.length * 366 > rowsPerFile; // the writer's rule: then each file holds one month
  const chunkSize = Math.max(1, Math.floor(rowsPerFile / (monthly ? 31 : 366)));
  const periods = periodsOf(startDay, endDay, monthly);
  const chunks = Math.ceil(reservoirs.length / chunkSize);
  const total = chunks * periods.length + stations.length;
  let done = 0;
  const progress = (what: string) => options.onProgress?.(++done, total, what);
  const origin = startDay - SPIN_UP_DAYS;

  writer.setAbout(syntheticAbout(options.seed));
  await writer.writeReservoirMetadata(reservoirs.map(reservoirMetadata));
  await writer.writeStationMetadata(stations.map(stationMetadata));

  for (let c = 0; c < chunks; c++) {
    const chunk = reservoirs.slice(c * chunkSize, (c + 1) * chunkSize); // sorted by name: each chunk is a name range
    const models = chunk.map((spec) => createReservoirModel(spec, options.seed, origin));
    for (const [from, to] of periods) {
      const days = to - from + 1;
      const results = models.map((m) => m.simulate(from, to));
      const names = chunk.flatMap((r) => new Array<string>(days).fill(r.name));
      const dayColumn = new Int32Array(names.length);
      for (let i = 0; i < names.length; i++) dayColumn[i] = from + (i % days);
      const flags = {
        qflag: encodeFlags(
          'qflag',
          results.flatMap((r) => r.qflags),
        ),
        status: encodeFlags(
          'status',
          Array.from(dayColumn, (d) => statusOfDay(d, endDay)),
        ),
      };
      for (const dataset of datasetNames) {
        const values: Record<string, Float64Array> = {};
        for (const variable of Object.keys(reservoirDatasets[dataset as DatasetName].variables)) {
          const column = new Float64Array(names.length);
          results.forEach((r, k) => column.set((r.values as Record<string, Float64Array>)[variable]!, k * days));
          values[variable] = column;
        }
        Object.assign(values, flags); // the same per-day flags in every dataset's file: each file reads alone
        await writer.addReservoirRows(dataset, yearOfDay(from), { names, days: dayColumn, values });
      }
      progress(`reservoirs ${chunk[0]!.name}.. ${formatDay(from)}..${formatDay(to)}`);
    }
  }

  const byName = new Map(reservoirs.map((r) => [r.name, r]));
  for (const station of stations) {
    const reservoir = station.reservoir ? (byName.get(station.reservoir) ?? null) : null;
    const result = simulateStation(station, reservoir, stationRange.startDay, stationRange.endDay, options.seed);
    const days = Int32Array.from({ length: stationRange.endDay - stationRange.startDay + 1 }, (_, i) => stationRange.startDay + i);
    const values = Object.fromEntries(result.variables.map((v) => [v, result.values[v]!]));
    const kept = keepObservedDays(days, values);
    kept.values = {
      ...kept.values,
      status: encodeFlags(
        'status',
        Array.from(kept.days, (d) => statusOfDay(d, stationRange.endDay)),
      ),
    };
    await writer.writeStationPartition(station.name, kept);
    progress(`station ${station.name}`);
  }
  const forecasts = options.forecasts;
  if (forecasts) {
    const supported = forecasts.names === undefined ? reservoirs : reservoirs.filter((r) => forecasts.names!.includes(r.name));
    await addForecasts(writer, supported, { ...forecasts, seed: options.seed, origin });
  }
  return writer.commit();
}

/**
 * Days the model runs before the first generated date, so that water temperature and storage have left their initial
 * state (the lake's heat-storage time constant is weeks). Fixed, so generation time grows with the days generated only.
 */
const SPIN_UP_DAYS = 90;

/** The [from, to] day spans of the generated range, cut at every year (and month) boundary. */
function periodsOf(startDay: number, endDay: number, monthly: boolean): [number, number][] {
  const spans: [number, number][] = [];
  for (let from = startDay; from <= endDay; ) {
    const date = new Date(from * 86_400_000);
    const next = monthly ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 86_400_000 : firstDayOfYear(date.getUTCFullYear() + 1);
    const to = Math.min(endDay, next - 1);
    spans.push([from, to]);
    from = to + 1;
  }
  return spans;
}

/** Drops the days on which a station measured nothing (before it started, after it stopped, gaps). */
function keepObservedDays(days: Int32Array, values: Record<string, Float64Array>): { days: Int32Array; values: Record<string, Float64Array> } {
  const columns = Object.values(values);
  const keep: number[] = [];
  for (let i = 0; i < days.length; i++) if (columns.some((c) => !Number.isNaN(c[i]!))) keep.push(i);
  if (keep.length === days.length) return { days, values };
  return {
    days: Int32Array.from(keep, (i) => days[i]!),
    values: Object.fromEntries(Object.entries(values).map(([v, c]) => [v, Float64Array.from(keep, (i) => c[i]!)])),
  };
}

function reservoirMetadata(r: ReservoirSpec): MetadataRow {
  return {
    RES_NAME: r.name,
    STATE: r.state,
    LAT: r.lat,
    LON: r.lon,
    Shape_Area: r.fullAreaM2,
    ELEV_M: r.elevM,
    MAX_DEPTH_M: r.maxDepthM,
    CAPACITY_M3: r.capacityM3,
    qflag: isStaticReservoir(r) ? 'S' : 'O', // static area, stage and depth, as the public FAQ describes
  };
}

/** A station's metadata row as a generated store holds it. */
export function stationMetadata(s: StationSpec): MetadataRow {
  return {
    STA_NAME: s.name,
    STATION_TYPE: s.type,
    STATUS: s.status,
    LAT: s.lat,
    LON: s.lon,
    ELEV_M: s.elevM,
    RES_NAME: s.reservoir,
    qflag: 'O',
  };
}
