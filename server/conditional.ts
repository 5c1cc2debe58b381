// Conditional requests on the query paths (RFC 9110 section 13): an answer is a function of the snapshot it is read
// from and of its query, so its entity tag is made of those two, known before any row is read. A client sending the
// tag back in If-None-Match gets 304 without the answer being made again while the data has not changed.
import { createHash } from 'node:crypto';

/** The query's parameters in one canonical order (by name; a repeated name keeps its values' order, which can matter), without the key. */
export function normalizedQuery(path: string, params: URLSearchParams): string {
  const entries = [...params].filter(([name]) => name !== 'api_key' && name !== 'api-key');
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); // stable: repeated names keep their order
  return `${path}?${new URLSearchParams(entries).toString()}`;
}

/**
 * The strong entity tag of an answer read from `snapshot` (the manifest's snapshot id, never reused) for a normalized
 * query. Strong: the identity bytes are the same for the same snapshot and query. A gzip-coded answer carries it weak
 * (format.ts compress), as nginx does, since its bytes are another representation.
 */
export function answerTag(snapshot: string, query: string): string {
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
export function notModified(headers: Headers): Response {
  const kept = new Headers();
  for (const name of notModifiedHeaders) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  return new Response(null, { status: 304, headers: kept });
}
