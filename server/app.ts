// The server as one handler (a request with its target parsed -> a Response): route, check the key, call the library, format, map errors.

import { DATA_HEADER, IGNORED_HEADER } from '../lib/catalogue.js'; // the response headers: what the data are, the parameters a path does not take
import type { RecordStream } from '../lib/format/stream.js';
import type { EvapStore } from '../lib/open/store.js';
import { parametersOf } from '../lib/operations.js';
import { AnswerGate, WHOLE_ANSWER_WEIGHT } from './admission.js';
import { AnswerCache, answerCacheOf, type HeaderReader, type Written } from './answer-cache.js';
import { builtWhole, compress } from './answers.js';
import { createCachedAnswers } from './cached-answers.js';
import { createDocs } from './docs.js';
import { errorResponse, HttpError } from './errors.js';
import { createExplorer } from './explorer.js';
import { fromFetchRequest, type IncomingRequest } from './incoming.js';
import type { KeyRing } from './keys/auth.js';
import { createRateLimiter, type RateLimiter } from './keys/rate.js';
import { createKeyRequests, REQUEST_KEY_PATH } from './keys/requests.js';
import type { LinkBase } from './ogc/context.js';
import { ogcAnswer, withQueryKey } from './ogc/handler.js';
import { buildOpenApi } from './openapi.js';
import { bodyQuery } from './post-routes.js';
import { settingDefault } from './process/config.js';
import { provenanceLink, SYNTHETIC_DOCS_NOTE, withDataNote } from './provenance.js';
import { defaultRequestLimits, ignoredParameters, QueryParams, type RequestLimits, type Route } from './route.js';
import { routes } from './routes.js';

/**
 * The server's handler: a request whose target is already parsed (the node adapter, or fromFetchRequest for a fetch
 * Request) -> a Response; and `again`, the answer last written for a request target, when the cache of answers says
 * a request with these headers gets the very same one (the adapter then writes it without a Request or a Response).
 */
export type Handler = ((request: IncomingRequest) => Promise<Response>) & { again?: (target: string, headers: HeaderReader) => Written | undefined };

export interface HandlerOptions {
  store: EvapStore;
  keys: KeyRing;
  limits?: Partial<RequestLimits>; // defaults: defaultRequestLimits
  rateLimitPerMinute?: number; // requests a minute per key, then 429 with Retry-After; 0 or absent: no limit
  rateLimiter?: RateLimiter; // where the per-key counters are (a cluster's primary); default: in this process
  logError?: (message: string) => void; // where unexpected errors go (default console.error)
  keyRequests?: (request: IncomingRequest) => Promise<Response>; // GET /auth/request_key (default: refused, 503)
  explorerDir?: string; // the built explorer page (default dist/explorer)
  maxHeavy?: number; // answers decoding millions of rows produced at once (admission.ts); default the max-heavy setting
  heavyRows?: number; // stored rows an answer may decode and start at once (default HEAVY_READ_ROWS)
  heavyWaitMs?: number; // how long a heavy answer may wait for its turn, then 503 with Retry-After (default HEAVY_WAIT_MS)
  gate?: AnswerGate; // the admission of heavy answers, when given (maxHeavy and heavyRows are then its own)
  basePath?: string; // the path this store is served under when the server serves several (`/twdb`; default '': the root)
  links?: LinkBase; // where the OGC answers' links point (--public-url, --trust-proxy); default: the request's Host
  answerCacheBytes?: number; // bytes of recent whole answers kept (answer-cache.ts); 0: none (tags and 304s still); default ANSWER_CACHE_BYTES
  answerCache?: AnswerCache | null; // the cache of recent answers, when given (shared by several databases; null: none); answerCacheBytes is then its own
}

/** The handler called as fetch is, no socket (hono's `app.request()`): a path (on http://localhost) or a Request in, its Response out. */
export function fetchFrom(handler: Handler): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return (input, init) => {
    // a path is appended, not resolved: `//info/...` stays a path, as the node adapter keeps it
    const url = typeof input === 'string' && input.startsWith('/') ? `http://localhost${input}` : input;
    return handler(fromFetchRequest(new Request(url, init)));
  };
}

