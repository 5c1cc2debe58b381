// runModel: the DLEM over one water body's daily forcing, given as columns or as records, with the wire's variable
// names in and out (lem and nete-volume-calcs).
import { parseDay, ymd } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import { allocateOutputs, type DlemForcing, fetchSectors, outputNames, runDlem } from './dlem.js';
import { fetchFromArea } from './fetch.js';

/** The forcing's columns, by the API's variable names (metric units). */
export const forcingVariables = ['srad', 'vpd_kpa', 'vs2m', 'th', 'ta_c', 'tmmx_c', 'tmmn_c', 'pres_pa', 'pr', 'depth_m', 'area_m2', 'stage_m'] as const;
export type ForcingVariable = (typeof forcingVariables)[number];

/** Daily forcing as columns: `date` (YYYY-MM-DD, consecutive days) and any of the forcing variables; NaN where missing. */
export type ForcingColumns = { date: readonly string[] } & Partial<Record<ForcingVariable, ArrayLike<number>>>;
/** One day of forcing; null or absent where missing. */
type ForcingRecord = { date: string } & Partial<Record<ForcingVariable, number | null>>;

/** The datasets the model computes. */
export const modelDatasets = ['lem', 'nete-volume-calcs'] as const;

/** The outputs, by the wire's names: the lem variables, then nete-volume-calcs. */
export const modelVariables = [...outputNames, 'NetE', 'E_volume', 'NetE_volume'] as const;
export type ModelVariable = (typeof modelVariables)[number];

/** One water body: where it is, and what the forcing does not say of its shape. */
export interface Lake {
  lat: number; // degrees
  elev: number; // m
  fetch?: number | ArrayLike<number>; // m: one for every direction, or 12 (sectors centred on 0°, 30°, …, 330°; outline.ts makes them from an outline)
  depth?: number; // m, where the forcing has no depth_m
  area?: number; // m2, where the forcing has no area_m2
  tds?: number; // total dissolved solids, ppm
}

export interface ModelOptions {
  tw0?: number; // the water's temperature at the start of the first day, degC (default: that day's air temperature)
}

/** One row per date of the forcing: each output a column (NaN where it cannot be computed). */
export interface ModelResult {
  date: string[];
  values: Record<ModelVariable, Float64Array>;
}

/** Runs the DLEM over one water body's forcing (columns or records). */
export function runModel(forcing: ForcingColumns | readonly ForcingRecord[], lake: Lake, options: ModelOptions = {}): ModelResult {
  const columns = Array.isArray(forcing) ? recordsToColumns(forcing as readonly ForcingRecord[]) : (forcing as ForcingColumns);
  const days = columns.date.length;
  const column = (name: ForcingVariable, fallback?: number): Float64Array => {
    const given = columns[name];
    const values = new Float64Array(days).fill(fallback ?? Number.NaN);
    if (given) for (let t = 0; t < days; t++) values[t] = given[t] ?? Number.NaN;
    return values;
  };
  const months = monthsOf(columns.date);
  const ta = airTemperature(columns, column);
  for (const name of ['srad', 'vpd_kpa', 'vs2m'] as const) if (!columns[name]) throw missing(name, `the forcing has no ${name} column`);
  if (!columns.depth_m && lake.depth === undefined) throw missing('depth_m', 'the forcing has no depth_m column and no depth was given (--depth-m)');
  const area = column('area_m2', lake.area);
  const pressure = column('pres_pa');
  for (let t = 0; t < days; t++) pressure[t]! /= 1000; // Pa -> kPa; NaN stays NaN (then from the elevation)
  const dlem: DlemForcing = {
    srad: column('srad'),
    ta,
    vpd: column('vpd_kpa'),
    u2: column('vs2m'),
    th: column('th'),
    depth: column('depth_m', lake.depth),
    pressure,
  };
  const table = fetchTable(lake);
  if (!table) {
    if (!columns.area_m2 && lake.area === undefined) throw missing('fetch', 'no fetch: give one (--fetch-m), an outline (--polygon), or an area_m2 column');
    dlem.fetch = area.map(fetchFromArea);
  } else if (!columns.th) {
    if (table.some((value) => value !== table[0])) throw missing('th', 'the forcing has no th column (wind direction), which picks the fetch of the day');
    dlem.th.fill(0); // one fetch for every direction: the direction does not matter
  }
  const out = allocateOutputs(days);
  const water = Float64Array.of(options.tw0 ?? firstFinite(ta));
  runDlem(
    { lat: Float64Array.of(lake.lat), elev: Float64Array.of(lake.elev), fetch: table, tds: lake.tds === undefined ? undefined : Float64Array.of(lake.tds) },
    dlem,
    months,
    water,
    out,
    1,
    days,
  );
  const pr = column('pr');
  const values = { ...out, ...netEvaporation(out.E_hs, pr, area) };
  return { date: [...columns.date], values };
}

