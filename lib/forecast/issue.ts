// One issue of forecasts as the library holds it: per reservoir, the statistics of each variable at each lead, the
// statistics of the totals over leads 1..lead, and the members where kept. Made from an ensemble or read from files.

import { type ForecastVariable, forecastVariables, MAX_LEAD } from '../forecast-variables.js';
import { quantile } from '../query/normals.js';
import { roundValue } from '../units.js';
import { type EnsembleStatistic, ensembleStatistics, percentileOf } from './stats.js';

/** One reservoir's forecast of one issue; arrays indexed `s * MAX_LEAD + lead - 1` (s: a statistic's position) or `m * MAX_LEAD + lead - 1`. */
export interface ReservoirForecast {
  stats: Record<ForecastVariable, Float64Array>; // statistics of each lead's value
  totals: Record<ForecastVariable, Float64Array>; // statistics of the total over leads 1..lead
  count: number; // members kept (0: none)
  members: Record<ForecastVariable, Float64Array> | undefined;
}

/** One issue: every reservoir's forecast, by name (sorted). */
export interface Issue {
  issued: number; // epoch day
  byName: Map<string, ReservoirForecast>;
}

const S = ensembleStatistics.length;

/** The position of a statistic in the stored arrays. */
export const statisticIndex = Object.fromEntries(ensembleStatistics.map((s, i) => [s, i])) as Record<EnsembleStatistic, number>;

/** A reservoir's forecast from its members (`members[v][m * MAX_LEAD + lead - 1]`); statistics rounded to 4 decimals as the wire's. */
export function forecastFromMembers(members: Record<ForecastVariable, Float64Array>, count: number, keepMembers: boolean): ReservoirForecast {
  const stats = {} as Record<ForecastVariable, Float64Array>;
  const totals = {} as Record<ForecastVariable, Float64Array>;
  const daily = new Float64Array(count);
  const running = new Float64Array(count);
  const scratch = new Float64Array(count);
  for (const v of forecastVariables) {
    stats[v] = new Float64Array(S * MAX_LEAD);
    totals[v] = new Float64Array(S * MAX_LEAD);
    running.fill(0);
    for (let lead = 1; lead <= MAX_LEAD; lead++) {
      for (let m = 0; m < count; m++) {
        daily[m] = members[v][m * MAX_LEAD + lead - 1]!;
        running[m]! += daily[m]!; // each member's own total first: a quantile of a sum is not the sum of quantiles
      }
      statsInto(daily, scratch, stats[v], lead - 1);
      statsInto(running, scratch, totals[v], lead - 1);
    }
  }
  return { stats, totals, count: keepMembers ? count : 0, members: keepMembers ? members : undefined };
}

const probabilities = ensembleStatistics.map((s) => (s === 'mean' ? Number.NaN : percentileOf[s]));

// ensembleStats without its allocations (a store's generation makes millions of them): the members sorted in
// `scratch`, the rounded statistics written at `at`, `at + MAX_LEAD`, ... of `out`; NaN members are not expected here
function statsInto(values: Float64Array, scratch: Float64Array, out: Float64Array, at: number): void {
  scratch.set(values);
  scratch.sort();
  let sum = 0;
  for (let i = 0; i < scratch.length; i++) sum += scratch[i]!;
  out[at] = roundValue(sum / scratch.length);
  for (let s = 1; s < S; s++) out[s * MAX_LEAD + at] = roundValue(quantile(scratch, probabilities[s]!));
}
