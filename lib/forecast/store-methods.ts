// What the store's forecast methods need, in one module: the queries, their option types, and the estimates read
// through the store's own timeseries method.
import { findReservoirVariable, variableKey } from '../catalogue.js';
import { formatDay } from '../dates.js';
import type { RecordStream } from '../format/stream.js';
import type { OptionsOf } from '../operations.js';
import type { Manifest } from '../store/manifest.js';
import type { Estimates } from './query.js';
import type { EstimateVariable } from './reference.js';

export {
  checkForecastNames,
  type ForecastIssueRange,
  type ForecastSource,
  forecastDaily,
  forecastLead,
  forecastTotal,
  forecastVerification,
  listForecastIssues,
  listForecastVariables,
} from './query.js';

type WithAsOf<O extends 'forecastDaily' | 'forecastLead' | 'forecastTotal' | 'forecastVerification'> = OptionsOf<O> & { asOf?: string };
export type ForecastDailyQuery = WithAsOf<'forecastDaily'>;
export type ForecastLeadQuery = WithAsOf<'forecastLead'>;
export type ForecastTotalQuery = WithAsOf<'forecastTotal'>;
export type ForecastVerificationQuery = WithAsOf<'forecastVerification'>;
export type ForecastVariableInfo = ReturnType<typeof import('./query.js').listForecastVariables>[number];

/** What readEstimates needs of a store: its snapshot's manifest and its timeseries stream. */
interface EstimatesReader {
  manifest: Manifest;
  streamReservoirTimeseries(query: OptionsOf<'reservoirTimeseries'>): RecordStream;
}

/** The estimates (metric) of the names and variables over [start, end], by name, variable and day, read as any timeseries answer. */
export async function readEstimates(
  store: EstimatesReader,
  names: readonly string[],
  variables: readonly EstimateVariable[],
  start: number,
  end: number,
): Promise<Estimates> {
  const out: Estimates = new Map();
  const entry = (v: EstimateVariable) => findReservoirVariable(v)!;
  const datasets = [...new Set(variables.map((v) => entry(v).dataset))];
  const held = datasets.filter((d) => store.manifest.datasets[d] !== undefined);
  const asked = variables.filter((v) => held.includes(entry(v).dataset));
  for (const name of names) out.set(name, new Map(variables.map((v) => [v, new Map<number, number>()])));
  if (asked.length === 0 || end < start) return out;
  const stream = store.streamReservoirTimeseries({
    names: [...names],
    datasets: held,
    variables: asked,
    start: formatDay(start),
    end: formatDay(end),
    units: 'metric',
  });
  const keys = asked.map((v) => [v, variableKey(v, entry(v).spec.unit, 'metric')] as const);
  for await (const batch of stream.batches) {
    for (const record of batch) {
      const byVariable = out.get(record.RES_NAME as string)!;
      const day = Date.parse(`${record.start_date as string}T00:00:00Z`) / 86_400_000;
      for (const [v, key] of keys) {
        const x = record[key];
        byVariable.get(v)!.set(day, typeof x === 'number' ? x : Number.NaN);
      }
    }
  }
  return out;
}
