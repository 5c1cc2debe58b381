// Several databases in one server: every path of the API under `/<name>/...` for each store, the first one also at the
// root (today's clients keep working), and GET /databases listing them. One key set, one rate limit and one admission
// of heavy answers for all of them: a database is a place in the URL, not a separate service.
import { ALL_NAMES } from '../lib/catalogue.js';
import type { EvapStore } from '../lib/open/store.js';
import { AnswerGate } from './admission.js';
import { answerCacheOf } from './answer-cache.js';
import { compress, WholeResponse } from './answers.js';
import { createHandler, type Handler, type HandlerOptions, normalizePath } from './app.js';
import { checkDatabaseNames } from './database-names.js';
import { errorResponse, HttpError } from './errors.js';
import { CATALOG_PATH, createCatalog } from './iceberg/catalog.js';
import { createObjectEndpoint, isObjectPath } from './iceberg/s3.js';
import { createRateLimiter } from './keys/rate.js';
import { createKeyRequests } from './keys/requests.js';
import { settingDefault } from './process/config.js';

/** The header every answer of a server with several databases carries: how many (the explorer asks /databases then). */
const DATABASES_HEADER = 'x-evap-databases';

/** The path that lists the databases a server serves. */
const DATABASES_PATH = '/databases';

/** A store the server serves under `/<name>`. */
export interface ServedDatabase {
  name: string;
  store: EvapStore;
}

/** One database as GET /databases lists it. */
export interface DatabaseEntry {
  name: string;
  url: string; // the prefix of its paths, e.g. /twdb
  root: boolean; // also served at the root (the first database)
  title: string;
  description: string | null;
  data: string; // synthetic, mirror, ingested or unknown
  synthetic: boolean;
  source: string;
  citation: string;
  licence: string;
  day_time_zone: string;
  coverage: { reservoirs: number; stations: number };
  period: { first: string | null; last: string | null }; // the first and last day of the reservoirs' estimates
  station_period: { first: string | null; last: string | null };
  forecasts: { reservoirs: number; first_issue: string | null; last_issue: string | null }; // reservoirs with forecasts, the span of their issues
}

/** What GET /databases says of a database: read from its current snapshot on every request, so a refresh shows. */
async function databaseEntry(database: ServedDatabase, root: boolean): Promise<DatabaseEntry> {
  const { store, name } = database;
  const about = store.about();
  const span = (ranges: readonly { start_date: string; end_date: string }[]) => ({
    first: ranges.reduce<string | null>((min, r) => (min === null || r.start_date < min ? r.start_date : min), null),
    last: ranges.reduce<string | null>((max, r) => (max === null || r.end_date > max ? r.end_date : max), null),
  });
  const manifest = store.manifest;
  const issued = await store.listForecastIssues([ALL_NAMES]); // the reservoirs with forecasts
  const issues = span(issued);
  return {
    name,
    url: `/${name}`,
    root,
    title: about.title,
    description: about.description ?? null,
    data: about.data,
    synthetic: store.synthetic,
    source: about.source,
    citation: about.citation,
    licence: about.licence,
    day_time_zone: about.dayTimeZone,
    coverage: { reservoirs: manifest.reservoirs.names.length, stations: manifest.stations.names.length },
    period: span(store.listDates()),
    station_period: span(manifest.stations.names.length === 0 ? [] : store.listStationDates()),
    forecasts: { reservoirs: issued.length, first_issue: issues.first, last_issue: issues.last },
  };
}

/**
 * The handler of a server with several databases: `/<name>/...` asks that database, GET /databases lists them, every
 * other path asks the first one. Keys, the rate limit, key requests and the admission of heavy answers are shared.
 */
export function createDatabasesHandler(options: Omit<HandlerOptions, 'store' | 'basePath'> & { databases: readonly ServedDatabase[] }): Handler {
  checkDatabaseNames(options.databases.map((d) => d.name));
  const perMinute = options.rateLimitPerMinute ?? 0;
  const rateLimiter = perMinute > 0 ? (options.rateLimiter ?? createRateLimiter(perMinute)) : undefined;
  const gate = options.gate ?? new AnswerGate(options.maxHeavy ?? settingDefault('max-heavy'), options.heavyRows, options.heavyWaitMs);
  const keyRequests = options.keyRequests ?? createKeyRequests(undefined);
  const logError = options.logError ?? ((message: string) => console.error(message));
  // one bound for the server's memory: the answers of every database in one cache (keyed by snapshot: a store's own),
  // where a cache per handler held the first database's answers twice (root and /<name>) and multiplied the bound
  const answerCache = answerCacheOf(options) ?? null;
  const shared = { ...options, rateLimiter, gate, keyRequests, logError, answerCache };
  const [first] = options.databases;
  const rootHandler = createHandler({ ...shared, store: first!.store });
  const byName = new Map(options.databases.map((d) => [d.name, createHandler({ ...shared, store: d.store, basePath: `/${d.name}` })]));

  // the key and the rate limit, as every database's paths check them
  const admit = async (request: { headers: { get(name: string): string | null } }) => {
    const digest = options.keys.check(request);
    const wait = (await rateLimiter?.(digest)) ?? 0;
    if (wait > 0) throw new HttpError(429, `rate limit: at most ${perMinute} requests a minute per key; retry in ${wait} s`, { 'retry-after': String(wait) });
  };
  // every database's Iceberg tables: a REST catalog, and an S3 endpoint serving a folder's files
  const catalog = createCatalog({ databases: options.databases, admit, logError });
  const objects = createObjectEndpoint({ databases: options.databases, admit, logError });

  const list = async (request: Parameters<Handler>[0]): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw new HttpError(405, `method ${request.method} is not allowed on ${DATABASES_PATH}; allowed: GET`, { allow: 'GET, HEAD' });
    await admit(request);
    const entries = await Promise.all(options.databases.map((d, i) => databaseEntry(d, i === 0)));
    return compress(request, new WholeResponse(JSON.stringify(entries), { headers: { 'content-type': 'application/json' } }));
  };

  const count = String(options.databases.length);
  const route: Handler = async (request) => {
    const path = normalizePath(request.url.pathname);
    if (path === DATABASES_PATH) return list(request).catch((error: unknown) => errorResponse(error, logError));
    if (path === CATALOG_PATH || path.startsWith(`${CATALOG_PATH}/`)) return catalog(request, path);
    if (isObjectPath(request.url.pathname)) return objects(request);
    const name = path.split('/')[1]!;
    const handler = byName.get(name);
    if (!handler) return rootHandler(request);
    // the database's own handler sees its paths as at a root: `/twdb/info/about` -> `/info/about`
    const url = new URL(request.url);
    url.pathname = path.slice(name.length + 1) || '/';
    return handler({ method: request.method, url, headers: request.headers, body: request.body, signal: request.signal });
  };
  const handler: Handler = async (request) => {
    const response = await route(request);
    response.headers.set(DATABASES_HEADER, count);
    return response;
  };
  if (answerCache) handler.again = (target, headers) => answerCache.again(target, headers); // every database's answers, by the target as sent
  return handler;
}
