// Station series: the associated reservoir's weather and lake terms as seen by an instrument, with noise and gaps.
import type { StationVariable } from '../catalogue.js';
import { stationVariableNames } from '../catalogue.js';
import { maxStorageDepth, waterHeatCapacity } from './dlem-terms.js';
import { pressureAtElevation, saturationVaporPressure } from './physics.js';
import { Random } from './random.js';
import type { ReservoirSpec, StationSpec } from './reference.js';
import { createReservoirModel } from './reservoir.js';
import { round4 } from './round.js';
import { dayFromCivil, originDay } from './time.js';

const met: StationVariable[] = ['ATemp', 'ATemp_Min', 'ATemp_Max', 'BP', 'RH', 'VP', 'VPD', 'WVD', 'WS', 'WD', 'IncomingSR', 'PofDays'];
const energy: StationVariable[] = ['NR', 'SWin', 'HSEnergyFlux', 'EnergyT', 'NC_EnergyStored', 'BR', 'SkinTemp'];
const variablesByType: Record<StationSpec['type'], ReadonlySet<StationVariable>> = {
  buoy: new Set([...met, 'WTemp', 'SurfaceT', 'SkinTemp', 'SamplingD', 'DO', 'DO_percent', 'PH', 'SpecConduct', 'evap_3', 'evap_4']),
  pan: new Set([...met, 'evap_5']),
  'shore-weather': new Set([...met, 'ETo', 'ETr']),
  'eddy-covariance': new Set([
    ...met,
    ...energy,
    'SurfaceT',
    'NW_AdvectedE',
    'Ce',
    'MO_StabilityL',
    'inflow',
    'outflow',
    'evap_1',
    'evap_2',
    'evap_3',
    'evap_4',
  ]),
  raft: new Set([...met, ...energy, 'WTemp', 'SamplingD', 'evap_2', 'evap_3', 'evap_4']),
};

/** The station variables a station of this type records, in catalogue order. */
function stationVariablesOf(type: StationSpec['type']): StationVariable[] {
  const set = variablesByType[type];
  return stationVariableNames.filter((v) => set.has(v));
}

const noiseCount = 24;
const lambda = 2.45e6; // J/kg
const karman = 0.4;

/** Stations named by the public service's examples (evap-docs), and the first day from which they have no gaps. */
const EXAMPLE_STATIONS = new Set(['LAKE MEAD_STATION', 'BLW_STATION', 'ABERDEEN_STATION', 'ABIQUIU DAM_STATION']);
const EXAMPLES_FROM = dayFromCivil(2019, 1, 1);

