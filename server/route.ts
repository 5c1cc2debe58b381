// One documented path and how it reads its request: the query parameters (each list within the request's limits);
// the parameters a path takes and the library option each carries, as the operations table (lib/operations.ts) says,
// never written per route; and the server's own output_format (as_of, the store as it was then, is opened before the
// route runs: cached-answers.ts). An operation
// answering records is streamed by its reader's stream as lib/open/dispatch.ts maps it.
import { defaults } from '../lib/catalogue.js';
import { InvalidParameterError } from '../lib/errors.js';
import type { RecordStream } from '../lib/format/stream.js';
import { streamOf } from '../lib/open/dispatch.js';
import type { StoreReader } from '../lib/open/store.js';
import {
  type FormatOf,
  fromWire,
  type OperationName,
  type OptionsOf,
  operations,
  type Parameter,
  type PathOptionsOf,
  parametersOf,
  type RecordsOperation,
  parameters as tableParameters,
} from '../lib/operations.js';
import { modifiedSinceStream } from '../lib/query/modified-since.js';
import { didYouMean } from '../lib/suggest.js';
import { timeseriesAnswer } from './answers.js';
import type { IncomingRequest } from './incoming.js';
import { settingDefault } from './process/config.js';

/** Limits on what one request may ask for. */
export interface RequestLimits {
  maxNames: number; // names per RES_NAMES / STA_NAMES list
  maxVariables: number; // entries per variables / datasets / also_return list
  maxUploadBytes: number; // the request body (the four shapefile parts together)
}

/** The limits when none are configured: the defaults of the server's settings (config.ts), not written again here. */
export const defaultRequestLimits: RequestLimits = {
  maxNames: settingDefault('max-names'),
  maxVariables: settingDefault('max-variables'),
  maxUploadBytes: settingDefault('max-upload-bytes'),
};

// which limit a list counts against, from the operations table; a list the table does not know counts as values
const namesLists = new Set(
  Object.values(tableParameters as Record<string, Parameter>)
    .filter((p) => p.limit === 'names')
    .map((p) => p.name),
);
const limitOf = (name: string): keyof RequestLimits => (namesLists.has(name) ? 'maxNames' : 'maxVariables');

/** The query parameters of one request; a repeated parameter takes its last value, as FastAPI does for a `str`. */
export class QueryParams {
  constructor(
    private readonly params: URLSearchParams,
    private readonly limits: RequestLimits,
  ) {}

  /** The names of the parameters sent, each once. */
  names(): string[] {
    return [...new Set(this.params.keys())];
  }

  /** One value, or undefined when absent (the library then applies the public service's default). */
  one(name: string): string | undefined {
    const values = this.params.getAll(name);
    return values.length === 0 ? undefined : values[values.length - 1];
  }

  /** A comma-separated list, split and trimmed: `"LAKE ALICE, LAKE ESTES"` -> ['LAKE ALICE', 'LAKE ESTES']. */
  list(name: string): string[] | undefined {
    const value = this.one(name);
    if (value === undefined) return undefined;
    const items = value.split(',').map((item) => item.trim());
    const limit = this.limits[limitOf(name)];
    if (items.length > limit) {
      throw new InvalidParameterError(name, `${name} has ${items.length} values; at most ${limit} are allowed per request`, 'too-many', value);
    }
    return items;
  }
}

/**
 * The header's value for the parameters sent that are not `known`: each name, with the known one it most likely
 * meant (`RES_NAME (did you mean "RES_NAMES"?)`), comma-separated; undefined when every parameter is known. A name
 * is percent-encoded where it holds what a header may not (it is the client's text); at most ten are named.
 */
export function ignoredParameters(sent: QueryParams, known: readonly string[]): string | undefined {
  const ignored = sent.names().filter((name) => !known.includes(name));
  if (ignored.length === 0) return undefined;
  const shown = ignored.slice(0, 10).map((name) => {
    const text = /^[\x21-\x7e]+$/.test(name) && !/[",]/.test(name) ? name.slice(0, 60) : encodeURIComponent(name.slice(0, 60));
    return `${text}${didYouMean(name, known)}`;
  });
  return ignored.length > 10 ? `${shown.join(', ')}, and ${ignored.length - 10} more` : shown.join(', ');
}

/** What a route handler gets. */
interface RouteContext {
  store: StoreReader; // the store, or under as_of the view of its past (opened once, by cached-answers.ts)
  query: QueryParams;
  request: IncomingRequest;
  limits: RequestLimits;
  admit(stream: RecordStream): RecordStream; // a heavy answer waits for its turn (admission.ts); a light one is as it was
}

/** One documented path. */
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  tag: 'Info' | 'Metadata' | 'Timeseries' | 'Forecast' | 'Model';
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
  const parameters = described.parameters ?? all.filter((p) => p.in !== 'path');
  const run = (context: RouteContext) => {
    const { query } = context;
    const format = readFormat(query, formats) as FormatOf<O>; // one of the operation's formats, checked by readFormat
    const options = fromWire(operation, (p) => (p.kind === 'list' ? query.list(p.name) : query.one(p.name)));
    return answer({ options, format }, context);
  };
  return {
    method: operations[operation].method,
    path: described.path ?? operations[operation].path,
    tag: described.tag,
    summary: described.summary,
    operation,
    parameters,
    ...(described.upload ? { upload: true } : {}),
    run,
  };
}

/** The `output_format` parameter among the formats a path offers (default json). */
function readFormat<T extends string>(q: QueryParams, allowed: readonly T[]): T {
  const value = q.one('output_format') ?? defaults.output_format;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InvalidParameterError(
      'output_format',
      `output_format must be one of ${allowed.join(', ')}; got ${JSON.stringify(value.slice(0, 40))}`,
      'not-allowed',
      value,
    );
  }
  return value as T;
}

/** A route answering records (JSON, CSV, Parquet, Arrow) streamed from the store, a heavy answer admitted in turn. */
export function recordsRoute<O extends RecordsOperation>(operation: O, described: Described, extra: PathOptionsOf<O> = {}): Route {
  return tableRoute(operation, described, async ({ options, format }, { store, admit, query }) => {
    const takes = (described.parameters ?? parametersOf(operation)).some((p) => p.name === 'modified_since'); // the daily paths
    const since = takes ? query.one('modified_since') : undefined;
    if (since === undefined) return timeseriesAnswer(format, admit(streamOf(store, operation, { ...options, ...extra })));
    // only the rows that changed since: this answer and the one of then, read side by side (lib/query/modified-since.ts)
    return timeseriesAnswer(format, admit(await modifiedSinceStream(store, since, (reader) => streamOf(reader, operation, { ...options, ...extra }))));
  });
}
