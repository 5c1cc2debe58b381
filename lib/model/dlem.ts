// The Daily Lake Evaporation Model (DLEM; Zhao & Gao 2019, Zhao et al. 2024), the model OWEN publishes, as one loop
// over a block of water bodies × days in typed arrays: a Penman combination equation with McJannet et al. (2012)'s
// area-dependent wind function on the day's fetch, and heat storage by the equilibrium-temperature method (de Bruin
// 1982; McMahon et al. 2013, S19) with a time constant set by the depth (capped at 20 m). Pure: no I/O, no allocation
// per day. docs/model.md says what each output means.
import {
  airEmissivity,
  albedo,
  clearSkyShortwave,
  kelvin,
  latentHeat,
  maxStorageDepth,
  pressureFromElevation,
  psychrometric,
  salinityFactor,
  saturation,
  saturationSlope,
  sigma,
  slopeOf,
  waterEmissivity,
  waterHeatCapacity,
  wattsToDaily,
  wetBulbOf,
} from './dlem-terms.js';

/** This implementation's version, named in the provenance of what it computes; a change of its numbers changes it. */
export const DLEM_VERSION = '1';

/** Directions of the fetch table: 12 sectors of 30° centred on 0°, 30°, …, 330°. */
export const fetchSectors = 12;

/** The sector of a wind direction in degrees: floor(((th + 15) mod 360) / 30). */
export function sectorOf(th: number): number {
  const d = (((th + 15) % 360) + 360) % 360;
  return Math.min(fetchSectors - 1, Math.floor(d / 30));
}

/**
 * The model's error codes (`Lerr`), as the reference implementation sets them: each check overwrites the code of the
 * one before, so a day reports the last that applied, in this order.
 */
export const Lerr = {
  ok: 0,
  depth: 2, // depth <= 0: a depth of 1 mm is used (the water follows its equilibrium temperature)
  radiation: 3, // shortwave <= 0
  wind: 4, // wind <= 0.01 m/s: 0.01 m/s is used
  deficit: 5, // vapour pressure deficit <= 0: 0.0001 kPa is used
  deficitAboveSaturation: 6, // deficit above the saturation vapour pressure: 0.99 × saturation is used
  wetBulb: 7, // wet bulb above air temperature: the air temperature is used
} as const;

/** Per water body: where it is and its shape. `fetch` holds 12 values a body (sector k of body b at b × 12 + k). */
export interface DlemLakes {
  lat: Float64Array; // degrees
  elev: Float64Array; // m
  fetch?: Float64Array; // m, by sector; absent when the forcing gives each day's fetch
  tds?: Float64Array; // total dissolved solids, ppm (absent or outside 10,000-1,000,000: fresh water)
}

/** Daily forcing of `bodies` × `days`, body-major: body b's day t at b × days + t. NaN where a value is missing. */
export interface DlemForcing {
  srad: Float64Array; // downward shortwave, W m-2 (daily mean)
  ta: Float64Array; // daily mean air temperature, degC
  vpd: Float64Array; // vapour pressure deficit, kPa
  u2: Float64Array; // wind speed at 2 m, m s-1
  th: Float64Array; // wind direction, degrees
  depth: Float64Array; // average depth, m
  pressure?: Float64Array; // air pressure, kPa; absent or NaN: from the elevation and the air temperature
  fetch?: Float64Array; // the day's fetch, m, where it is not the lake's table by wind direction (made from the area)
}

/** The outputs, laid out as the forcing. */
export interface DlemOutputs {
  E_hs: Float64Array; // evaporation with heat storage, mm day-1
  E_nhs: Float64Array; // evaporation without heat storage, mm day-1
  Rn: Float64Array; // net radiation, W m-2
  Tw: Float64Array; // water temperature at the end of the day, degC
  Tw0: Float64Array; // water temperature at the start of the day (the day before's Tw), degC
  Fetch: Float64Array; // the day's fetch, m
  Lerr: Float64Array; // error code (Lerr)
}

export const outputNames = ['E_hs', 'E_nhs', 'Rn', 'Tw', 'Tw0', 'Fetch', 'Lerr'] as const;

/** Outputs for `cells` body-days. */
export function allocateOutputs(cells: number): DlemOutputs {
  const out = {} as DlemOutputs;
  for (const name of outputNames) out[name] = new Float64Array(cells);
  return out;
}

/**
 * Runs `days` days of `bodies` water bodies. `months` gives each day's calendar month (1-12). `water` holds each
 * body's water temperature at the start of the first day and is left at the end of the last, so consecutive blocks
 * continue one run. A day with a missing input has NaN outputs and leaves the water temperature as it was.
 */