/** Simulates a station over inclusive epoch days; NaN marks missing days (outages, before it started, after it stopped). */
export function simulateStation(
  spec: StationSpec,
  reservoir: ReservoirSpec | null,
  startDay: number,
  endDay: number,
  seed: number,
): { variables: StationVariable[]; values: Partial<Record<StationVariable, Float64Array>> } {
  if (!Number.isInteger(startDay) || !Number.isInteger(endDay) || endDay < startDay - 1) {
    throw new RangeError(`invalid day range: ${startDay}..${endDay}`);
  }
  const variables = stationVariablesOf(spec.type);
  const days = endDay - startDay + 1;
  const values: Partial<Record<StationVariable, Float64Array>> = {};
  for (const v of variables) values[v] = new Float64Array(days).fill(NaN);
  const out = (v: StationVariable, i: number, x: number) => {
    const a = values[v];
    if (a) a[i] = Number.isFinite(x) ? round4(x) : NaN;
  };

  // off-lake stations see the weather of a small static pond at their own site
  const site: ReservoirSpec = reservoir ?? {
    name: `${spec.name} SITE`,
    state: '',
    lat: spec.lat,
    lon: spec.lon,
    elevM: spec.elevM,
    fullAreaM2: 1e6,
    maxDepthM: 8,
    capacityM3: 4e6,
  };
  const r = createReservoirModel(site, seed).simulate(startDay - 1, endDay).values; // one day before, for changes
  const onLake = spec.type === 'buoy' || spec.type === 'raft' || spec.type === 'eddy-covariance';
  const lapse = -0.0065 * (spec.elevM - site.elevM);
  const pressureRatio = pressureAtElevation(spec.elevM) / pressureAtElevation(site.elevM);
  const samplingDepth = spec.type === 'raft' ? 0.5 : 1;
  const baseRelease = site.capacityM3 / (1.5 * 365 * 86400); // m3/s, residence time of about 18 months

  const rng = new Random(seed, spec.name);
  const inactive = spec.status === 'inactive';
  const firstDay = dayFromCivil(inactive ? 2004 + Math.floor(rng.uniform() * 8) : 2008 + Math.floor(rng.uniform() * 9), 1, 1) + Math.floor(rng.uniform() * 365);
  const lastDay = inactive ? dayFromCivil(2021, 6, 1) - 1 - Math.floor(rng.uniform() * 4 * 365) : Infinity;
  const conductance = rng.between(300, 1100);
  const noise = new Float64Array(noiseCount);
  let outage = 0;
  let doAnom = 0;
  let phAnom = 0;
  let condAnom = 0;

  for (let day = Math.min(originDay, startDay); day <= endDay; day++) {
    // the same draws every day, whatever the range, so a day's values do not depend on the query
    for (let k = 0; k < noiseCount; k++) noise[k] = rng.normal();
    const gapDraw = rng.uniform();
    const outageDraw = rng.uniform();
    const partialDraw = rng.uniform();
    doAnom = 0.9 * doAnom + 0.44 * noise[20]!;
    phAnom = 0.95 * phAnom + 0.31 * noise[21]!;
    condAnom = 0.99 * condAnom + 0.14 * noise[22]!;
    // the stations the public examples name report every day from 2019, so every documented example answers
    const missing = (gapDraw < 0.01 || outage > 0) && !(EXAMPLE_STATIONS.has(spec.name) && day >= EXAMPLES_FROM);
    if (outage > 0) outage--;
    else if (outageDraw < 0.002) outage = 2 + Math.floor(partialDraw * 25);
    const i = day - startDay;
    if (i < 0 || missing || day < firstDay || day > lastDay) continue;
    const j = i + 1; // index into the reservoir series, which starts one day earlier
    const n = noise;

    const tmax = r.tmmx_c[j]! + lapse + 0.3 * n[0]!;
    const tmin = Math.min(tmax - 0.5, r.tmmn_c[j]! + lapse + 0.3 * n[1]!);
    const ta = Math.min(tmax, Math.max(tmin, (tmax + tmin) / 2 + 0.3 * n[2]!));
    out('ATemp', i, ta);
    out('ATemp_Min', i, tmin);
    out('ATemp_Max', i, tmax);
    const bp = (r.pres_pa[j]! / 1000) * pressureRatio + 0.05 * n[3]!;
    out('BP', i, bp);
    const es = saturationVaporPressure(ta);
    const eaSite = (saturationVaporPressure(r.tmmx_c[j]!) + saturationVaporPressure(r.tmmn_c[j]!)) / 2 - r.vpd_kpa[j]!;
    const rh = Math.min(100, Math.max(1, (100 * eaSite * (1 + 0.03 * n[4]!)) / es));
    const vp = (rh / 100) * es;
    out('RH', i, rh);
    out('VP', i, vp);
    out('VPD', i, es - vp);
    out('WVD', i, (vp * 1000 * 1000) / (461.5 * (ta + 273.15))); // ideal gas, Rv = 461.5 J kg-1 K-1
    const ws = Math.max(0, r.vs2m[j]! * (onLake ? 1.15 : 1) * (1 + 0.08 * n[5]!));
    out('WS', i, ws);
    out('WD', i, ((((r.th[j]! + 12 * n[6]!) % 360) + 360) % 360) % 360);
    out('IncomingSR', i, Math.max(0, r.srad[j]! * (1 + 0.03 * n[7]!)));
    out('SWin', i, Math.max(0, r.srad[j]! * (1 + 0.03 * n[8]!)));
    out('PofDays', i, partialDraw < 0.95 ? 100 : 100 - 50 * outageDraw);
    const etFactor = Math.max(0, 1 + 0.04 * n[9]!);
    out('ETo', i, r.eto[j]! * etFactor);
    out('ETr', i, r.etr[j]! * etFactor);

    const eHs = r.E_hs[j]!;
    const spread = (k: number) => (0.1 + 0.08 * Math.abs(eHs)) * n[k]!;
    out('evap_1', i, eHs + spread(10));
    out('evap_2', i, eHs + spread(11));
    const evap3 = eHs + spread(12);
    out('evap_3', i, evap3);
    out('evap_4', i, eHs + spread(13));
    out('evap_5', i, eHs + 0.3 * (r.E_nhs[j]! - eHs) + 1.5 * spread(14)); // a pan has little heat storage

    const tw0 = r.Tw0[j]!;
    out('WTemp', i, Math.max(0, r.Tw[j]! + 0.2 * n[15]!));
    out('SurfaceT', i, Math.max(0, tw0 + 0.2 * n[16]!));
    out('SkinTemp', i, tw0 - 0.3 + 0.2 * n[17]!); // cool skin (Fairall et al. 1996)
    out('SamplingD', i, samplingDepth);
    // oxygen solubility in fresh water, mg/l (Elmore and Hayes 1960 polynomial), scaled by pressure
    const t = Math.max(0, r.Tw[j]!);
    const doSat = (14.652 - 0.41022 * t + 0.007991 * t * t - 7.7774e-5 * t * t * t) * (bp / 101.325);
    const doPercent = Math.min(130, Math.max(60, 100 + 6 * doAnom));
    out('DO_percent', i, doPercent);
    out('DO', i, (doSat * doPercent) / 100);
    out('PH', i, 8.1 + 0.2 * phAnom);
    out('SpecConduct', i, conductance * (1 + 0.05 * condAnom));

    const nr = r.Rn[j]! + 5 * n[18]!;
    const stored = (waterHeatCapacity * 1e6 * Math.min(maxStorageDepth, r.depth_m[j]!) * (r.Tw[j]! - r.Tw[j - 1]!)) / 86400; // W m-2
    const available = nr - stored;
    const latent = (eHs * lambda) / 86400;
    const sensible = available - latent + 5 * n[19]!; // energy balance closure
    out('NR', i, nr);
    out('NC_EnergyStored', i, stored);
    out('EnergyT', i, available);
    out('HSEnergyFlux', i, sensible);
    out('BR', i, Math.abs(latent) > 10 ? sensible / latent : NaN);

    // bulk transfer: E = rho_a Ce U (q_s - q_a)
    const tk = ta + 273.15;
    const rhoAir = (bp * 1000) / (287.05 * tk);
    const esw = saturationVaporPressure(tw0);
    const dq = (0.622 * esw) / (bp - 0.378 * esw) - (0.622 * vp) / (bp - 0.378 * vp);
    const perCe = rhoAir * ws * dq * 86400; // mm/day per unit Ce
    const ce = evap3 / perCe;
    out('Ce', i, Math.abs(perCe) > 100 && ce > 0 && ce < 0.01 ? ce : NaN);
    // Monin-Obukhov length with the virtual heat flux, z = 3 m over water with z0 = 2e-4 m
    const uStar = (karman * ws) / Math.log(3 / 2e-4);
    const buoyancy = sensible + 0.61 * 1005 * tk * (eHs / 86400);
    out('MO_StabilityL', i, Math.abs(buoyancy) > 0.5 ? (-rhoAir * 1005 * uStar ** 3 * tk) / (karman * 9.81 * buoyancy) : NaN);

    // water balance: dV/dt = inflow - outflow - (E - P) A
    const area = r.area_m2[j]!;
    const dVdt = (r.depth_m[j]! * area - r.depth_m[j - 1]! * r.area_m2[j - 1]!) / 86400;
    const netLoss = ((eHs - r.pr[j]!) / 1000) * (area / 86400);
    let release = baseRelease * Math.max(0.2, 1 + 0.1 * n[23]!);
    let inflow = dVdt + release + netLoss;
    if (inflow < 0) {
      release -= inflow;
      inflow = 0;
    }
    out('inflow', i, inflow);
    out('outflow', i, release);
    out('NW_AdvectedE', i, (waterHeatCapacity * 1e6 * (inflow * Math.max(0, ta - 2) - release * r.Tw[j]!)) / area);
  }
  return { variables, values };
}
