// The answer's tag and the cache of recent answers, on the query paths (RFC 9110 section 13). An answer is a function of
// the snapshot it is read from and of its query, so its entity tag is made of those two, known before any row is read
// (as_of resolved to its snapshot): a client sending the tag back in If-None-Match gets 304 without the answer being
// made again, and a repeated query is answered from the recent whole answers kept by bytes, keyed by snapshot and
// normalized query, until the data changes. A new snapshot is a new key, so a revision is never answered from here;
// entries of replaced snapshots leave as newer answers push them out. Checked after the key and the rate limit: a
// cached answer still counts.
import { createHash } from 'node:crypto';
import type { EvapStore } from '../lib/open/store.js';
import { compareText } from '../lib/order.js';
import { ByteBoundedCache } from '../lib/store/cache.js';
import { acceptsGzip, type ReplayCheck, WholeResponse } from './answers.js';
import type { IncomingRequest } from './incoming.js';
import type { QueryParams, Route } from './route.js';

/** One answer as sent: its status, headers and body bytes. */
interface CachedAnswer {
  status: number;
  headers: readonly (readonly [string, string])[];
  body: Uint8Array<ArrayBuffer>;
}

/** Default bytes of answers kept (the --answer-cache-mib setting). */
const ANSWER_CACHE_BYTES = 64 * 2 ** 20;

/** Recent answers, least recently used out first, bounded by the bytes of their bodies. */
export type AnswerCache = ByteBoundedCache<CachedAnswer>;

/** A cache of recent answers holding `bytes`; an answer above an eighth of that is not kept. */
export function newAnswerCache(bytes = ANSWER_CACHE_BYTES): AnswerCache {
  return new ByteBoundedCache<CachedAnswer>(bytes, Math.floor(bytes / 8));
}

/** How clients may keep an answer: store it, but ask again (with its tag) before each use. */
const ANSWER_CACHE_CONTROL = 'no-cache';

// answers that change without a new snapshot: a vacuum retires snapshots and publishes none
const unkept = new Set(['listSnapshots']);

/** Runs a route's answer (`run`, told which snapshot it was read from) through the tag and the cache. */
type CachedRun = (served: (snapshot: string) => void) => Promise<Response> | Response;

/** The cached answer, a 304, or the route run and its answer tagged (and kept, when whole). A POST twin is run as it is. */
export function createCachedAnswers(store: EvapStore, cache: AnswerCache | undefined) {
  const tagged = new TaggedQueries();
  const gathering = new Set<string>(); // the keys of streamed answers being gathered to be kept
  return async (route: Route, request: IncomingRequest, query: QueryParams, path: string, run: CachedRun): Promise<Response> => {
    if (request.method !== 'GET' || route.method !== 'GET' || unkept.has(route.operation)) return run(() => {});
    const asOf = route.parameters.some((p) => p.name === 'as_of') ? query.one('as_of') : undefined;
    const snapshot = asOf === undefined ? store.manifest.snapshot : await snapshotAt(store, asOf);
    const { key, tag } = tagged.of(snapshot, path, request.url);
    const asked = request.headers.get('if-none-match');
    // an explicit tag is only ever given out with a 200 of this snapshot and query: no need to make the answer again
    if (asked !== null && asked.trim() !== '*' && noneMatch(asked, tag)) return asSent(request, notModified(taggedHeaders(tag)));
    const kept = cache?.get(key);
    // `*` matches a kept answer too
    if (kept) return noneMatch(asked, tag) ? asSent(request, notModified(taggedHeaders(tag))) : fromCache(kept, replayOf(asOf, snapshot, key, kept));

    let served: string | undefined = asOf === undefined ? snapshot : undefined;
    const response = await run((s) => (served = s));
    // the answer is the tagged one only if it was read from the snapshot the tag names (a refresh mid-way: not tagged)
    const same = asOf === undefined ? store.manifest.snapshot === snapshot : served === snapshot;
    if (response.status !== 200 || !same) return response;
    response.headers.set('etag', tag);
    response.headers.set('cache-control', ANSWER_CACHE_CONTROL);
    if (noneMatch(asked, tag)) {
      await response.body?.cancel(); // `*`: any current answer matches
      return asSent(request, notModified(response.headers));
    }
    if (!cache) return response;
    const headers = [...response.headers];
    if (!(response instanceof WholeResponse)) {
      // a streamed answer (over a MiB) is kept too once sent to its end, if no larger than an entry may be: the map
      // of every reservoir on the latest day, polled by a dashboard, is such an answer from a few thousand reservoirs
      return keptAtEnd(response, key, gathering, cache.maxEntryBytes, (body) => cache.set(key, { status: response.status, headers, body }, body.byteLength));
    }
    const body = typeof response.whole === 'string' ? new TextEncoder().encode(response.whole) : response.whole; // its own buffer: what the bound counts is what is held
    const answer: CachedAnswer = { status: response.status, headers, body };
    cache.set(key, answer, body.byteLength);
    return fromCache(answer, replayOf(asOf, snapshot, key, answer)); // sent from the bytes just encoded, not encoded again
  };

  // the same answer again for the same target: no If-None-Match (a 304 may be due), no gzip (compress() would code
  // it), the snapshot still the current one and the answer still kept; an as_of answer is not replayed (its snapshot
  // is found by reading the history)
  function replayOf(asOf: string | undefined, snapshot: string, key: string, answer: CachedAnswer): ReplayCheck | undefined {
    if (asOf !== undefined || !cache) return undefined;
    const kept = cache;
    return (headers) =>
      headers.get('if-none-match') === null && !acceptsGzip(headers.get('accept-encoding')) && store.manifest.snapshot === snapshot && kept.get(key) === answer;
  }
}

