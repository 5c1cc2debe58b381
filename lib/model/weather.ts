// Daily gridded-style weather for one place: a seasonal climatology by region, latitude and elevation, plus AR(1)
// anomalies.
import {
  extraterrestrialRadiation,
  netLongwave,
  pressureAtElevation,
  psychrometricConstant,
  referenceEt,
  saturationSlope,
  saturationVaporPressure,
  specificHumidity,
} from './physics.js';
import type { Random } from './random.js';

const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);
const season = (doy: number, peakDoy: number) => Math.cos((2 * Math.PI * (doy - peakDoy)) / 365.25);

// The precipitation regimes of the West, in this order, and each one's share of the months (mean 1), from NOAA's
// 1991-2020 monthly normals of a station typical of it, rounded: Las Vegas (winter storms, a dry May-June, the
// monsoon's fringe), Tucson (the July-September monsoon), Sacramento (wet winters, dry summers), Salt Lake City
// (winter and spring, a dry July-August) and North Platte (the plains' May-August maximum).
const [desert, monsoon, pacific, interior, plains] = [0, 1, 2, 3, 4];
const regimes = 5;
const precipitationShape = [
  [1.71, 2.36, 1.35, 0.46, 0.24, 0.12, 1.13, 0.98, 0.58, 0.83, 0.89, 1.35],
  [1.0, 0.89, 0.82, 0.28, 0.24, 0.2, 2.1, 2.34, 1.47, 1.07, 0.64, 0.94],
  [2.35, 2.29, 1.83, 0.78, 0.39, 0.13, 0.01, 0.03, 0.13, 0.59, 1.31, 2.16],
  [1.06, 0.99, 1.44, 1.52, 1.44, 0.68, 0.46, 0.46, 0.84, 1.06, 0.99, 1.06],
  [0.24, 0.3, 0.67, 1.21, 1.94, 2.0, 1.82, 1.39, 0.91, 0.85, 0.36, 0.3],
];

/** How much of each regime a place has (they add up to 1): by longitude and latitude across the western US. */
function regimeWeights(lat: number, lon: number): number[] {
  const p = clamp((-117 - lon) / 3, 0, 1);
  const q = clamp((lon + 106) / 3, 0, 1) * (1 - p);
  const m = clamp((38 - lat) / 3, 0, 1) * clamp((lon + 116) / 4, 0, 1) * (1 - p - q);
  const rest = 1 - p - q - m;
  const d = clamp((40 - lat) / 3, 0, 1);
  return [rest * d, m, p, rest * (1 - d), q];
}

/**
 * Each regime's annual precipitation at a place, mm: wetter with elevation in the deserts and mountains, northward on
 * the Pacific side (Sacramento ~460, Redding ~860), eastward on the plains (Scottsbluff ~400, Dallas ~950).
 */
function annualPrecipitation(lat: number, lon: number, elevM: number): number[] {
  const mm = new Array<number>(regimes);
  mm[desert] = 90 + 0.07 * elevM;
  mm[monsoon] = 200 + 0.05 * elevM;
  mm[pacific] = 450 + 180 * clamp(lat - 38, 0, 4);
  mm[interior] = 220 + 0.1 * elevM;
  mm[plains] = 380 + 60 * Math.max(0, lon + 104) + 100 * Math.max(0, lon + 98);
  return mm;
}

/** A monthly table's value on a day of the year, linear between the months' middles. */
function monthly(table: readonly number[], doy: number): number {
  const x = (doy - 15.5) / 30.44; // 0 in mid-January
  const k = Math.floor(x);
  const t = x - k;
  return table[(k + 12) % 12]! * (1 - t) + table[(k + 13) % 12]! * t;
}

