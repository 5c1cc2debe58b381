// The store's query methods over HTTP: a client for any server speaking the documented OperEvap API
// (the public service or this project's server), with the same arguments and answers as EvapStore.

import { DATA_HEADER, defaults, IGNORED_HEADER, validationTypes } from '../catalogue.js';
import { InvalidParameterError, type InvalidReason, NotFoundError } from '../errors.js';
import type {
  ForecastDailyQuery,
  ForecastIssueRange,
  ForecastLeadQuery,
  ForecastTotalQuery,
  ForecastVariableInfo,
  ForecastVerificationQuery,
} from '../forecast/store-methods.js';
import { checkOptions, type OperationName, operations, parametersOf, pathOf, type RecordsMethods, toWire } from '../operations.js';
import type { ReservoirAggregateQuery, ReservoirNormalsQuery, StationAggregateQuery, StationNormalsQuery } from '../query/summaries.js';
import type { ReservoirModelQuery } from '../query/what-if.js';
import type { StoreAbout } from '../store/about.js';
import type { StoreChanges } from '../tables/changes.js';
import type {
  DateRange,
  ReservoirDateQuery,
  ReservoirRangeQuery,
  ShapefileParts,
  StationDateQuery,
  StationRangeQuery,
  VariableInfo,
  WireRecord,
} from '../types.js';

export interface ClientOptions {
  baseUrl: string; // e.g. https://operevap.dri.edu or http://127.0.0.1:8080
  apiKey: string; // sent in the api-key header
  fetch?: typeof fetch; // default: the global fetch
  retries?: number; // retries of a request answered 429 or 5xx, or failing on the network (default 3)
  backoffMs?: number; // first wait before a retry, doubled each time unless Retry-After says otherwise (default 500)
  signal?: AbortSignal; // aborts every request and wait of this client
  timeoutMs?: number; // a request with no complete answer this long fails as a network failure would (retried); default none
  maxAnswerBytes?: number; // an answer larger than this once inflated is refused, not retried (default MAX_ANSWER_BYTES)
  warn?: (message: string) => void; // told when a server ignored parameters it was sent (another or an older server); default none
  onData?: (kind: string) => void; // told once, at the first answer whose X-Evap-Data header says what its data are ("synthetic")
}

/** The largest answer read by default: 256 MiB, far above the largest real one (every reservoir's metadata, a few MB). */
const MAX_ANSWER_BYTES = 256 * 2 ** 20;
const MAX_REDIRECTS = 10;
const MAX_DETAIL_BYTES = 64 * 1024; // an error's body: enough for any FastAPI detail

