// The forecast's variables and sizes: the evaporation variables and the precipitation NetE needs, each with the
// unit, description and dataset of the estimate it forecasts (the catalogue's).
import { findReservoirVariable, reservoirAttributes, type UnitName, type UnitSystem, unitLabel } from './catalogue.js';

export const forecastVariables = ['E_hs', 'NetE', 'E_volume', 'NetE_volume', 'pr'] as const;
export type ForecastVariable = (typeof forecastVariables)[number];

/** Lead days of every issue: the forecast is for the 28 days after the issue date. */
export const MAX_LEAD = 28;

/** The catalogue's entry of a forecast variable: its unit, description and the dataset of its estimates. */
export function forecastVariableInfo(variable: ForecastVariable): { unit: UnitName; description: string; dataset: string } {
  const found = findReservoirVariable(variable)!;
  return { unit: found.spec.unit, description: found.spec.description, dataset: found.dataset };
}

/** The wire key of a variable's statistic (`E_volume (m3) p90`), or of its estimate (`observed`). */
export function forecastKey(variable: ForecastVariable, system: UnitSystem, statistic: string): string {
  return `${variable} (${unitLabel(forecastVariableInfo(variable).unit, system)}) ${statistic}`;
}

/** A member's name: m01, m02, ... */
export function memberName(index: number): string {
  return `m${String(index + 1).padStart(2, '0')}`;
}

/** What `statistics` may list: the eight kept (lib/forecast/stats.ts), and `members` for every kept member (m01, m02, ...). */
export const statisticValues: readonly string[] = ['mean', 'p05', 'p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'members'];
export const defaultStatistics: readonly string[] = ['mean', 'p10', 'p50', 'p90'];
/** The attributes also_return adds: the reservoir's metadata (no day flags: a forecast day has none). */
export const forecastAttributes: readonly string[] = reservoirAttributes.slice(1);
