// What the store's forecast methods need, in one module: the queries, their option types, and the estimates read
// as columns from the query's snapshot.
import { findReservoirVariable } from '../catalogue.js';
import type { OptionsOf } from '../operations.js';
import { withKeys } from '../query/plan.js';
import { reservoirSeriesMany } from '../query/series.js';
import type { TimeseriesSource } from '../store/open-snapshot.js';
import type { Estimates } from './query.js';
import type { EstimateVariable } from './reference.js';

export {
  type ForecastIssueRange,
  type ForecastSource,
  forecastDaily,
  forecastLead,
  forecastTotal,
  forecastVerification,
  listForecastIssues,
} from './query.js';
export { type ForecastVariableInfo, listForecastVariables } from './variable-list.js';

type WithAsOf<O extends 'forecastDaily' | 'forecastLead' | 'forecastTotal' | 'forecastVerification'> = OptionsOf<O> & { asOf?: string };
export type ForecastDailyQuery = WithAsOf<'forecastDaily'>;
export type ForecastLeadQuery = WithAsOf<'forecastLead'>;
export type ForecastTotalQuery = WithAsOf<'forecastTotal'>;
export type ForecastVerificationQuery = WithAsOf<'forecastVerification'>;

/**
 * The estimates (metric, as stored: never rounded) of the names and variables over [start, end], by name, variable
 * and day: the columns of the snapshot's partitions, each row group read once for all the names (reservoirSeriesMany).
 */
export async function readEstimates(
  snapshot: TimeseriesSource,
  names: readonly string[],
  variables: readonly EstimateVariable[],
  start: number,
  end: number,
): Promise<Estimates> {
  const out: Estimates = new Map();
  for (const name of names) out.set(name, new Map(variables.map((v) => [v, new Map<number, number>()])));
  const asked = variables.flatMap((v) => {
    const entry = findReservoirVariable(v)!;
    return snapshot.manifest.datasets[entry.dataset] === undefined ? [] : [{ name: v, dataset: entry.dataset, unit: entry.spec.unit }];
  });
  if (asked.length === 0 || end < start || names.length === 0) return out;
  const blocks = await reservoirSeriesMany(snapshot, [...names].sort(), withKeys(asked, 'metric'), start, end);
  for (const [name, { days, columns }] of blocks) {
    const byVariable = out.get(name)!;
    asked.forEach((v, k) => {
      const column = columns[k];
      if (!column) return;
      const byDay = byVariable.get(v.name as EstimateVariable)!;
      for (let i = 0; i < days.length; i++) byDay.set(days[i]!, column[i]!);
    });
  }
  return out;
}
