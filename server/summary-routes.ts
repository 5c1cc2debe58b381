// The aggregate and normals paths: /timeseries/{monthly,annual,water-year}/{reservoirs,stations}/daterange and
// /timeseries/normals/{reservoirs,stations}; the same parameters as the daily paths plus statistic, compare_to and base.
import { statistics, type Statistic } from '../lib/query/aggregate.js';
import { normalPeriods, type NormalPeriod } from '../lib/query/normals.js';
import type { Interval } from '../lib/query/periods.js';
import { readFormat, timeseriesAnswer, timeseriesFormats } from './answer-formats.js';
import type { QueryParams } from './params.js';
import type { ParameterSpec, Route } from './routes.js';

/** The parameter specs of the daily paths that these paths share (passed in, so there is one definition of each). */
export interface SharedSpecs {
  resNames: ParameterSpec;
  staNames: ParameterSpec;
  datasets: ParameterSpec;
  resVariables: ParameterSpec;
  staVariables: ParameterSpec;
  units: ParameterSpec;
  startDate: ParameterSpec;
  endDate: ParameterSpec;
  resAlso: ParameterSpec;
  staAlso: ParameterSpec;
  outputFormat: ParameterSpec; // of the timeseries paths
}

const statistic: ParameterSpec = { name: 'statistic', description: 'Overrides how every variable aggregates (default: sum for depths and volumes, circular mean for directions, mean otherwise)', enum: statistics };
const compareTo: ParameterSpec = { name: 'compare_to', description: 'normal: adds "<key> pct_of_normal", 100 x the month\'s value / its normal mean over the base period', enum: ['normal'] };
const baseStart: ParameterSpec = { name: 'base_start', description: 'First day of the base period of normals (yyyy-mm-dd); default: the first day held' };
const baseEnd: ParameterSpec = { name: 'base_end', description: 'Last day of the base period of normals (yyyy-mm-dd or latest); default: the last day held', default: 'latest' };
const period: ParameterSpec = { name: 'period', description: 'month: statistics of monthly values by calendar month; day: of daily values by day of the year (MM-DD)', default: 'month', enum: normalPeriods };

const words: Record<Interval, string> = { monthly: 'Monthly', annual: 'Annual', 'water-year': 'Water-year (October-September)' };

const common = (q: QueryParams) => ({
  variables: q.list('variables'),
  units: q.one('units'), // validated by the library
  alsoReturn: q.list('also_return'),
  statistic: q.one('statistic') as Statistic | undefined,
});

/** The eight routes, using the daily paths' parameter specs. */
export function summaryRoutes(s: SharedSpecs): Route[] {
  const aggregates = (['monthly', 'annual', 'water-year'] as const).flatMap((interval): Route[] => {
    const extra = interval === 'monthly' ? [statistic, compareTo, baseStart, baseEnd] : [statistic];
    return [
      {
        method: 'GET', path: `/timeseries/${interval}/reservoirs/daterange`, tag: 'Timeseries', summary: `${words[interval]} reservoir aggregates over a date range`,
        parameters: [s.resNames, s.datasets, s.resVariables, s.units, s.startDate, s.endDate, ...extra, s.resAlso, s.outputFormat],
        run: ({ store, query: q }) => {
          const format = readFormat(q, timeseriesFormats);
          const stream = store.streamReservoirAggregates({ ...common(q), interval, names: q.list('RES_NAMES'), datasets: q.list('datasets'), start: q.one('start_date'), end: q.one('end_date'), compareTo: q.one('compare_to') as 'normal' | undefined, baseStart: q.one('base_start'), baseEnd: q.one('base_end') });
          return timeseriesAnswer(format, stream);
        },
      },
      {
        method: 'GET', path: `/timeseries/${interval}/stations/daterange`, tag: 'Timeseries', summary: `${words[interval]} station aggregates over a date range`,
        parameters: [s.staNames, s.staVariables, s.units, s.startDate, s.endDate, ...extra, s.staAlso, s.outputFormat],
        run: ({ store, query: q }) => {
          const format = readFormat(q, timeseriesFormats);
          const stream = store.streamStationAggregates({ ...common(q), interval, names: q.list('STA_NAMES'), start: q.one('start_date'), end: q.one('end_date'), compareTo: q.one('compare_to') as 'normal' | undefined, baseStart: q.one('base_start'), baseEnd: q.one('base_end') });
          return timeseriesAnswer(format, stream);
        },
      },
    ];
  });
  const normals: Route[] = [
    {
      method: 'GET', path: '/timeseries/normals/reservoirs', tag: 'Timeseries', summary: 'Reservoir normals: n, mean, min, max and percentiles by calendar month or day of the year',
      parameters: [s.resNames, s.datasets, s.resVariables, s.units, baseStart, baseEnd, period, statistic, s.resAlso, s.outputFormat],
      run: ({ store, query: q }) => {
        const format = readFormat(q, timeseriesFormats);
        const stream = store.streamReservoirNormals({ ...common(q), names: q.list('RES_NAMES'), datasets: q.list('datasets'), baseStart: q.one('base_start'), baseEnd: q.one('base_end'), period: q.one('period') as NormalPeriod | undefined });
        return timeseriesAnswer(format, stream);
      },
    },
    {
      method: 'GET', path: '/timeseries/normals/stations', tag: 'Timeseries', summary: 'Station normals: n, mean, min, max and percentiles by calendar month or day of the year',
      parameters: [s.staNames, s.staVariables, s.units, baseStart, baseEnd, period, statistic, s.staAlso, s.outputFormat],
      run: ({ store, query: q }) => {
        const format = readFormat(q, timeseriesFormats);
        const stream = store.streamStationNormals({ ...common(q), names: q.list('STA_NAMES'), baseStart: q.one('base_start'), baseEnd: q.one('base_end'), period: q.one('period') as NormalPeriod | undefined });
        return timeseriesAnswer(format, stream);
      },
    },
  ];
  return [...aggregates, ...normals];
}