/** NetE = E_hs − pr (mm), E_volume = E_hs / 1000 × area (m3), NetE_volume = NetE / 1000 × area (m3). */
export function netEvaporation(eHs: Float64Array, pr: Float64Array, area: Float64Array): Record<'NetE' | 'E_volume' | 'NetE_volume', Float64Array> {
  const NetE = eHs.map((e, t) => e - pr[t]!);
  return { NetE, E_volume: eHs.map((e, t) => (e / 1000) * area[t]!), NetE_volume: NetE.map((e, t) => (e / 1000) * area[t]!) };
}

// ta_c, else the mean of tmmx_c and tmmn_c, day by day
function airTemperature(columns: ForcingColumns, column: (name: ForcingVariable) => Float64Array): Float64Array {
  if (columns.ta_c) return column('ta_c');
  if (!columns.tmmx_c || !columns.tmmn_c) throw missing('ta_c', 'the forcing has no ta_c column, nor both tmmx_c and tmmn_c');
  const low = column('tmmn_c');
  return column('tmmx_c').map((high, t) => (high + low[t]!) / 2);
}

function fetchTable(lake: Lake): Float64Array | undefined {
  if (lake.fetch !== undefined) {
    if (typeof lake.fetch === 'number') return new Float64Array(fetchSectors).fill(lake.fetch);
    if (lake.fetch.length !== fetchSectors) throw missing('fetch', `a fetch table has ${fetchSectors} values (0°, 30°, …, 330°), not ${lake.fetch.length}`);
    return Float64Array.from(lake.fetch);
  }
  return undefined;
}

// each date's month, checking that the dates are consecutive days (the heat storage steps one day at a time)
function monthsOf(dates: readonly string[]): Uint8Array {
  const months = new Uint8Array(dates.length);
  let previous = Number.NaN;
  dates.forEach((date, t) => {
    const day = parseDay(date, 'date');
    if (t > 0 && day !== previous + 1) {
      throw new InvalidParameterError('date', `the dates must be consecutive days: ${dates[t - 1]} is followed by ${date}`, 'malformed', date);
    }
    previous = day;
    months[t] = ymd(day)[1];
  });
  return months;
}

/** The first finite value of values[from, to) (the starting water temperature of a run: its first air temperature), else 0. */
export function firstFinite(values: Float64Array, from = 0, to = values.length): number {
  for (let i = from; i < to; i++) if (Number.isFinite(values[i])) return values[i]!;
  return 0;
}

function recordsToColumns(records: readonly ForcingRecord[]): ForcingColumns {
  const columns: ForcingColumns = { date: records.map((record) => record.date) };
  for (const name of forcingVariables) {
    if (!records.some((record) => record[name] !== undefined)) continue;
    columns[name] = Float64Array.from(records, (record) => record[name] ?? Number.NaN);
  }
  return columns;
}

function missing(parameter: string, message: string): InvalidParameterError {
  return new InvalidParameterError(parameter, message, 'empty');
}
