// as_of on every path whose wire table lists it (the timeseries paths): the route runs against the store as it was
// then (issue 13, docs/flags-and-history.md).
import type { Route } from './route.js';

/** The routes, each taking as_of running against that snapshot's store. */
export function withAsOf(routes: readonly Route[]): Route[] {
  return routes.map((r) =>
    !r.parameters.some((p) => p.name === 'as_of')
      ? r
      : {
          ...r,
          run: async (context) => {
            const time = context.query.one('as_of');
            return r.run(time === undefined ? context : { ...context, store: await context.store.asOf(time) });
          },
        },
  );
}