/** Collapses repeated slashes (clients join a base URL ending in `/` with `/info/...`) and drops a trailing slash. */
export function normalizePath(pathname: string): string {
  const collapsed = pathname.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/** The handler serving every documented path of the store, /openapi.json, /docs and the explorer at /. */
export function createHandler(options: HandlerOptions): Handler {
  const limits: RequestLimits = { ...defaultRequestLimits, ...options.limits };
  const logError = options.logError ?? ((message: string) => console.error(message));
  const table = new Map<string, Map<string, Route>>();
  for (const route of routes) {
    if (!table.has(route.path)) table.set(route.path, new Map());
    table.get(route.path)!.set(route.method, route);
  }
  const known = new Map(routes.map((route) => [route, parametersOf(route.operation).map((p) => p.name)])); // all it reads, monthly-only ones too
  const basePath = options.basePath ?? '';
  const docs = createDocs(withDataNote(buildOpenApi(routes), options.store), options.store.synthetic ? SYNTHETIC_DOCS_NOTE : undefined, basePath);
  const explorer = createExplorer(options.explorerDir);
  const perMinute = options.rateLimitPerMinute ?? 0;
  const limiter = perMinute > 0 ? (options.rateLimiter ?? createRateLimiter(perMinute)) : undefined;
  const keyRequests = options.keyRequests ?? createKeyRequests(undefined);
  const gate = options.gate ?? new AnswerGate(options.maxHeavy ?? settingDefault('max-heavy'), options.heavyRows, options.heavyWaitMs);
  const cache = answerCacheOf(options) ?? new AnswerCache(0); // with no bytes, the tags alone
  // a kept answer is the same again only for an accepted key; with a rate limit every request must be counted here
  const cachedAnswer = createCachedAnswers(options.store, cache, limiter ? undefined : (headers) => options.keys.admits(headers));

  const admitKey = async (request: IncomingRequest) => {
    const digest = options.keys.check(request);
    const wait = (await limiter?.(digest)) ?? 0;
    if (wait > 0) throw new HttpError(429, `rate limit: at most ${perMinute} requests a minute per key; retry in ${wait} s`, { 'retry-after': String(wait) });
  };
  const handle: Handler = async (request) => {
    let query: QueryParams | undefined; // the route's parameters once read
    let ignored: string | undefined; // those of them the route does not take
    try {
      const path = normalizePath(request.url.pathname);
      const byMethod = table.get(path);
      if (!byMethod) {
        // the pages and paths outside the operations table, looked at only when the path is none of its
        const open = await docs(path, request.method);
        if (open) return open;
        if (path === REQUEST_KEY_PATH) return await keyRequests(request); // open: whoever asks has no key yet
        const page = await explorer(request, path);
        if (page) return page;
        if (path === '/ogc' || path.startsWith('/ogc/')) {
          await admitKey(withQueryKey(request)); // the OGC paths also take the key as api_key, for a QGIS layer URL
          return compress(
            request,
            await ogcAnswer(options.store, request, path, (stream, weight) => gate.admit(stream, request.signal, weight), basePath, options.links),
          );
        }
        throw new HttpError(404, `no such path: ${path.slice(0, 200)}; every path is listed at /docs and /openapi.json`);
      }
      const route = byMethod.get(request.method);
      if (!route) {
        const allowed = [...byMethod.keys()].join(', ');
        throw new HttpError(405, `method ${request.method} is not allowed on ${path}; allowed: ${allowed}`, { allow: allowed });
      }
      await admitKey(request);
      // a POST twin takes the parameters in its body too; read here, so a 422 can say what was sent
      query = route.body === 'parameters' ? await bodyQuery(request, limits) : new QueryParams(request.url.searchParams, limits);
      const weight = builtWhole(query.one('output_format')) ? WHOLE_ANSWER_WEIGHT : 1;
      const admit = (stream: RecordStream) => gate.admit(stream, request.signal, weight);
      // FastAPI ignores a parameter a path does not take, and so does this server; the answer, or the error the
      // defaults led to, says which it ignored
      ignored = ignoredParameters(query, known.get(route)!);
      const asked = query;
      const response = await cachedAnswer(route, request, asked, path, (store) => route.run({ store, query: asked, request, limits, admit }));
      return compress(request, withIgnored(response, ignored));
    } catch (error) {
      const sent = query ?? new QueryParams(request.url.searchParams, limits);
      return withIgnored(
        errorResponse(error, logError, (name) => sent.one(name)),
        ignored,
      );
    }
  };
  // every answer of a synthetic store says so, and every answer links to the store's provenance (provenance.ts)
  const link = provenanceLink(basePath);
  const handler: Handler = async (request) => {
    const response = await handle(request);
    if (options.store.synthetic) response.headers.set(DATA_HEADER, 'synthetic');
    response.headers.append('link', link);
    return response;
  };
  handler.again = (target, headers) => cache.again(target, headers);
  return handler;
}

function withIgnored(response: Response, ignored: string | undefined): Response {
  if (ignored !== undefined) response.headers.set(IGNORED_HEADER, ignored);
  return response;
}
