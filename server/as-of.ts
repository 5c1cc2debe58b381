// as_of on every path whose operation lists it (lib/operations.ts) (the timeseries paths): the route runs against the store as it was
// then (issue 13, docs/flags-and-history.md), a view whose snapshot stays leased (safe from vacuum) until the answer streamed
// from it has been read to the end or given up (the library's streams hold it: lib/store/lease.ts HeldLease).
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
            if (time === undefined) return r.run(context);
            const view = await context.store.asOf(time);
            context.servedFrom?.(view.manifest.snapshot); // the answer's tag names the snapshot it is read from
            try {
              return await r.run({ ...context, store: view });
            } finally {
              await view.close(); // its use ends once the answer's stream has been read to the end or given up
            }
          },
        },
  );
}
