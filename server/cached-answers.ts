// A route's answer through its tag and the cache of answers (answer-cache.ts), on the query paths (RFC 9110 section 13).
// An answer is a function of the snapshot it is read from and of its query, so its entity tag is known before any row
// is read: a client sending the tag back in If-None-Match gets 304 without the answer being made again, and a repeated
// query is answered from the cache. Under as_of the view of that time is opened here, once: its snapshot names the
// tag, and the route reads from it. Checked after the key and the rate limit: a cached answer still counts.
import type { EvapStore, StoreReader } from '../lib/open/store.js';
import type { AnswerCache, CachedAnswer, Replay, ReplayCheck } from './answer-cache.js';
import { acceptsGzip, WholeResponse } from './answers.js';
import type { IncomingRequest } from './incoming.js';
import type { QueryParams, Route } from './route.js';

/** How clients may keep an answer: store it, but ask again (with its tag) before each use. */
const ANSWER_CACHE_CONTROL = 'no-cache';

// answers that change without a new snapshot: a vacuum retires snapshots and publishes none
const unkept = new Set(['listSnapshots']);

/** Runs a route's answer from `reader`: the store, or under as_of the view of that time. */
type Run = (reader: StoreReader) => Promise<Response> | Response;

/**
 * The cached answer, a 304, or the route run and its answer tagged (and kept, when whole); a POST twin is run as it
 * is. `admits`: whether a request with these headers may be answered again without the handler (its key accepted),
 * undefined when none may (every request counted by the rate limit).
 */
export function createCachedAnswers(store: EvapStore, cache: AnswerCache, admits: ReplayCheck | undefined) {
  const gathering = new Set<string>(); // the keys of streamed answers being gathered to be kept
  const keeping = cache.maxEntryBytes > 0;

  const answer = async (route: Route, request: IncomingRequest, path: string, reader: StoreReader, asOf: string | undefined, run: Run) => {
    if (request.method !== 'GET' || route.method !== 'GET' || unkept.has(route.operation)) return run(reader);
    const snapshot = reader.manifest.snapshot;
    const { key, tag } = cache.tagOf(snapshot, path, request.url);
    const asked = request.headers.get('if-none-match');
    // an explicit tag is only ever given out with a 200 of this snapshot and query: no need to make the answer again
    if (asked !== null && asked.trim() !== '*' && noneMatch(asked, tag)) return asSent(request, notModified(taggedHeaders(tag)));
    const kept = keeping ? cache.get(key) : undefined;
    // `*` matches a kept answer too
    if (kept) return noneMatch(asked, tag) ? asSent(request, notModified(taggedHeaders(tag))) : fromCache(kept, replayOf(asOf, snapshot, key, kept));

    const response = await run(reader);
    // the answer is the tagged one only if it was read from the snapshot the tag names (a refresh mid-way: not tagged)
    if (response.status !== 200 || reader.manifest.snapshot !== snapshot) return response;
    response.headers.set('etag', tag);
    response.headers.set('cache-control', ANSWER_CACHE_CONTROL);
    if (noneMatch(asked, tag)) {
      await response.body?.cancel(); // `*`: any current answer matches
      return asSent(request, notModified(response.headers));
    }
    if (!keeping) return response;
    const headers = [...response.headers];
    if (!(response instanceof WholeResponse)) {
      // a streamed answer (over a MiB) is kept too once sent to its end, if no larger than an entry may be: the map
      // of every reservoir on the latest day, polled by a dashboard, is such an answer from a few thousand reservoirs
      return keptAtEnd(response, key, gathering, cache.maxEntryBytes, (body) => cache.set(key, { status: response.status, headers, body }));
    }
    const body = typeof response.whole === 'string' ? new TextEncoder().encode(response.whole) : response.whole; // its own buffer: what the bound counts is what is held
    const made: CachedAnswer = { status: response.status, headers, body };
    cache.set(key, made);
    return fromCache(made, replayOf(asOf, snapshot, key, made)); // sent from the bytes just encoded, not encoded again
  };

  // the same answer again for the same target: the key accepted, no If-None-Match (a 304 may be due), no gzip
  // (compress() would code it), the snapshot still the current one (the cache checks the answer is still kept); an
  // as_of answer is not written again (its snapshot is found by reading the history)
  function replayOf(asOf: string | undefined, snapshot: string, key: string, made: CachedAnswer): Replay | undefined {
    if (asOf !== undefined || !admits) return undefined;
    const same = admits;
    const check: ReplayCheck = (headers) =>
      headers.get('if-none-match') === null && !acceptsGzip(headers.get('accept-encoding')) && store.manifest.snapshot === snapshot && same(headers);
    return cache.replay(key, made, check);
  }

  return async (route: Route, request: IncomingRequest, query: QueryParams, path: string, run: Run): Promise<Response> => {
    const asOf = route.parameters.some((p) => p.name === 'as_of') ? query.one('as_of') : undefined;
    if (asOf === undefined) return answer(route, request, path, store, undefined, run);
    // a view whose snapshot stays leased (safe from vacuum) until the answer streamed from it has been read to the end
    // or given up (the library's streams hold it: lib/store/lease.ts HeldLease)
    const view = await store.asOf(asOf);
    try {
      return await answer(route, request, path, view, asOf, run);
    } finally {
      await view.close();
    }
  };
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

function fromCache(answer: CachedAnswer, replay: Replay | undefined): Response {
  const response = new WholeResponse(answer.body, { status: answer.status, headers: answer.headers as [string, string][] });
  response.replay = replay;
  return response;
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
