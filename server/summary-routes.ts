// The aggregate and normals paths: /timeseries/{monthly,annual,water-year}/{reservoirs,stations}/daterange and
// /timeseries/normals/{reservoirs,stations}; their parameters are the wire table's (lib/sync/wire.ts).
import { type Interval, intervals } from '../lib/query/periods.js';
import type { ReservoirAggregateQuery, ReservoirNormalsQuery, StationAggregateQuery, StationNormalsQuery } from '../lib/query/summaries.js';
import { monthlyOnly, parametersOf, type WireOperation, wireParameters } from '../lib/sync/wire.js';
import { type TimeseriesFormat, timeseriesAnswer } from './answer-formats.js';
import { type Route, tableRoute } from './route.js';

const words: Record<Interval, string> = { monthly: 'Monthly', annual: 'Annual', 'water-year': 'Water-year (October-September)' };

// compare_to and the base period are listed on monthly paths only; the others still read compare_to, so that the
// library can say it is monthly-only rather than the parameter being ignored
const documented = (operation: WireOperation, interval: Interval) => {
  const dropped = interval === 'monthly' ? [] : monthlyOnly.map((id) => wireParameters[id]);
  return parametersOf(operation).filter((p) => !dropped.includes(p));
};

/** The eight routes. */
export function summaryRoutes(): Route[] {
  const aggregates = intervals.flatMap((interval): Route[] => [
    tableRoute<ReservoirAggregateQuery, TimeseriesFormat>(
      {
        method: 'GET',
        path: `/timeseries/${interval}/reservoirs/daterange`,
        tag: 'Timeseries',
        summary: `${words[interval]} reservoir aggregates over a date range`,
        parameters: documented('reservoirAggregates', interval),
      },
      'reservoirAggregates',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamReservoirAggregates({ ...options, interval }))),
    ),
    tableRoute<StationAggregateQuery, TimeseriesFormat>(
      {
        method: 'GET',
        path: `/timeseries/${interval}/stations/daterange`,
        tag: 'Timeseries',
        summary: `${words[interval]} station aggregates over a date range`,
        parameters: documented('stationAggregates', interval),
      },
      'stationAggregates',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamStationAggregates({ ...options, interval }))),
    ),
  ]);
  const normals: Route[] = [
    tableRoute<ReservoirNormalsQuery, TimeseriesFormat>(
      {
        method: 'GET',
        path: '/timeseries/normals/reservoirs',
        tag: 'Timeseries',
        summary: 'Reservoir normals: n, mean, min, max and percentiles by calendar month or day of the year',
      },
      'reservoirNormals',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamReservoirNormals(options))),
    ),
    tableRoute<StationNormalsQuery, TimeseriesFormat>(
      {
        method: 'GET',
        path: '/timeseries/normals/stations',
        tag: 'Timeseries',
        summary: 'Station normals: n, mean, min, max and percentiles by calendar month or day of the year',
      },
      'stationNormals',
      ({ options, format }, { store, admit }) => timeseriesAnswer(format, admit(store.streamStationNormals(options))),
    ),
  ];
  return [...aggregates, ...normals];
}