/** A status other than 200, 404 and 422 from the server, with its `detail`. */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly url: string,
  ) {
    super(`${url.split('?')[0]} answered ${status}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
    this.name = 'RemoteError';
  }
}

type Params = Record<string, string | readonly string[] | undefined>;

/**
 * A client whose methods mirror EvapStore's query methods (async), so a script switches by one line. The base URL may
 * end in a path: `createClient('http://host/twdb', { apiKey })` asks the database a server serves under /twdb.
 */
export function createClient(options: ClientOptions): EvapClient;
export function createClient(baseUrl: string, options?: Partial<Omit<ClientOptions, 'baseUrl'>>): EvapClient;
export function createClient(first: ClientOptions | string, rest: Partial<Omit<ClientOptions, 'baseUrl'>> = {}): EvapClient {
  return new EvapClient(typeof first === 'string' ? { apiKey: '', ...rest, baseUrl: first } : first);
}

// an array method for every records operation of the table: tsc refuses one left out
export class EvapClient implements RecordsMethods {
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private dataTold = false;

  constructor(private readonly options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  // the server's word on its data, passed on once (a CLI run says it on stderr)
  private tellData(kind: string | null): void {
    if (kind === null || this.dataTold) return;
    this.dataTold = true;
    this.options.onData?.(kind);
  }

  /** Reservoir records over a date range. */
  reservoirTimeseries(query: ReservoirRangeQuery = {}): Promise<WireRecord[]> {
    return this.ask('reservoirTimeseries', query);
  }

  /** Every reservoir's records on one date. */
  reservoirTimeseriesOnDate(query: ReservoirDateQuery = {}): Promise<WireRecord[]> {
    return this.ask('reservoirTimeseriesOnDate', query);
  }

  /** Station records over a date range. */
  stationTimeseries(query: StationRangeQuery = {}): Promise<WireRecord[]> {
    return this.ask('stationTimeseries', query);
  }

  /** Every station's records on one date. */
  stationTimeseriesOnDate(query: StationDateQuery = {}): Promise<WireRecord[]> {
    return this.ask('stationTimeseriesOnDate', query);
  }

  /** Reservoir records per month, year or water year (the store's reservoirAggregates over HTTP). */
  reservoirAggregates(query: ReservoirAggregateQuery = {}): Promise<WireRecord[]> {
    return this.ask('reservoirAggregates', query);
  }

  /** Station records per month, year or water year. */
  stationAggregates(query: StationAggregateQuery = {}): Promise<WireRecord[]> {
    return this.ask('stationAggregates', query);
  }

  /** Reservoir normals by calendar month or day of the year (the store's reservoirNormals over HTTP). */
  reservoirNormals(query: ReservoirNormalsQuery = {}): Promise<WireRecord[]> {
    return this.ask('reservoirNormals', query);
  }

  /** Station normals by calendar month or day of the year. */
  stationNormals(query: StationNormalsQuery = {}): Promise<WireRecord[]> {
    return this.ask('stationNormals', query);
  }

  /** The ensemble forecast of one issue, a record per reservoir and lead day (docs/forecasts.md). */
  forecastDaily(query: ForecastDailyQuery = {}): Promise<WireRecord[]> {
    return this.ask('forecastDaily', query);
  }

  /** Per valid date, the forecast issued `lead` days before, with the day's estimate. */
  forecastLead(query: ForecastLeadQuery = {}): Promise<WireRecord[]> {
    return this.ask('forecastLead', query);
  }

  /** The statistics of the total over the leads of one issue, per reservoir. */
  forecastTotal(query: ForecastTotalQuery = {}): Promise<WireRecord[]> {
    return this.ask('forecastTotal', query);
  }

  /** Verification metrics per reservoir, variable and lead. */
  forecastVerification(query: ForecastVerificationQuery = {}): Promise<WireRecord[]> {
    return this.ask('forecastVerification', query);
  }

  /** What if: lem and nete-volume-calcs computed by the server's DLEM under a scenario (docs/model.md). */
  reservoirModel(query: ReservoirModelQuery = {}): Promise<WireRecord[]> {
    return this.ask('reservoirModel', query);
  }

  /** Per reservoir (RES_NAMES' default, or ALL for every one), the first and last issue date of its forecasts. */
  listForecastIssues(names?: readonly string[]): Promise<ForecastIssueRange[]> {
    return this.ask('listForecastIssues', { names });
  }

  /** The forecast variables with their units. */
  listForecastVariables(names?: readonly string[]): Promise<ForecastVariableInfo[]> {
    return this.ask('listForecastVariables', { names });
  }

  /** The server's provenance and citation (GET /info/about, an evap server's; the public service has no such path). */
  about(): Promise<StoreAbout> {
    return this.ask('about', {});
  }

  /** What changed since a snapshot (an id or a time): each table's names and days, and the snapshot to ask from next (an evap server's GET /changes). */
  changes(query: { since: string; asOf?: string }): Promise<StoreChanges> {
    return this.ask('changes', query);
  }

  /** The datasets the server holds. */
  listDatasets(): Promise<string[]> {
    return this.ask('listDatasets', {});
  }

  /** The variables of a dataset (default nete-volume-calcs). */
  listVariables(dataset?: string): Promise<VariableInfo[]> {
    return this.ask('listVariables', { dataset });
  }

  /** The date range of a dataset variable. */
  listDates(dataset?: string, variable?: string): Promise<DateRange[]> {
    return this.ask('listDates', { dataset, variable });
  }

  /** Reservoir names; only those inside the shapefile's polygons when one is given. */
  async listReservoirNames(shapefile?: ShapefileParts): Promise<string[]> {
    return (await this.ask<{ RES_NAMES: string[] }>('listReservoirNames', {}, shapefileForm(shapefile))).RES_NAMES;
  }

  /** Station names; only those inside the shapefile's polygons when one is given. */
  async listStationNames(shapefile?: ShapefileParts): Promise<string[]> {
    return (await this.ask<{ STA_NAMES: string[] }>('listStationNames', {}, shapefileForm(shapefile))).STA_NAMES;
  }

  /** The variables held by the given stations, or by every station. */
  listStationVariables(names?: readonly string[]): Promise<VariableInfo[]> {
    return this.ask('listStationVariables', { names });
  }

  /** The first and last date with data over the given stations, or over every station. */
  listStationDates(names?: readonly string[]): Promise<DateRange[]> {
    return this.ask('listStationDates', { names });
  }

  /** Metadata of reservoirs. */
  reservoirMetadata(names?: readonly string[]): Promise<WireRecord[]> {
    return this.ask('reservoirMetadata', { names });
  }

  /** Metadata of stations. */
  stationMetadata(names?: readonly string[]): Promise<WireRecord[]> {
    return this.ask('stationMetadata', { names });
  }

  // `operation` asked at its method and path with the query's options under their wire names (lib/operations.ts); a 404 names its names list
  private async ask<T>(operation: OperationName, options: object, body?: FormData): Promise<T> {
    const query = checkOptions(operation, options); // refused, or a list of one and Dates written, as the store does
    const names = parametersOf(operation).find((p) => p.limit === 'names');
    const { method } = operations[operation];
    return this.request<T>(method, pathOf(operation, query), toWire(operation, query), body, names?.name, (query as { names?: readonly string[] }).names);
  }

  private async request<T>(
    method: string,
    path: string,
    params: Params,
    body?: FormData,
    nameParameter = 'RES_NAMES',
    names: readonly string[] = [],
  ): Promise<T> {
    const url = new URL(this.base + path);
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined) url.searchParams.set(k, typeof v === 'string' ? v : v.join(','));
    }
    url.searchParams.set('output_format', defaults.output_format);
    const retries = this.options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const deadline = this.attemptSignal();
      let status: number;
      let detail: unknown;
      let retryAfter: string | null;
      try {
        const response = await this.follow(url, method, body, deadline.signal);
        this.tellData(response.headers.get(DATA_HEADER));
        if (response.ok) {
          const ignored = response.headers.get(IGNORED_HEADER);
          if (ignored !== null) this.options.warn?.(`${url.pathname} ignored the parameters ${ignored}`);
          return JSON.parse(await readBounded(response, this.options.maxAnswerBytes ?? MAX_ANSWER_BYTES, `${url.origin}${url.pathname}`)) as T;
        }
        [status, detail, retryAfter] = [response.status, await readDetail(response), response.headers.get('retry-after')];
      } catch (error) {
        if (error instanceof AnswerTooLargeError || this.options.signal?.aborted || attempt >= retries) throw networkError(error, this.options.timeoutMs, url);
        await this.wait(attempt, null);
        continue;
      } finally {
        deadline.clear();
      }
      if ((status === 429 || status >= 500) && attempt < retries) {
        await this.wait(attempt, retryAfter);
        continue;
      }
      throw toError(status, detail, url.toString(), nameParameter, names);
    }
  }

  // Redirects are followed here, not by fetch, which sends every header but Authorization to any origin a 3xx names:
  // the api-key goes only to the origin it was given for (as browsers and curl do with Authorization).
  private async follow(start: URL, method: string, body: FormData | undefined, signal: AbortSignal | undefined): Promise<Response> {
    let url = start;
    for (let hops = 0; ; hops++) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (url.origin === start.origin) headers['api-key'] = this.options.apiKey;
      const response = await this.fetch(url, { method, body, headers, signal, redirect: 'manual' });
      const location = response.headers.get('location');
      if (!redirects.has(response.status) || location === null) return response;
      await response.body?.cancel();
      if (hops >= MAX_REDIRECTS) throw new Error(`${start.origin}${start.pathname}: more than ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      if (response.status === 303 || (response.status <= 302 && method === 'POST')) [method, body] = ['GET', undefined]; // as fetch does
    }
  }

  // The caller's signal and, with timeoutMs, a timer of this attempt's own over its whole answer (headers and body).
  // Not AbortSignal.timeout inside AbortSignal.any: on Node 20 that inner signal, and its timer, can be collected.
  private attemptSignal(): { signal: AbortSignal | undefined; clear: () => void } {
    const { signal, timeoutMs } = this.options;
    if (timeoutMs === undefined) return { signal, clear: () => {} };
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal!.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    return {
      signal: controller.signal,
      clear: () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      },
    };
  }

  /** Waits before a retry: Retry-After when the server gives it (seconds or a date), else exponential backoff. */
  private wait(attempt: number, retryAfter: string | null): Promise<void> {
    const base = this.options.backoffMs ?? 500;
    let ms = base * 2 ** attempt;
    if (retryAfter !== null) {
      const seconds = Number(retryAfter);
      ms = Number.isFinite(seconds) ? seconds * 1000 : Math.max(0, Date.parse(retryAfter) - Date.now()) || ms;
    }
    return sleep(Math.min(ms, 60_000), this.options.signal);
  }
}

