// Daily gridded-style weather for one place: seasonal climatology by latitude and elevation plus AR(1) anomalies.
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
    // Climate of the western US, roughly: sea-level annual mean falls with latitude, 6.5 K/km lapse rate.
    const tAnnual = 27 - 0.85 * (lat - 33) - 0.0065 * elevM + 0.7 * rng.normal();
    const amplitude = 9 + 0.2 * (lat - 33) + 3 * clamp((lon + 122) / 6, 0, 1) + 0.5 * rng.normal();
    const desert = clamp((39 - lat) / 5, 0, 1) * (lon > -118.5 ? 1 : 0.4);
    const aridity = 0.3 + 0.6 * desert;
    const pacific = clamp((-117 - lon) / 3, 0, 1);
    const monsoon = clamp((38 - lat) / 3, 0, 1) * clamp((lon + 116) / 4, 0, 1);
    const plains = clamp((lon + 106) / 3, 0, 1);
    const pMean = clamp(0.06 + 0.22 * (1 - aridity) + 3e-5 * elevM + 0.02 * rng.normal(), 0.05, 0.4);
    const wetAmount = Math.max(2, 3 + 2.5 * (1 - aridity) + 0.5 * rng.normal());
    this.dtr = 12 + 6 * aridity + rng.normal();
    this.windDir = 225 + 30 * rng.normal();
    const windMean = Math.max(1.5, 2.6 + 1.2 * plains + 0.4 * rng.normal());
    for (let doy = 1; doy <= 366; doy++) {
      const winter = season(doy, 15);
      const summer = 0.65 + 0.35 * season(doy, 190); // 0.3 in winter, 1 in summer
      const monsoonBump = Math.exp(-(((doy - 215) / 25) ** 2));
      this.tClim[doy] = tAnnual + amplitude * season(doy, 200);
      this.tSigma[doy] = (2.2 + 0.08 * (lat - 33)) * (1 + 0.35 * winter);
      const shape =
        1 + 0.85 * pacific * winter + monsoon * (1.8 * monsoonBump - 0.3) + 0.5 * plains * season(doy, 160) + 0.25 * (1 - pacific - plains) * winter;
      this.pWet[doy] = clamp(pMean * shape, 0.01, 0.75);
      // convective summer storms on the plains are heavier than winter snowfall
      this.wetAmount[doy] = wetAmount * (1 + 0.4 * plains * season(doy, 190) + 0.3 * (1 - pacific - plains) * season(doy, 190));
      this.dtrSeason[doy] = this.dtr * (1 + 0.12 * season(doy, 190));
      this.dewDepression[doy] = (1 + 22 * aridity * aridity * summer) * (1 - 0.6 * monsoon * monsoonBump);
      this.windClim[doy] = windMean * (1 + 0.2 * season(doy, 100));
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

    const transmittance = this.wet ? 0.25 + 0.45 * rng.uniform() : 1 - 0.3 * rng.uniform() ** 3;
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
