// Errors -> status and a FastAPI-style {"detail": ...} body, in one place.
import { InvalidParameterError, NotFoundError, StoreError } from '../lib/errors.js';
import { wholeResponse } from './body.js';

/** An error that already knows its answer: status, detail and extra headers (Allow, Retry-After, ...). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown, // the value of "detail" in the body
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.name = 'HttpError';
  }
}

/** A 422 for a bad parameter, shaped as FastAPI writes validation errors. */
export function invalidParameter(parameter: string, message: string, kind = 'value_error', location: 'query' | 'body' = 'query'): HttpError {
  return new HttpError(422, [{ loc: [location, parameter], msg: message, type: kind }]);
}

/** A JSON answer `{"detail": detail}` with the given status. */
export function detailResponse(status: number, detail: unknown, headers: Record<string, string> = {}): Response {
  return wholeResponse(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Maps any thrown value to its response; unexpected errors are logged and answered 500 without internals. */
export function errorResponse(error: unknown, logError: (message: string) => void): Response {
  if (error instanceof HttpError) return detailResponse(error.status, error.detail, error.headers);
  if (error instanceof InvalidParameterError) {
    return detailResponse(422, [{ loc: [error.location, error.parameter], msg: error.message, type: error.kind }]);
  }
  if (error instanceof NotFoundError) return detailResponse(404, error.message);
  // a damaged or unreadable store: the operator's log names the file; the client learns nothing of the disk
  if (error instanceof StoreError) logError(`store error: ${error.message}`);
  else logError(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return detailResponse(500, 'Internal Server Error');
}