// a network failure names the URL and the system's reason (ECONNREFUSED, a timeout), which fetch keeps in its cause
function networkError(error: unknown, timeoutMs: number | undefined, url: URL): unknown {
  const where = `${url.origin}${url.pathname}`;
  if (error instanceof DOMException && error.name === 'TimeoutError') return new Error(`no answer within ${timeoutMs} ms from ${where}`, { cause: error });
  const cause = (error as { cause?: { message?: string; code?: string } } | undefined)?.cause;
  if (error instanceof TypeError && cause?.message) return new Error(`${where}: ${error.message}: ${cause.message}`, { cause: error });
  return error;
}

function shapefileForm(parts: ShapefileParts | undefined): FormData | undefined {
  if (!parts || Object.values(parts).every((p) => p === undefined)) return undefined;
  const form = new FormData();
  for (const [part, bytes] of Object.entries(parts)) {
    if (bytes !== undefined) form.append(`shapefile_${part}`, new Blob([new Uint8Array(bytes).slice()]), `shape.${part}`);
  }
  return form;
}

const redirects = new Set([301, 302, 303, 307, 308]);

/** An answer larger than the client reads. */
class AnswerTooLargeError extends Error {}

// The body as text, refused past `max` bytes as they arrive (counted once inflated: a small gzip body may inflate without end).
async function readBounded(response: Response, max: number, where: string): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (let bytes = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(`${where}: the answer is larger than ${max} bytes (maxAnswerBytes); stopped reading it`);
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}

