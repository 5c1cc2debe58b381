// A request as the handler reads it: the target already parsed into a URL, so no step after the adapter parses it again.

/** What the handler and the routes read of a request: the method, the parsed target, the headers and the body. */
export interface IncomingRequest {
  readonly method: string;
  readonly url: URL; // parsed once, by whoever made the request (node.ts, or fromFetchRequest)
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly signal?: AbortSignal; // aborted when the client goes away before its answer is out
}

/** A fetch-style Request as the handler reads it (tests, other runtimes): its URL parsed here, once. */
export function fromFetchRequest(request: Request): IncomingRequest {
  return { method: request.method, url: new URL(request.url), headers: request.headers, body: request.body, signal: request.signal };
}
