// What-if scenarios: changes to a water body's forcing before the model runs, each checked against a range that keeps
// the model inside what it was made for. docs/model.md says what each one does to the inputs.
import { InvalidParameterError } from '../errors.js';
import { saturation } from './dlem-terms.js';

/** A scenario, by its library option names (the wire's are snake_case: ta_delta, depth_m, ...). */
export interface Scenario {
  taDelta?: number; // °C added to the air temperature, its relative humidity kept
  depthM?: number; // m: the average depth on every day
  stageDelta?: number; // m added to the depth of every day (the surface area is kept unless areaScale says otherwise)
  areaScale?: number; // the surface area (and so the volumes and a fetch made from the area) times this
  windScale?: number; // the wind speed times this
  tds?: number; // total dissolved solids, ppm
}

/** A scenario as given: numbers, or their text (the wire's). */
export type ScenarioOptions = { [K in keyof Scenario]?: number | string };

/** Each parameter: its wire name, option, unit and allowed range (inclusive unless open). */
export const scenarioParameters = [
  { name: 'ta_delta', option: 'taDelta', unit: '°C', min: -15, max: 15, description: 'added to the daily air temperature (relative humidity kept)' },
  { name: 'depth_m', option: 'depthM', unit: 'm', min: 0, max: 1000, openMin: true, description: 'the average depth of every day' },
  { name: 'stage_delta', option: 'stageDelta', unit: 'm', min: -200, max: 200, description: 'added to the depth of every day (area kept unless area_scale)' },
  { name: 'area_scale', option: 'areaScale', unit: '', min: 0, max: 10, openMin: true, description: 'the surface area times this' },
  { name: 'wind_scale', option: 'windScale', unit: '', min: 0, max: 5, description: 'the wind speed times this' },
  { name: 'tds', option: 'tds', unit: 'ppm', min: 0, max: 999_999, description: 'total dissolved solids' },
] as const;

/** A scenario's values checked: numbers (or numeric text) within their ranges; depth_m and stage_delta not both. */
export function checkScenario(given: ScenarioOptions): Scenario {
  const scenario: Record<string, number> = {};
  for (const p of scenarioParameters) {
    const raw: unknown = given[p.option];
    if (raw === undefined || raw === null || raw === '') continue;
    const value =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
    const low = 'openMin' in p ? `above ${p.min}` : `from ${p.min}`;
    if (!Number.isFinite(value) || value > p.max || value < p.min || ('openMin' in p && value === p.min)) {
      throw new InvalidParameterError(
        p.name,
        `${p.name} must be a number ${low} to ${p.max}${p.unit ? ` ${p.unit}` : ''}; got ${JSON.stringify(String(raw).slice(0, 40))}`,
        'malformed',
        raw,
      );
    }
    scenario[p.option] = value;
  }
  if (scenario.depthM !== undefined && scenario.stageDelta !== undefined) {
    throw new InvalidParameterError('stage_delta', 'give depth_m or stage_delta, not both: each sets the depth', 'malformed', given.stageDelta);
  }
  return scenario as Scenario;
}

/** The scenario as `name=value` pairs in the table's order (an answer's header echoes it). */
export function describeScenario(scenario: Scenario): string {
  return scenarioParameters
    .filter((p) => scenario[p.option] !== undefined)
    .map((p) => `${p.name}=${scenario[p.option]}`)
    .join(',');
}

/** Columns a scenario changes, in place (any layout: each cell is one day of one body). */
interface ScenarioColumns {
  ta: Float64Array;
  vpd: Float64Array;
  u2: Float64Array;
  depth: Float64Array;
  area: Float64Array;
}

/** Applies the scenario to the columns. */
export function applyScenario(scenario: Scenario, columns: ScenarioColumns): void {
  const { ta, vpd, u2, depth, area } = columns;
  const { taDelta, depthM, stageDelta, areaScale, windScale } = scenario;
  for (let i = 0; i < ta.length; i++) {
    if (taDelta !== undefined) {
      // the same relative humidity: the deficit grows with the saturation vapour pressure (a deficit above
      // saturation, which a daily mean of tmax and tmin can give, scales the same way)
      const before = saturation(ta[i]!);
      ta[i]! += taDelta;
      vpd[i]! *= saturation(ta[i]!) / before;
    }
    if (depthM !== undefined) depth[i] = depthM;
    if (stageDelta !== undefined) depth[i] = Math.max(0, depth[i]! + stageDelta);
    if (areaScale !== undefined) area[i]! *= areaScale;
    if (windScale !== undefined) u2[i]! *= windScale;
  }
}
