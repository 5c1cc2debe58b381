// as_of on every path whose wire table lists it (the timeseries paths): the route runs against the store as it was
// then (issue 13, docs/flags-and-history.md), a view whose snapshot stays leased (safe from vacuum) until the answer
// has been sent or given up.
import { WholeResponse } from './body.js';
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
            let response: Response;
            try {
              response = await r.run({ ...context, store: view });
            } catch (error) {
              await view.close();
              throw error;
            }
            return whenSent(response, () => view.close());
          },
        },
  );
}

/** The response, calling `done` once its body has been read to the end, failed or been cancelled (at once for a body made whole). */
export function whenSent(response: Response, done: () => Promise<void>): Response {
  if (response instanceof WholeResponse || !response.body) {
    void done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        controller.error(error);
        return done();
      }
      if (!next.done) return controller.enqueue(next.value);
      controller.close();
      return done();
    },
    async cancel(reason) {
      try {
        await reader.cancel(reason);
      } finally {
        await done();
      }
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
