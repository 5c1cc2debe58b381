// The reference forecast a variable's skill is measured against: the day-of-year normal of its estimates.
import { formatDay } from '../dates.js';
import type { ForecastVariable } from './variables.js';

/** What a reference is made of: a forecast variable's estimates, or the reservoir's published surface area. */
export type EstimateVariable = ForecastVariable | 'area_m2';

/** One reservoir's estimates (metric) by variable and day (NaN where none). */
export type DailyEstimates = ReadonlyMap<EstimateVariable, ReadonlyMap<number, number>>;

const none: ReadonlyMap<number, number> = new Map();

/** The estimates a variable's reference is made of. */
export function referenceInputs(variable: ForecastVariable): EstimateVariable[] {
  return [variable];
}

/** The reference forecast of a variable for a valid day, from an issue day; undefined where none can be made. */
export function referenceOf(variable: ForecastVariable, estimates: DailyEstimates): (issued: number, valid: number) => number | undefined {
  const normal = normalsOf(estimates.get(variable) ?? none);
  return (_issued, valid) => normal(valid);
}

/**
 * The day-of-year normal of a day: the mean of the estimates on the same month and day in the other years held
 * (the verified year left out, so the normal never knows the day it is judged on); undefined when no other year has it.
 */
export function normalsOf(days: ReadonlyMap<number, number>): (day: number) => number | undefined {
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
