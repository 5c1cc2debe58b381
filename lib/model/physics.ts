// Textbook formulas shared by the weather and station models; units as in FAO-56 unless stated.

/** Stefan-Boltzmann constant in MJ m-2 K-4 day-1 (FAO-56). */
const stefanBoltzmann = 4.903e-9;

/** Saturation vapour pressure in kPa at a temperature in degC (Tetens, FAO-56 eq. 11). */
export function saturationVaporPressure(t: number): number {
  return 0.6108 * Math.exp((17.27 * t) / (t + 237.3));
}

/** Slope of the saturation vapour pressure curve, kPa/K (FAO-56 eq. 13). */
export function saturationSlope(t: number): number {
  const d = t + 237.3;
  return (4098 * saturationVaporPressure(t)) / (d * d);
}

/** Mean air pressure in kPa at an elevation in m (FAO-56 eq. 7). */
export function pressureAtElevation(elevM: number): number {
  return 101.3 * ((293 - 0.0065 * elevM) / 293) ** 5.26;
}

/** Psychrometric constant in kPa/K at a pressure in kPa (FAO-56 eq. 8). */
export function psychrometricConstant(pressureKpa: number): number {
  return 0.000665 * pressureKpa;
}

/** Extraterrestrial radiation in MJ m-2 day-1 for a latitude in degrees and a day of year (FAO-56 eqs. 21-25). */
export function extraterrestrialRadiation(latDeg: number, doy: number): number {
  const phi = (latDeg * Math.PI) / 180;
  const dr = 1 + 0.033 * Math.cos((2 * Math.PI * doy) / 365);
  const delta = 0.409 * Math.sin((2 * Math.PI * doy) / 365 - 1.39);
  const ws = Math.acos(Math.max(-1, Math.min(1, -Math.tan(phi) * Math.tan(delta))));
  return ((24 * 60) / Math.PI) * 0.082 * dr * (ws * Math.sin(phi) * Math.sin(delta) + Math.cos(phi) * Math.cos(delta) * Math.sin(ws));
}

/** Net outgoing longwave radiation in MJ m-2 day-1 (FAO-56 eq. 39). */
export function netLongwave(tmax: number, tmin: number, ea: number, rs: number, rso: number): number {
  const kx = tmax + 273.16;
  const kn = tmin + 273.16;
  const ratio = Math.min(1, Math.max(0.3, rs / rso)); // FAO-56 limits Rs/Rso to <= 1
  return stefanBoltzmann * ((kx ** 4 + kn ** 4) / 2) * (0.34 - 0.14 * Math.sqrt(ea)) * (1.35 * ratio - 0.35);
}

/** Daily reference ET in mm (ASCE-EWRI 2005 standardized Penman-Monteith: cn/cd 900/0.34 short, 1600/0.38 tall). */
export function referenceEt(cn: number, cd: number, delta: number, gamma: number, rn: number, tmean: number, u2: number, vpd: number): number {
  const et = (0.408 * delta * rn + gamma * (cn / (tmean + 273)) * u2 * vpd) / (delta + gamma * (1 + cd * u2));
  return et > 0 ? et : 0; // gridded reference ET products are not negative
}

/** Specific humidity in kg/kg from vapour pressure and air pressure, both in kPa. */
export function specificHumidity(ea: number, pressureKpa: number): number {
  return (0.622 * ea) / (pressureKpa - 0.378 * ea);
}
