// Generates a store from the seeded physical model, one year at a time so any span fits in memory.
import { parseRange } from '../dates.js';
import { encodeFlags, statusOfDay } from '../flags.js';
import { addForecasts } from '../forecast/add.js';
import { catalogueReservoirs, catalogueStations, isStaticReservoir, type ReservoirSpec, type StationSpec, simulateStation } from '../model/index.js';
import { type StoreAbout, syntheticAbout } from '../store/about.js';
import type { Manifest } from '../store/manifest.js';
import type { MetadataRow } from '../types.js';
import { createStoreWriter } from '../writer/write.js';
import { chunking, periodsOf, SPIN_UP_DAYS, writeChunks } from './chunks.js';
import { generateInWorkers } from './generate-workers.js';

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
  byDateDays?: number; // days of each dataset's date-major copy (default the writer's; 0: none)
  // ensemble forecasts issued daily over that span for the named reservoirs (default every one), lib/forecast/add.ts
  forecasts?: { firstIssue: string; lastIssue: string; members: number; keepMembers?: number; names?: readonly string[] };
  onProgress?: (done: number, total: number, what: string) => void;
  places?: readonly ReservoirSpec[]; // model these reservoirs instead of the reference list (the Texas-like demo database)
  workers?: number; // threads simulating and writing the reservoirs' chunks of names at once (default 1: this thread); the rows are the same
  about?: StoreAbout; // the store's provenance (default: syntheticAbout(seed))
}

/**
 * Writes a new store snapshot into `dir` from the model and returns its manifest. Reservoirs are simulated a chunk of
 * names at a time, period by period (a month or a year, as the writer lays files out), so memory stays bounded and
 * time grows linearly with reservoirs x days.
 */
export async function generateStore(dir: string, options: GenerateOptions): Promise<Manifest> {
  const { startDay, endDay } = parseRange(options.start, options.end);
  const stationRange = parseRange(options.stationStart ?? options.start, options.stationEnd ?? options.end);
  const reservoirs = options.places ? [...options.places].sort((a, b) => (a.name < b.name ? -1 : 1)) : catalogueReservoirs(options.reservoirs, options.seed);
  const stations = catalogueStations(options.stations, reservoirs, options.seed);
  const writer = createStoreWriter(dir, {
    rowGroupSize: options.rowGroupSize,
    rowsPerFile: options.rowsPerFile,
    byDateDays: options.byDateDays,
    overwrite: true,
  }); // a generated store starts afresh
  const { monthly, chunks } = chunking(reservoirs.length, options.rowsPerFile);
  const periods = periodsOf(startDay, endDay, monthly);
  const total = chunks * periods.length + stations.length;
  let done = 0;
  const progress = (what: string) => options.onProgress?.(++done, total, what);
  const origin = startDay - SPIN_UP_DAYS;

  writer.setAbout(options.about ?? syntheticAbout(options.seed));
  await writer.writeReservoirMetadata(reservoirs.map(reservoirMetadata));
  await writer.writeStationMetadata(stations.map(stationMetadata));

  const parts = Math.min(options.workers ?? 1, chunks);
  const chunkOptions = { start: options.start, end: options.end, seed: options.seed, rowsPerFile: options.rowsPerFile, rowGroupSize: options.rowGroupSize };
  const working = parts > 1 ? generateInWorkers(dir, { base: writer.current, reservoirs, options: chunkOptions }, parts, progress) : undefined;
  working?.catch(() => undefined); // awaited below; a failure meanwhile is not an unhandled rejection
  if (!working) await writeChunks(writer, reservoirs, chunkOptions, { index: 0, of: 1 }, progress);

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
  const handed = working ? await working : [];
  for (const part of handed) writer.adoptReservoirFiles(part.handed);
  const forecasts = options.forecasts;
  if (forecasts) {
    const supported = forecasts.names === undefined ? reservoirs : reservoirs.filter((r) => forecasts.names!.includes(r.name));
    await addForecasts(writer, supported, { ...forecasts, seed: options.seed, origin });
  }
  try {
    return await writer.commit();
  } finally {
    for (const part of handed) part.release(); // the workers' markers kept their files from a vacuum until now
  }
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
