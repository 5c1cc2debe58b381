// The Daily Lake Evaporation Model's formulas, one per quantity, in the units of Zhao & Gao (2019) and Zhao et al.
// (2024): temperatures in degC, pressures in kPa, energy in MJ m-2 day-1. Written from the papers' equations and the
// supplement of McMahon et al. (2013, HESS 17:1331) that they cite for each.

/** Seconds of a day over 1e6: W m-2 times this is MJ m-2 day-1. */
export const wattsToDaily = 0.0864;
/** Stefan-Boltzmann constant, MJ m-2 K-4 day-1, as the DLEM uses it. */
export const sigma = 4.9e-9;
/** Albedo of open water in the DLEM. */
export const albedo = 0.1;
/** Emissivity of the water surface. */
export const waterEmissivity = 0.97;
/** Volumetric heat capacity of water, MJ m-3 K-1 (1000 kg m-3 × 0.0042 MJ kg-1 K-1). */
export const waterHeatCapacity = 4.2;
/** Heat storage reaches no deeper than this, m (the well-mixed layer of a deep reservoir). */
export const maxStorageDepth = 20;
export const kelvin = 273.15;

/** Latent heat of vaporisation, MJ kg-1, at an air temperature in degC. */
export function latentHeat(ta: number): number {
  return 2.501 - 2.361e-3 * ta;
}

/** Psychrometric constant, kPa K-1, at a pressure in kPa and latent heat in MJ kg-1. */
export function psychrometric(pressureKpa: number, lambda: number): number {
  return (0.00163 * pressureKpa) / lambda;
}

/** Air pressure in kPa at an elevation in m with the day's air temperature (McMahon et al. 2013, S2.10). */
export function pressureFromElevation(ta: number, elevM: number): number {
  return 101.3 * ((kelvin + ta - 0.0065 * elevM) / (kelvin + ta)) ** 5.26;
}

/** Saturation vapour pressure, kPa (Tetens). */
export function saturation(t: number): number {
  return 0.6108 * Math.exp((17.27 * t) / (t + 237.3));
}

/** Slope of the saturation curve, kPa K-1. */
export function saturationSlope(t: number): number {
  return slopeOf(saturation(t), t);
}

/** The slope at t from the saturation vapour pressure there, es (kPa), known already. */
export function slopeOf(es: number, t: number): number {
  const d = t + 237.3;
  return (4098 * es) / (d * d);
}

/**
 * Wet-bulb temperature, degC, from the air temperature and the actual vapour pressure (kPa): the dew point from the
 * vapour pressure, then the wet bulb between air and dew point weighted by the psychrometer constant at 100 kPa and
 * the saturation slope at the dew point (McMahon et al. 2013, S2.2-S2.3).
 */
export function wetBulbOf(ta: number, ea: number): number {
  const lnEa = Math.log(ea);
  const dew = (116.9 + 237.3 * lnEa) / (16.78 - lnEa);
  const d = dew + 237.3;
  const slope = (4098 * ea) / (d * d);
  return (0.066 * ta + slope * dew) / (0.066 + slope);
}

/**
 * Clear-sky shortwave, MJ m-2 day-1, of the middle of a month (1-12) at a latitude (degrees) and elevation (m): the
 * reference evaluates the cloud factor at day 30.4 × month − 15, not at the day itself.
 */
export function clearSkyShortwave(month: number, latDeg: number, elevM: number): number {
  const j = Math.trunc(30.4 * month - 15);
  const delta = 0.409 * Math.sin((2 * Math.PI * j) / 365 - 1.39);
  const phi = (latDeg / 180) * Math.PI;
  const x = Math.tan(phi) * Math.tan(delta);
  const omega = Math.PI / 2 - Math.atan(-x / Math.sqrt(1 - x * x)); // sunset hour angle, arccos(-x)
  const dr = 1 + 0.033 * Math.cos(((2 * Math.PI) / 365) * j);
  const extraterrestrial = (24 / Math.PI) * 4.92 * dr * (omega * Math.sin(phi) * Math.sin(delta) + Math.cos(phi) * Math.cos(delta) * Math.sin(omega));
  return (0.75 + 2e-5 * elevM) * extraterrestrial;
}

/** Emissivity of the air (Satterlund 1979) with a cloud factor (1 − measured / clear-sky shortwave, in [0, 1]). */
export function airEmissivity(ta: number, ea: number, cloud: number): number {
  const clouds = cloud > 0 ? 1 + 0.22 * cloud ** 2.75 : 1;
  return 1.08 * (1 - Math.exp(-Math.exp(((ta + kelvin) / 2016) * Math.log(10 * ea)))) * clouds;
}

/**
 * Evaporation's factor for salty water (total dissolved solids in ppm, applied between 10,000 and 1,000,000 ppm):
 * a cubic in the water's density (1 + 0.695e-6 × TDS g cm-3), as the DRI implementation of the DLEM adjusts it.
 */
export function salinityFactor(tdsPpm: number): number {
  if (!(tdsPpm > 10_000 && tdsPpm < 1_000_000)) return 1;
  const rho = 1 + tdsPpm * 0.695e-6;
  return -30.285 + 77.65 * rho - 62.712 * rho * rho + 16.3 * rho * rho * rho;
}