/** A place's weather, advanced one day at a time; the public fields hold the current day. */
export class Weather {
  pr = 0; // mm
  tmax = 0; // degC
  tmin = 0;
  tmean = 0;
  ea = 0; // actual vapour pressure, kPa
  vpd = 0; // kPa, FAO-56 es (mean of es(tmax), es(tmin)) minus ea
  u2 = 0; // m/s at 2 m
  th = 0; // wind direction, degrees from north
  rs = 0; // shortwave, MJ m-2 day-1
  rso = 0; // clear-sky shortwave, MJ m-2 day-1
  pressure = 0; // kPa
  sph = 0; // kg/kg
  eto = 0; // mm
  etr = 0;
  wet = false;

  private readonly tClim = new Float64Array(367);
  private readonly pWet = new Float64Array(367);
  private readonly dewDepression = new Float64Array(367);
  private readonly windClim = new Float64Array(367);
  private readonly ra = new Float64Array(367);
  private readonly tSigma = new Float64Array(367);
  private readonly dtrSeason = new Float64Array(367);
  private readonly rsoFactor: number;
  private readonly basePressure: number;
  private readonly dtr: number;
  private readonly wetAmount = new Float64Array(367);
  private readonly windDir: number;
  private tAnom = 0;
  private dewAnom = 0;
  private windAnom = 0;
  private pressAnom = 0;

  constructor(
    lat: number,
    lon: number,
    elevM: number,
    private readonly rng: Random,
  ) {
    const w = regimeWeights(lat, lon);
    const annual = annualPrecipitation(lat, lon, elevM);
    const total = annual.reduce((sum, x, k) => sum + w[k]! * x, 0); // mm a year
    const aridity = clamp((600 - total) / 500, 0, 1);
    // sea-level annual mean falls with latitude (27 degC at 33 N in the desert), 6.5 K/km lapse rate; the plains and
    // the Pacific side are cooler than the desert at the same latitude
    const tAnnual = 27 - 0.85 * (lat - 33) - 0.0065 * elevM - 5.5 * w[plains]! - 4 * w[pacific]! + 0.4 * rng.normal();
    const amplitude = 9 + 0.2 * (lat - 33) + 3 * clamp((lon + 122) / 6, 0, 1) + 0.3 * rng.normal();
    const wetAmount = Math.max(2, 3 + total / 200 + 0.3 * rng.normal());
    const convective = w[plains]! + w[monsoon]!;
    const humidPlains = clamp((lon + 103) / 6, 0, 1);
    this.dtr = 10 + 5 * aridity + 4 * w[plains]! * (1 - humidPlains) + rng.normal();
    this.windDir = 225 + 30 * rng.normal();
    const windMean = Math.max(1.5, 2.6 + 1.2 * aridity + 1.0 * w[plains]! + 0.4 * rng.normal());
    for (let doy = 1; doy <= 366; doy++) {
      const summer = (1 + season(doy, 180)) / 2; // 0 at the end of December, 1 at the end of June
      const monsoonBump = Math.exp(-(((doy - 215) / 25) ** 2));
      this.tClim[doy] = tAnnual + amplitude * season(doy, 200);
      this.tSigma[doy] = (2.2 + 0.08 * (lat - 33)) * (1 + 0.35 * season(doy, 15));
      let mm = 0;
      for (let k = 0; k < regimes; k++) mm += w[k]! * annual[k]! * monthly(precipitationShape[k]!, doy);
      // convective summer storms are heavier and fewer than winter rain and snow
      this.wetAmount[doy] = wetAmount * (1 + 0.5 * convective * summer);
      this.pWet[doy] = clamp(mm / 365.25 / this.wetAmount[doy]!, 0.005, 0.75);
      this.dtrSeason[doy] = (this.dtr + 7 * w[pacific]! * summer) * (1 + 0.12 * season(doy, 190)); // the Pacific side's clear, dry summers
      // dew point below the minimum temperature, K: the desert's June is the driest, the monsoon moistens July-September
      const depression = [7 + 15 * summer, (8 + 16 * summer) * (1 - 0.55 * monsoonBump), 2 + 8 * summer, 4 + 11 * summer, 3 + (5 - 3 * humidPlains) * summer];
      this.dewDepression[doy] = depression.reduce((sum, x, k) => sum + w[k]! * x, 0);
      this.windClim[doy] = windMean * (1 + 0.2 * season(doy, 140)); // the West's windy spring and early summer
      this.ra[doy] = extraterrestrialRadiation(lat, doy);
    }
    this.rsoFactor = 0.75 + 2e-5 * elevM; // FAO-56 eq. 37
    this.basePressure = pressureAtElevation(elevM);
  }

