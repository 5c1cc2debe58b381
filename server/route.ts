// One documented path and how it reads its request: the parameters a path takes, and the library option each carries,
// are the wire table's (lib/sync/wire.ts), never written per route.
import type { RecordStream } from '../lib/format/stream.js';
import type { EvapStore } from '../lib/store/store.js';
import { parametersOf, type WireOperation, type WireParameter } from '../lib/sync/wire.js';
import { readFormat } from './answer-formats.js';
import type { IncomingRequest } from './incoming.js';
import { type QueryParams, type RequestLimits, readOptions } from './params.js';

/** What a route handler gets. */
export interface RouteContext {
  store: EvapStore;
  query: QueryParams;
  request: IncomingRequest;
  limits: RequestLimits;
  admit(stream: RecordStream): RecordStream; // a heavy answer waits for its turn (admission.ts); a light one is as it was
}

/** One documented path. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  tag: 'Info' | 'Metadata' | 'Timeseries';
  summary: string;
  operation: WireOperation; // the query of the wire table it answers
  parameters: readonly WireParameter[]; // those /openapi.json lists: the operation's (an annual aggregate leaves out the monthly-only ones)
  upload?: boolean; // accepts the four optional shapefile parts as multipart/form-data
  body?: 'parameters'; // a POST twin: the parameters also in a JSON or urlencoded body
  run(context: RouteContext): Promise<Response> | Response;
}

/** What a route answers with: the library options read from the request by the wire table, and the checked output_format. */
export interface Asked<Q, F extends string> {
  options: Q;
  format: F;
}

/** A route answering `operation`: its options and output_format are read as the wire table says, then `answer` runs. */
export function tableRoute<Q, F extends string = string>(
  route: Omit<Route, 'run' | 'parameters' | 'operation'> & { parameters?: readonly WireParameter[] },
  operation: WireOperation,
  answer: (asked: Asked<Q, F>, context: RouteContext) => Promise<Response> | Response,
): Route {
  const read = parametersOf(operation);
  const formats = (read.find((p) => p.name === 'output_format')?.values ?? []) as readonly F[];
  return {
    ...route,
    operation,
    parameters: route.parameters ?? read,
    run: (context) => {
      const format = readFormat(context.query, formats);
      return answer({ options: readOptions<Q>(context.query, read), format }, context);
    },
  };
}
