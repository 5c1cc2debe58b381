// The aggregate and normals paths: /timeseries/{monthly,annual,water-year}/{reservoirs,stations}/daterange and
// /timeseries/normals/{reservoirs,stations}; their parameters are the operations table's (lib/operations.ts).
import { monthlyOnly, type OperationName, parametersOf, pathOf } from '../lib/operations.js';
import { type Interval, intervals } from '../lib/query/periods.js';
import { type Route, recordsRoute } from './route.js';

const words: Record<Interval, string> = { monthly: 'Monthly', annual: 'Annual', 'water-year': 'Water-year (October-September)' };

// compare_to and the base period are listed on monthly paths only; the others still read compare_to, so that the
// library can say it is monthly-only rather than the parameter being ignored
const documented = (operation: OperationName, interval: Interval) =>
  parametersOf(operation).filter((p) => p.in !== 'path' && (interval === 'monthly' || !monthlyOnly.includes(p)));

/** The eight routes. */
export function summaryRoutes(): Route[] {
  const aggregates = intervals.flatMap((interval): Route[] =>
    (['reservoirAggregates', 'stationAggregates'] as const).map((operation) =>
      recordsRoute(
        operation,
        {
          tag: 'Timeseries',
          summary: `${words[interval]} ${operation === 'reservoirAggregates' ? 'reservoir' : 'station'} aggregates over a date range`,
          path: pathOf(operation, { interval }),
          parameters: documented(operation, interval),
        },
        { interval },
      ),
    ),
  );
  const normals: Route[] = [
    recordsRoute('reservoirNormals', {
      tag: 'Timeseries',
      summary: 'Reservoir normals: n, mean, min, max and percentiles by calendar month or day of the year',
    }),
    recordsRoute('stationNormals', {
      tag: 'Timeseries',
      summary: 'Station normals: n, mean, min, max and percentiles by calendar month or day of the year',
    }),
  ];
  return [...aggregates, ...normals];
}