  /**
   * A copy of this weather on its current day that draws its future from `makeRng(this weather's generator)`: one
   * member of an ensemble of weather futures. Its anomalies start near today's (each moved by `spread` of its own
   * noise, drawn from `jitter`), then relax to the climatology as the place's own do, so members part ways with lead.
   */
  fork(makeRng: (own: Random) => Random, spread: number, jitter: Random): Weather {
    const copy: Weather = Object.assign(Object.create(Weather.prototype) as Weather, this);
    const rng = makeRng(this.rng);
    Object.assign(copy, { rng }); // its own draws from here on
    copy.tAnom += spread * 0.66 * jitter.normal();
    copy.dewAnom += spread * 1.6 * jitter.normal();
    copy.windAnom += spread * 0.3 * jitter.normal();
    return copy;
  }

  /** Advances to the next day, given its day of year (1-366). */
  step(doy: number): void {
    const rng = this.rng;
    const p = this.pWet[doy]!;
    // two-state Markov chain whose stationary wet-day probability is p
    const p11 = Math.min(0.85, p + 0.25);
    const p01 = (p * (1 - p11)) / (1 - p);
    this.wet = rng.uniform() < (this.wet ? p11 : p01);
    this.pr = this.wet ? Math.max(0.1, rng.exponential(this.wetAmount[doy]!)) : 0;

    const transmittance = this.wet ? 0.25 + 0.45 * rng.uniform() : 1 - 0.25 * rng.uniform() ** 3;
    this.rso = this.rsoFactor * this.ra[doy]!;
    this.rs = transmittance * this.rso;

    this.tAnom = 0.75 * this.tAnom + 0.66 * this.tSigma[doy]! * rng.normal(); // sqrt(1 - 0.75^2) = 0.66
    const range = Math.max(2, this.dtrSeason[doy]! * (0.45 + 0.55 * transmittance) + 0.8 * rng.normal());
    const mean = this.tClim[doy]! + this.tAnom - (this.wet ? 1.5 : 0);
    this.tmax = mean + range / 2;
    this.tmin = mean - range / 2;
    this.tmean = mean;

    this.dewAnom = 0.6 * this.dewAnom + 1.6 * rng.normal();
    const depression = this.wet ? 0.6 * Math.abs(this.dewAnom) : Math.max(0, this.dewDepression[doy]! + this.dewAnom);
    this.ea = saturationVaporPressure(this.tmin - depression);
    const es = (saturationVaporPressure(this.tmax) + saturationVaporPressure(this.tmin)) / 2; // FAO-56 eq. 12
    this.vpd = es - this.ea;

    this.windAnom = 0.5 * this.windAnom + 0.3 * rng.normal();
    this.u2 = Math.max(0.2, this.windClim[doy]! * Math.exp(this.windAnom) * (this.wet ? 1.2 : 1));
    const dir = rng.uniform() < 0.15 ? 360 * rng.uniform() : this.windDir + 70 * rng.normal();
    this.th = ((dir % 360) + 360) % 360;

    this.pressAnom = 0.7 * this.pressAnom + 0.28 * rng.normal();
    this.pressure = this.basePressure * (1 + this.pressAnom / 100);
    this.sph = specificHumidity(this.ea, this.pressure);

    const delta = saturationSlope(mean);
    const gamma = psychrometricConstant(this.pressure);
    const rn = 0.77 * this.rs - netLongwave(this.tmax, this.tmin, this.ea, this.rs, this.rso); // FAO-56 eqs. 38, 40
    this.eto = referenceEt(900, 0.34, delta, gamma, rn, mean, this.u2, this.vpd);
    this.etr = referenceEt(1600, 0.38, delta, gamma, rn, mean, this.u2, this.vpd);
  }
}