async function readDetail(response: Response): Promise<unknown> {
  const text = await readBounded(response, MAX_DETAIL_BYTES, 'an error answer').catch(() => '');
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    return body?.detail ?? body;
  } catch {
    return text.slice(0, 500);
  }
}

/** 404 -> NotFoundError, 422 -> InvalidParameterError (from FastAPI's detail list), anything else -> RemoteError. */
function toError(status: number, detail: unknown, url: string, nameParameter: string, names: readonly string[]): Error {
  if (status === 404) {
    // as the library says it: without the server's pointers to its paths (a list of names, the other kind's paths)
    const message = (typeof detail === 'string' ? detail : JSON.stringify(detail)).replace(/; see \/info\/\S+(; (stations|reservoirs) are at .*)?$/, '');
    return new NotFoundError(
      nameParameter,
      names.filter((n) => message.includes(n)),
      message,
      names.filter((n) => message.includes(`${JSON.stringify(n)} (it is a `)), // of the other kind, as resolveNames says
    );
  }
  if (status === 422) {
    const first = (Array.isArray(detail) ? detail[0] : undefined) as { loc?: unknown[]; msg?: string; type?: string; input?: unknown } | undefined;
    const parameter = String(first?.loc?.[first.loc.length - 1] ?? 'query');
    const reason = (Object.keys(validationTypes) as InvalidReason[]).find((r) => validationTypes[r] === first?.type) ?? 'malformed';
    return new InvalidParameterError(
      parameter,
      first?.msg ?? (typeof detail === 'string' ? detail : JSON.stringify(detail)),
      reason,
      first?.input ?? undefined,
    );
  }
  return new RemoteError(status, detail, url);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
