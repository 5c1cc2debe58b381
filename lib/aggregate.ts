// Daily values -> one value per period: sums, means, circular means of directions, minima and maxima.
import { aggregationOf, findReservoirVariable, findStationVariable, units, type UnitName, type UnitSystem } from './catalogue.js';
import { clip } from './dates.js';
import { InvalidParameterError } from './errors.js';
import type { Period } from './periods.js';
import type { ResolvedVariable } from './query.js';
import type { Block } from './records.js';

/** A statistic asked for with `statistic=`, overriding every variable's default. */
export type Statistic = 'sum' | 'mean' | 'min' | 'max';
export const statistics: readonly Statistic[] = ['sum', 'mean', 'min', 'max'];

/** How one variable of a request aggregates. */
export type Method = 'sum' | 'mean' | 'circular-mean' | 'min' | 'max';

/** Checks a `statistic` value (undefined: each variable's default from the catalogue). */
export function resolveStatistic(value: string | undefined): Statistic | undefined {
  if (value === undefined) return undefined;
  if (!(statistics as readonly string[]).includes(value)) {
    throw new InvalidParameterError('statistic', `statistic must be one of ${statistics.join(', ')}; got ${JSON.stringify(clip(value))}`, 'not-allowed');
  }
  return value as Statistic;
}

/** The method of a variable: the catalogue's default, or the override; a mean of directions stays circular. */
export function methodOf(variable: ResolvedVariable, statistic: Statistic | undefined): Method {
  const spec = variable.dataset ? findReservoirVariable(variable.name)?.spec : findStationVariable(variable.name);
  const fallback = spec ? aggregationOf(spec) : 'mean';
  if (statistic === undefined || (statistic === 'mean' && fallback === 'circular-mean')) return fallback;
  return statistic;
}

/** A period's values for one name: metric, NaN where no day had a value; `counts` the days that had one. */
export interface PeriodValues {
  period: Period;
  values: Float64Array; // by variable
  counts: Int32Array; // by variable
}

const RAD = Math.PI / 180;

/** Aggregates a block's days (ascending, inside the periods) into the periods; periods without any row are left out. */
export function aggregateBlock(block: Block, periods: readonly Period[], methods: readonly Method[]): PeriodValues[] {
  const days = block.days;
  const p = periods.length;
  const rows = new Int32Array(p);
  const at = new Int32Array(days.length); // period index of each row
  for (let i = 0, k = 0; i < days.length; i++) {
    while (days[i]! > periods[k]!.end) k++;
    at[i] = k;
    rows[k]!++;
  }
  const out: PeriodValues[] = [];
  const index = new Int32Array(p).fill(-1);
  for (let k = 0; k < p; k++) {
    if (rows[k] === 0) continue;
    index[k] = out.length;
    out.push({ period: periods[k]!, values: new Float64Array(methods.length).fill(NaN), counts: new Int32Array(methods.length) });
  }
  methods.forEach((method, j) => {
    const column = block.columns[j];
    if (!column) return;
    const count = new Int32Array(p);
    const a = new Float64Array(p).fill(method === 'min' ? Infinity : method === 'max' ? -Infinity : 0);
    const b = new Float64Array(method === 'circular-mean' ? p : 0);
    for (let i = 0; i < days.length; i++) {
      const v = column[i]!;
      if (Number.isNaN(v)) continue;
      const k = at[i]!;
      count[k]!++;
      if (method === 'min') a[k] = Math.min(a[k]!, v);
      else if (method === 'max') a[k] = Math.max(a[k]!, v);
      else if (method === 'circular-mean') {
        a[k]! += Math.sin(v * RAD);
        b[k]! += Math.cos(v * RAD);
      } else a[k]! += v;
    }
    for (let k = 0; k < p; k++) {
      const n = count[k]!;
      if (n === 0 || index[k]! < 0) continue;
      const target = out[index[k]!]!;
      target.counts[j] = n;
      target.values[j] = method === 'mean' ? a[k]! / n : method === 'circular-mean' ? circular(a[k]!, b[k]!) : a[k]!;
    }
  });
  return out;
}

// the direction of the summed unit vectors, in [0, 360)
function circular(sin: number, cos: number): number {
  const deg = Math.atan2(sin, cos) / RAD;
  return deg < 0 ? deg + 360 : deg;
}

/**
 * A metric aggregate in the requested unit system: a sum of n converted days is factor x sum + offset x n (so a sum
 * of daily degrees F is right too); means, minima and maxima convert like a day's value.
 */
export function convertAggregate(value: number, unit: UnitName, system: UnitSystem, method: Method, n: number): number {
  if (system === 'metric' || Number.isNaN(value)) return value;
  const { factor, offset } = units[unit];
  return value * factor + offset * (method === 'sum' ? n : 1);
}
