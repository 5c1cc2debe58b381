// One documented path and how it reads its request: the parameters a path takes, and the library option each carries,
// are the operations table's (lib/operations.ts), never written per route; an operation answering records is streamed
// by the store's `stream<Operation>` method, found by its name.
import type { RecordStream } from '../lib/format/stream.js';
import {
  type FormatOf,
  fromWire,
  type OperationName,
  type OptionsOf,
  operations,
  type Parameter,
  parametersOf,
  type RecordsOperation,
} from '../lib/operations.js';
import type { StoreReader } from '../lib/store/store.js';
import { readFormat, timeseriesAnswer } from './answer-formats.js';
import type { IncomingRequest } from './incoming.js';
import type { QueryParams, RequestLimits } from './params.js';

/** What a route handler gets. */
interface RouteContext {
  store: StoreReader; // the store, or under as_of a view of its past
  query: QueryParams;
  request: IncomingRequest;
  limits: RequestLimits;
  admit(stream: RecordStream): RecordStream; // a heavy answer waits for its turn (admission.ts); a light one is as it was
  servedFrom?: (snapshot: string) => void; // told the snapshot an as_of answer is read from (cached-answers.ts tags it)
}

/** One documented path. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  tag: 'Info' | 'Metadata' | 'Timeseries' | 'Forecast';
  summary: string;
  operation: OperationName; // the operation of the table it answers
  parameters: readonly Parameter[]; // those /openapi.json lists: the operation's query parameters (an annual aggregate leaves out the monthly-only ones)
  upload?: boolean; // accepts the four optional shapefile parts as multipart/form-data
  body?: 'parameters'; // a POST twin: the parameters also in a JSON or urlencoded body
  run(context: RouteContext): Promise<Response> | Response;
}

/** What a route answers with: the library options read from the request by the table, and the checked output_format. */
interface Asked<O extends OperationName> {
  options: OptionsOf<O>;
  format: FormatOf<O>;
}

/** How a route of `operation` is documented; `path` when its path parameters are filled in (an aggregate's interval). */
interface Described {
  tag: Route['tag'];
  summary: string;
  path?: string;
  parameters?: readonly Parameter[];
  upload?: boolean;
}

/** A route answering `operation`: its options and output_format are read as the table says, then `answer` runs. */
export function tableRoute<O extends OperationName>(
  operation: O,
  described: Described,
  answer: (asked: Asked<O>, context: RouteContext) => Promise<Response> | Response,
): Route {
  const all = parametersOf(operation);
  const formats = all.find((p) => p.name === 'output_format')?.values ?? [];
  return {
    method: operations[operation].method,
    path: described.path ?? operations[operation].path,
    tag: described.tag,
    summary: described.summary,
    operation,
    parameters: described.parameters ?? all.filter((p) => p.in !== 'path'),
    ...(described.upload ? { upload: true } : {}),
    run: ({ query, ...context }) => {
      const format = readFormat(query, formats) as FormatOf<O>; // one of the operation's formats, checked by readFormat
      const options = fromWire(operation, (p) => (p.kind === 'list' ? query.list(p.name) : query.one(p.name)));
      return answer({ options, format }, { query, ...context });
    },
  };
}

type StreamMethod<O extends RecordsOperation> = `stream${Capitalize<O>}`;
// every records operation has its store method, and the options the table gives it are options that method takes
type Fits = { [O in RecordsOperation]: OptionsOf<O> extends NonNullable<Parameters<StoreReader[StreamMethod<O>]>[0]> ? true : false }[RecordsOperation];
const everyOperationFits: Fits extends true ? true : never = true;

/** The store's stream of a records operation (`extra`: the path's options, an aggregate's interval). */
function streamOf<O extends RecordsOperation>(store: StoreReader, operation: O, options: OptionsOf<O>, extra: object = {}): RecordStream {
  const method = `stream${operation[0]!.toUpperCase()}${operation.slice(1)}` as StreamMethod<O>;
  // the method is the one Fits checked against this operation's options
  return (store[method] as unknown as (options: object) => RecordStream).call(store, { ...options, ...extra });
}

/** A route answering records (JSON, CSV, Parquet, Arrow) streamed from the store, a heavy answer admitted in turn. */
export function recordsRoute(operation: RecordsOperation, described: Described, extra: object = {}): Route {
  void everyOperationFits;
  return tableRoute(operation, described, ({ options, format }, { store, admit }) =>
    timeseriesAnswer(format, admit(streamOf(store, operation, options, extra))),
  );
}
