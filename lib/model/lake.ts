// Daily lake evaporation with heat storage: a one-layer energy balance of the mixed layer
// (after McJannet et al. 2008, J. Hydrol. Eng. 13(12), and the Penman/Dalton bulk forms).
import { latentHeat, psychrometricConstant, saturationSlope, saturationVaporPressure, stefanBoltzmann, waterHeatCapacity } from './physics.js';
import type { Weather } from './weather.js';

const albedo = 0.08; // open water
const emissivity = 0.97; // water surface
const maxMixedDepth = 20; // heat storage stops growing past 20 m average depth (OperEvap FAQ)
const toWm2 = 1e6 / 86400; // MJ m-2 day-1 -> W m-2

/** The lake's water temperature state and the current day's evaporation terms. */
export class Lake {
  tw: number; // mixed-layer temperature at the end of the day, degC
  tw0 = 0; // daily mean surface temperature, degC
  eHs = 0; // evaporation with heat storage, mm/day
  eNhs = 0; // evaporation without heat storage, mm/day
  rn = 0; // net radiation at the water surface, W m-2

  // per-day inputs kept as fields so that heatIn does not allocate
  private t = 0;
  private ea = 0;
  private shortIn = 0;
  private longIn = 0;
  private windFn = 0;
  private gamma = 0;

  constructor(initialTemperature: number) {
    this.tw = Math.max(0, initialTemperature);
  }

  /** A copy of the lake's state, to run forward under another weather. */
  fork(): Lake {
    return Object.assign(Object.create(Lake.prototype) as Lake, this);
  }

  /** Advances one day over a lake of the given average depth (m) and fetch (m). */
  step(w: Weather, depthM: number, fetchM: number): void {
    this.t = w.tmean;
    this.ea = w.ea;
    this.gamma = psychrometricConstant(w.pressure);
    // wind function in MJ m-2 day-1 kPa-1 (McJannet et al. 2008, eq. 12), scaled up to match bulk transfer with Ce ~ 1.3e-3
    this.windFn = 2.6 * (2.33 + 1.65 * w.u2) * Math.max(fetchM, 10) ** -0.1;
    this.shortIn = (1 - albedo) * w.rs;
    const tk = w.tmean + 273.15;
    const cloud = Math.min(1, Math.max(0, 1 - w.rs / w.rso));
    const clearSky = 1.24 * ((10 * w.ea) / tk) ** (1 / 7); // Brutsaert (1975)
    this.longIn = Math.min(1, clearSky * (1 + 0.22 * cloud * cloud)) * stefanBoltzmann * tk ** 4; // Bolz cloud factor

    // without storage: the surface sits at the equilibrium temperature, where the net heat flux is zero (two Newton steps)
    let te = w.tmean;
    te += this.heatIn(te) / this.exchange(te);
    te += this.heatIn(te) / this.exchange(te);
    this.eNhs = (this.windFn * (saturationVaporPressure(te) - w.ea)) / latentHeat;

    // with storage: the mixed layer relaxes toward its equilibrium with time constant rho c z / K
    const z = Math.min(maxMixedDepth, Math.max(0.5, depthM));
    const k = this.exchange(this.tw);
    const target = this.tw + this.heatIn(this.tw) / k;
    const rate = k / (waterHeatCapacity * z);
    const decay = Math.exp(-rate);
    const end = target + (this.tw - target) * decay;
    const mean = target + ((this.tw - target) * (1 - decay)) / rate; // daily mean of the exponential path
    this.tw = Math.max(0, end); // ice cover holds the water at 0 degC
    this.tw0 = Math.max(0, mean);
    this.eHs = (this.windFn * (saturationVaporPressure(this.tw0) - w.ea)) / latentHeat; // Dalton form at the surface
    this.rn = (this.shortIn + this.longIn - emissivity * stefanBoltzmann * (this.tw0 + 273.15) ** 4) * toWm2;
  }

  /** Net heat flux into the water (MJ m-2 day-1) with the surface at temperature t. */
  private heatIn(t: number): number {
    const outLong = emissivity * stefanBoltzmann * (t + 273.15) ** 4;
    const sensible = this.gamma * this.windFn * (t - this.t); // Bowen ratio form
    const latent = this.windFn * (saturationVaporPressure(t) - this.ea);
    return this.shortIn + this.longIn - outLong - sensible - latent;
  }

  /** Derivative of the net outgoing heat flux with surface temperature, MJ m-2 day-1 K-1. */
  private exchange(t: number): number {
    return 4 * emissivity * stefanBoltzmann * (t + 273.15) ** 3 + this.windFn * (this.gamma + saturationSlope(t));
  }
}
