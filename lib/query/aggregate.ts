// Daily values -> one value per period: sums, means, circular means of directions, minima and maxima.
import { aggregationOf, findReservoirVariable, findStationVariable } from '../catalogue.js';
import { clip } from '../dates.js';
import { InvalidParameterError } from '../errors.js';
import type { Block } from '../format/frame.js';
import type { ResolvedVariable } from '../format/variable.js';
import { type Conversion, convert } from '../units.js';
import type { Period } from './periods.js';

/** A statistic asked for with `statistic=`, overriding every variable's default. */
export type Statistic = 'sum' | 'mean' | 'min' | 'max';
export const statistics: readonly Statistic[] = ['sum', 'mean', 'min', 'max'];

/** How one variable of a request aggregates. */
export type Method = 'sum' | 'mean' | 'circular-mean' | 'min' | 'max';

/** Checks a `statistic` value (undefined: each variable's default from the catalogue). */
export function resolveStatistic(value: string | undefined): Statistic | undefined {
  if (value === undefined) return undefined;
  if (!(statistics as readonly string[]).includes(value)) {
    throw new InvalidParameterError('statistic', `statistic must be one of ${statistics.join(', ')}; got ${JSON.stringify(clip(value))}`, 'not-allowed', value);
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
  const out: PeriodValues[] = [];
  const bounds: number[] = []; // [first row, end row) of each period kept: rows are days ascending, so each period is a run
  for (let k = 0, i = 0; k < periods.length && i < days.length; k++) {
    const from = i;
    while (i < days.length && days[i]! <= periods[k]!.end) i++;
    if (i === from) continue;
    bounds.push(from, i);
    out.push({ period: periods[k]!, values: new Float64Array(methods.length).fill(NaN), counts: new Int32Array(methods.length) });
  }
  methods.forEach((method, j) => {
    const column = block.columns[j];
    if (!column) return;
    const reduce = reducers[method];
    for (let k = 0; k < out.length; k++) {
      const [from, to] = [bounds[2 * k]!, bounds[2 * k + 1]!];
      const raw = method === 'sum' || method === 'mean' ? rawSum(column, from, to) : NaN;
      if (raw === raw) {
        // no gap in the period (a gap makes the plain sum NaN): one pass was enough
        out[k]!.counts[j] = to - from;
        out[k]!.values[j] = method === 'sum' ? raw : raw / (to - from);
        continue;
      }
      const n = countHeld(column, from, to);
      if (n === 0) continue;
      out[k]!.counts[j] = n;
      out[k]!.values[j] = reduce(column, from, to, n);
    }
  });
  return out;
}

type Values = ArrayLike<number>;

function rawSum(c: Values, from: number, to: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += c[i]!;
  return s;
}

function countHeld(c: Values, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (c[i] === c[i]) n++; // NaN is a gap
  return n;
}

// one tight loop per method over a period's rows, gaps (NaN) skipped; n > 0 values are held
const reducers: Record<Method, (c: Values, from: number, to: number, n: number) => number> = {
  sum: (c, from, to) => {
    let s = 0;
    for (let i = from; i < to; i++) if (c[i] === c[i]) s += c[i]!;
    return s;
  },
  mean: (c, from, to, n) => reducers.sum(c, from, to, n) / n,
  min: (c, from, to) => {
    let m = Infinity;
    for (let i = from; i < to; i++) if (c[i]! < m) m = c[i]!;
    return m;
  },
  max: (c, from, to) => {
    let m = -Infinity;
    for (let i = from; i < to; i++) if (c[i]! > m) m = c[i]!;
    return m;
  },
  'circular-mean': (c, from, to) => {
    let sin = 0;
    let cos = 0;
    for (let i = from; i < to; i++) {
      if (c[i] !== c[i]) continue;
      sin += Math.sin(c[i]! * RAD);
      cos += Math.cos(c[i]! * RAD);
    }
    return circular(sin, cos);
  },
};

// the direction of the summed unit vectors, in [0, 360)
function circular(sin: number, cos: number): number {
  const deg = Math.atan2(sin, cos) / RAD;
  return deg < 0 ? deg + 360 : deg;
}

/**
 * A metric aggregate in the requested unit system: a sum of n converted days is factor x sum + offset x n (so a sum
 * of daily degrees F is right too); means, minima and maxima convert like a day's value.
 */
export function convertAggregate(value: number, { factor, offset }: Conversion, method: Method, n: number): number {
  return convert(value, { factor, offset: offset * (method === 'sum' ? n : 1) });
}