export function runDlem(lakes: DlemLakes, forcing: DlemForcing, months: Uint8Array, water: Float64Array, out: DlemOutputs, bodies: number, days: number): void {
  const clearSky = new Float64Array(13);
  const windReach = new Float64Array(fetchSectors); // fetch^-0.1 of each sector of the body
  for (let b = 0; b < bodies; b++) {
    const lat = lakes.lat[b]!;
    const elev = lakes.elev[b]!;
    for (let m = 1; m <= 12; m++) clearSky[m] = clearSkyShortwave(m, lat, elev);
    if (lakes.fetch) for (let k = 0; k < fetchSectors; k++) windReach[k] = lakes.fetch[b * fetchSectors + k]! ** -0.1;
    const salinity = lakes.tds ? salinityFactor(lakes.tds[b]!) : 1;
    let tw0 = water[b]!;
    for (let t = 0, i = b * days; t < days; t++, i++) {
      let fetch: number;
      let reach: number;
      if (forcing.fetch) {
        fetch = forcing.fetch[i]!;
        reach = fetch ** -0.1;
      } else {
        const th = forcing.th[i]!;
        const k = Number.isNaN(th) || !lakes.fetch ? -1 : sectorOf(th);
        fetch = k < 0 ? Number.NaN : lakes.fetch![b * fetchSectors + k]!;
        reach = k < 0 ? Number.NaN : windReach[k]!;
      }
      tw0 = day(forcing, out, i, elev, clearSky[months[t]!]!, salinity, fetch, reach, tw0);
    }
    water[b] = tw0;
  }
}

// One body-day: writes its outputs at i and returns the water temperature at the day's end. `reach` is fetch^-0.1.
function day(f: DlemForcing, out: DlemOutputs, i: number, elev: number, clearSky: number, salinity: number, fetch: number, reach: number, tw0: number): number {
  const ta = f.ta[i]!;
  const srad = f.srad[i]!;
  let vpd = f.vpd[i]!;
  let u2 = f.u2[i]!;
  let depth = f.depth[i]!;
  const given = f.pressure ? f.pressure[i]! : Number.NaN;
  out.Tw0[i] = tw0;
  out.Fetch[i] = fetch;
  if (Number.isNaN(ta + srad + vpd + u2 + depth + fetch)) {
    out.E_hs[i] = out.E_nhs[i] = out.Rn[i] = out.Tw[i] = out.Lerr[i] = Number.NaN;
    return tw0;
  }
  let code: number = Lerr.ok;
  if (depth <= 0) {
    code = Lerr.depth;
    depth = 0.001;
  } else if (depth > maxStorageDepth) depth = maxStorageDepth;
  if (srad <= 0) code = Lerr.radiation;
  if (u2 <= 0.01) {
    code = Lerr.wind;
    u2 = 0.01;
  }
  if (vpd <= 0) {
    code = Lerr.deficit;
    vpd = 0.0001;
  }
  const lambda = latentHeat(ta);
  const gamma = psychrometric(Number.isNaN(given) ? pressureFromElevation(ta, elev) : given, lambda);
  const es = saturation(ta);
  const slopeAir = slopeOf(es, ta);
  const ea = Math.max(es - vpd, 0.01); // from the deficit as given, before it is capped below
  if (es <= vpd) {
    // the reference tests es < vpd; at equality its wet bulb takes the log of zero and fails, so equality joins here
    code = Lerr.deficitAboveSaturation;
    vpd = 0.99 * es;
  }
  let twb = wetBulbOf(ta, es - vpd);
  if (twb > ta) {
    code = Lerr.wetBulb;
    twb = ta;
  }
  const slopeWet = saturationSlope(twb);
  const shortwave = srad * wattsToDaily;
  const cloud = Math.min(1, Math.max(0, 1 - shortwave / clearSky));
  const emAir = airEmissivity(ta, ea, cloud);
  const tk = ta + kelvin;
  const tk2 = tk * tk;
  const airLong = sigma * tk2 * tk2;
  const windF = (2.33 + 1.65 * u2) * reach * lambda; // McJannet et al. (2012), MJ m-2 day-1 kPa-1, over the fetch
  // equilibrium temperature: the water temperature at which the surface exchanges no heat (linearised balance)
  const exchange = windF * (slopeAir + gamma);
  const denominator = 0.46 * waterEmissivity + exchange;
  const te =
    ((0.46 * emAir + exchange) / denominator) * ta +
    ((1 - albedo) * shortwave - 28.38 * (waterEmissivity - emAir)) / denominator -
    (windF / denominator) * (es - ea);
  // the water relaxes toward it with a time constant set by its heat capacity and the exchange at the wet bulb
  const wk = twb + kelvin;
  const tau = (waterHeatCapacity * depth) / (4 * sigma * wk * wk * wk + windF * (slopeWet + gamma));
  const tw = Math.max(0, te + (tw0 - te) * Math.exp(-1 / tau)); // no colder than ice
  if (Number.isNaN(tw)) {
    // inputs finite but outside what the formulas take (a vapour pressure of zero): no outputs, the water kept
    out.E_hs[i] = out.E_nhs[i] = out.Rn[i] = out.Tw[i] = out.Lerr[i] = Number.NaN;
    return tw0;
  }
  const stored = waterHeatCapacity * depth * (tw - tw0);
  const rn = shortwave * (1 - albedo) + emAir * airLong - waterEmissivity * airLong;
  const aerodynamic = gamma * windF * vpd;
  out.E_hs[i] = (salinity * (slopeAir * (rn - stored) + aerodynamic)) / (slopeAir + gamma) / lambda;
  out.E_nhs[i] = (slopeAir * rn + aerodynamic) / (slopeAir + gamma) / lambda;
  out.Rn[i] = rn / wattsToDaily;
  out.Tw[i] = tw;
  out.Lerr[i] = code;
  return tw;
}