/** The cache of recent answers the options give: their own (null: none), else a new one of `answerCacheBytes` (0: none). */
export function answerCacheOf(options: { answerCache?: AnswerCache | null; answerCacheBytes?: number }): AnswerCache | undefined {
  if (options.answerCache !== undefined) return options.answerCache ?? undefined;
  const bytes = options.answerCacheBytes ?? ANSWER_CACHE_BYTES;
  return bytes > 0 ? newAnswerCache(bytes) : undefined;
}

// the snapshot an as_of time is answered from (a view of it, given back at once: the route takes its own)
async function snapshotAt(store: EvapStore, asOf: string): Promise<string> {
  const view = await store.asOf(asOf);
  try {
    return view.manifest.snapshot;
  } finally {
    await view.close();
  }
}

/**
 * The cache key and the tag of a query, from the path and the query string as sent: a function of those and the
 * snapshot alone, so worked out (sorted, encoded, hashed) once for the last 256 targets asked, not on every request.
 */
class TaggedQueries {
  private readonly known = new Map<string, { key: string; tag: string }>();

  of(snapshot: string, path: string, url: URL): { key: string; tag: string } {
    const asked = `${snapshot}\n${path}\n${url.search}`;
    let found = this.known.get(asked);
    if (found === undefined) {
      const key = `${snapshot}\n${normalizedQuery(path, url.searchParams)}`;
      found = { key, tag: answerTag(snapshot, key) };
      if (asked.length > 4096) return found; // a long query is not kept: the bound is on bytes too
      if (this.known.size >= 256) this.known.delete(this.known.keys().next().value!);
      this.known.set(asked, found);
    }
    return found;
  }
}

function taggedHeaders(tag: string): Headers {
  return new Headers({ etag: tag, 'cache-control': ANSWER_CACHE_CONTROL });
}

// a 304 repeats what the 200 would have said (RFC 9110 15.4.5): compress() adds Vary to answers with a body, and
// makes the tag of a gzip-coded one weak
function asSent(request: IncomingRequest, response: Response): Response {
  response.headers.set('vary', 'Accept-Encoding');
  const tag = response.headers.get('etag');
  if (tag?.startsWith('"') && acceptsGzip(request.headers.get('accept-encoding'))) response.headers.set('etag', `W/${tag}`);
  return response;
}

/** Streamed answers gathered at once at most, across a server's requests: their bytes held are at most this many entries. */
const GATHERED_AT_ONCE = 4;

/**
 * The streamed response as it is, its bytes also gathered on the way while they stay within `most`, handed to `keep`
 * once the body has ended (an answer the client left, or that failed, is never kept). Only a few answers are gathered
 * at once, one per query (`gathering` holds their keys), so answers streamed together hold little beyond themselves.
 */
function keptAtEnd(response: Response, key: string, gathering: Set<string>, most: number, keep: (body: Uint8Array<ArrayBuffer>) => void): Response {
  if (!response.body || gathering.has(key) || gathering.size >= GATHERED_AT_ONCE) return response;
  gathering.add(key);
  const reader = response.body.getReader();
  let parts: Uint8Array[] | null = []; // null once no longer gathering (its key given back, once)
  let bytes = 0;
  const done = () => {
    if (parts) gathering.delete(key);
    parts = null;
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        done();
        throw error;
      }
      if (next.done) {
        if (parts) keep(Buffer.concat(parts, bytes));
        done();
        controller.close();
        return;
      }
      if (parts) {
        bytes += next.value.byteLength;
        if (bytes <= most) parts.push(next.value);
        else done(); // too large to keep: what was gathered goes
      }
      controller.enqueue(next.value);
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

function fromCache(answer: CachedAnswer, replay: ReplayCheck | undefined): Response {
  const response = new WholeResponse(answer.body, { status: answer.status, headers: answer.headers as [string, string][] });
  response.replay = replay;
  return response;
}

/** The query's parameters in one canonical order (by name; a repeated name keeps its values' order, which can matter), without the key. */
function normalizedQuery(path: string, params: URLSearchParams): string {
  const entries = [...params].filter(([name]) => name !== 'api_key' && name !== 'api-key');
  entries.sort((a, b) => compareText(a[0], b[0])); // stable: repeated names keep their order
  return `${path}?${new URLSearchParams(entries).toString()}`;
}

/**
 * The strong entity tag of an answer read from `snapshot` (the manifest's snapshot id, never reused) for a normalized
 * query. Strong: the identity bytes are the same for the same snapshot and query. A gzip-coded answer carries it weak
 * (answers.ts compress), as nginx does, since its bytes are another representation.
 */
function answerTag(snapshot: string, query: string): string {
  return `"${createHash('sha256').update(snapshot).update('\n').update(query).digest('base64url').slice(0, 27)}"`;
}

/**
 * Whether an If-None-Match header value matches the tag by the weak comparison (RFC 9110 13.1.2: W/ is ignored on
 * both sides); `*` matches any current answer. A malformed member matches nothing.
 */
export function noneMatch(header: string | null, tag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  for (const match of header.matchAll(/(?:W\/)?("[^"]*")/g)) if (match[1] === opaque) return true;
  return false;
}

/** Headers a 304 repeats from the 200 it stands for (RFC 9110 15.4.5): those that say how to cache and match it. */
const notModifiedHeaders = ['etag', 'cache-control', 'vary', 'content-location', 'expires'] as const;

/** The 304 answer standing for `headers`' 200. */
function notModified(headers: Headers): Response {
  const kept = new Headers();
  for (const name of notModifiedHeaders) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  return new Response(null, { status: 304, headers: kept });
}
