// as_of on every timeseries path: the route runs against the store as it was then (issue 13, docs/flags-and-history.md).
import type { ParameterSpec, Route } from './routes.js';

const asOf: ParameterSpec = {
  name: 'as_of',
  description: 'Answer from the data as published then: an ISO date (the end of that day, UTC) or date and time (YYYY-MM-DDTHH:MM:SSZ); see /info/list_snapshots',
};

/** The routes, each /timeseries/ path taking as_of. */
export function withAsOf(routes: readonly Route[]): Route[] {
  return routes.map((r) =>
    !r.path.startsWith('/timeseries/')
      ? r
      : {
          ...r,
          parameters: [...r.parameters, asOf],
          run: async (context) => {
            const time = context.query.one('as_of');
            return r.run(time === undefined ? context : { ...context, store: await context.store.asOf(time) });
          },
        },
  );
}
