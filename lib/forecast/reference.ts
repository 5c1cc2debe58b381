// The reference forecast a variable's skill is measured against: the day-of-year normal of its estimates, and for a
// volume the normal of its depth times the issue day's area, the area the forecast holds too (docs/forecasts.md): other
// years' volumes are of other years' areas, a handicap of the reference that made volume forecasts look skilful.
import { formatDay } from '../dates.js';
import type { ForecastVariable } from '../forecast-variables.js';

/** What a reference is made of: a forecast variable's estimates, or the reservoir's published surface area. */
export type EstimateVariable = ForecastVariable | 'area_m2';

/** One reservoir's estimates (metric) by variable and day (NaN where none). */
type DailyEstimates = ReadonlyMap<EstimateVariable, ReadonlyMap<number, number>>;

const none: ReadonlyMap<number, number> = new Map();

/** The depth of each volume: volume (m3) = depth (mm) / 1000 x area (m2), in the estimates and the forecasts alike. */
const depthOf: Readonly<Partial<Record<ForecastVariable, ForecastVariable>>> = { E_volume: 'E_hs', NetE_volume: 'NetE' };

/** The estimates a variable's reference is made of. */
export function referenceInputs(variable: ForecastVariable): EstimateVariable[] {
  const depth = depthOf[variable];
  return depth === undefined ? [variable] : [depth, 'area_m2'];
}

/** The reference forecast of a variable for a valid day, from an issue day; undefined where none can be made. */
export function referenceOf(variable: ForecastVariable, estimates: DailyEstimates): (issued: number, valid: number) => number | undefined {
  const depth = depthOf[variable];
  const normal = normalsOf(estimates.get(depth ?? variable) ?? none);
  if (depth === undefined) return (_issued, valid) => normal(valid);
  const areas = estimates.get('area_m2') ?? none;
  return (issued, valid) => {
    const n = normal(valid);
    const area = areas.get(issued);
    return n === undefined || area === undefined || Number.isNaN(area) ? undefined : (n / 1000) * area;
  };
}

/**
 * The day-of-year normal of a day: the mean of the estimates on the same month and day in the other years held
 * (the verified year left out, so the normal never knows the day it is judged on); undefined when no other year has it.
 */
function normalsOf(days: ReadonlyMap<number, number>): (day: number) => number | undefined {
  const byMonthDay = new Map<string, { year: string; value: number }[]>();
  for (const [day, v] of days) {
    if (Number.isNaN(v)) continue;
    const date = formatDay(day);
    const key = date.slice(5);
    let list = byMonthDay.get(key);
    if (!list) byMonthDay.set(key, (list = []));
    list.push({ year: date.slice(0, 4), value: v });
  }
  return (day) => {
    const date = formatDay(day);
    const others = (byMonthDay.get(date.slice(5)) ?? []).filter((e) => e.year !== date.slice(0, 4));
    return others.length === 0 ? undefined : others.reduce((sum, e) => sum + e.value, 0) / others.length;
  };
}
