// The generator's weather and evaporation as the store publishes them: the DLEM forced by the rounded rtma and res
// values themselves, so that runModel on a store's own columns gives back its lem values.
import { allocateOutputs, type DlemOutputs, outputNames, runDlem } from './dlem.js';
import { fetchFromArea } from './fetch.js';
import { round4 } from './round.js';
import { type ModelVariable, netEvaporation } from './run.js';
import type { Weather } from './weather.js';

const weatherVariables = ['pr', 'tmmx_c', 'tmmn_c', 'vpd_kpa', 'vs2m', 'srad', 'etr', 'eto', 'th', 'sph_kgkg', 'pres_pa'] as const;
/** The rtma variables of a block of body-days, metric, rounded to 4 decimals. */
type WeatherColumns = Record<(typeof weatherVariables)[number], Float64Array>;
/** The forcing's columns: the weather and the published state the DLEM needs. */
type PublishedColumns = WeatherColumns & { depth_m: Float64Array; area_m2: Float64Array };

/** Columns of the weather variables for `cells` body-days. */
export function allocateWeather(cells: number): WeatherColumns {
  const columns = {} as WeatherColumns;
  for (const name of weatherVariables) columns[name] = new Float64Array(cells);
  return columns;
}

/** Writes the day's weather at i as the store publishes it: metric, rounded to 4 decimals. */
export function publishWeather(w: Weather, c: WeatherColumns, i: number): void {
  c.pr[i] = round4(w.pr);
  c.tmmx_c[i] = round4(w.tmax);
  c.tmmn_c[i] = round4(w.tmin);
  c.vpd_kpa[i] = round4(w.vpd);
  c.vs2m[i] = round4(w.u2);
  c.srad[i] = round4((w.rs * 1e6) / 86400);
  c.etr[i] = round4(w.etr);
  c.eto[i] = round4(w.eto);
  c.th[i] = round4(w.th) % 360; // 359.99996 rounds to 360
  c.sph_kgkg[i] = round4(w.sph);
  c.pres_pa[i] = round4(w.pressure * 1000);
}

/**
 * Runs the DLEM over `bodies` × `days` of published columns (body-major), as runModel reads a store's columns: the
 * air temperature the mean of tmmx_c and tmmn_c, the pressure pres_pa, the fetch that of a round lake of area_m2
 * (the reference list has no outlines). `water` is the kernel's state, carried from call to call.
 */
export function runPublished(
  lakes: { lat: Float64Array; elev: Float64Array },
  c: PublishedColumns,
  months: Uint8Array,
  water: Float64Array,
  bodies: number,
  days: number,
): DlemOutputs {
  const cells = bodies * days;
  const ta = new Float64Array(cells);
  const pressure = new Float64Array(cells);
  const fetch = new Float64Array(cells);
  for (let i = 0; i < cells; i++) {
    ta[i] = (c.tmmx_c[i]! + c.tmmn_c[i]!) / 2;
    pressure[i] = c.pres_pa[i]! / 1000;
    fetch[i] = fetchFromArea(c.area_m2[i]!);
  }
  const out = allocateOutputs(cells);
  runDlem(lakes, { srad: c.srad, ta, vpd: c.vpd_kpa, u2: c.vs2m, th: c.th, depth: c.depth_m, pressure, fetch }, months, water, out, bodies, days);
  return out;
}

/**
 * The lem and nete-volume-calcs values as stored: each rounded, NetE and the volumes from the rounded E_hs, pr and area.
 * Rounds the kernel's outputs in place.
 */
export function publishEvaporation(out: DlemOutputs, pr: Float64Array, area: Float64Array): Record<ModelVariable, Float64Array> {
  for (const name of outputNames) roundInPlace(out[name]);
  const net = netEvaporation(out.E_hs, pr, area);
  roundInPlace(net.NetE);
  roundInPlace(net.E_volume);
  const volume = net.NetE_volume;
  for (let i = 0; i < volume.length; i++) volume[i] = round4((net.NetE[i]! / 1000) * area[i]!); // of the rounded NetE
  return { ...out, ...net };
}

function roundInPlace(values: Float64Array): void {
  for (let i = 0; i < values.length; i++) values[i] = round4(values[i]!);
}
