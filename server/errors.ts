// Errors -> status and a FastAPI-style {"detail": ...} body, in one place.
import { InvalidParameterError, NotFoundError, StoreError, type InvalidReason } from '../lib/errors.js';
import { WholeResponse } from './body.js';

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

// FastAPI's "type" of a validation error, for each reason the library gives
const fastApiType: Record<InvalidReason, string> = { 'not-allowed': 'enum', empty: 'missing', 'not-a-date': 'date_from_datetime_parsing', 'too-many': 'too_long', malformed: 'value_error' };

/** A 422 for a bad parameter, shaped as FastAPI writes validation errors. */
export function invalidParameter(parameter: string, message: string, reason: InvalidReason = 'malformed', location: 'query' | 'body' = 'query'): HttpError {
  return new HttpError(422, [{ loc: [location, parameter], msg: message, type: fastApiType[reason] }]);
}

/** A JSON answer `{"detail": detail}` with the given status. */
export function detailResponse(status: number, detail: unknown, headers: Record<string, string> = {}): Response {
  return new WholeResponse(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Maps any thrown value to its response; unexpected errors are logged and answered 500 without internals. */
export function errorResponse(error: unknown, logError: (message: string) => void): Response {
  if (error instanceof HttpError) return detailResponse(error.status, error.detail, error.headers);
  if (error instanceof InvalidParameterError) {
    const location = error.parameter.startsWith('shapefile_') ? 'body' : 'query'; // the shapefile's parts come in the form
    return errorResponse(invalidParameter(error.parameter, error.message, error.reason, location), logError);
  }
  if (error instanceof NotFoundError) return detailResponse(404, `${error.message}; see /info/list_${error.parameter}`);
  // a damaged or unreadable store: the operator's log names the file; the client learns nothing of the disk
  if (error instanceof StoreError) logError(`store error: ${error.message}`);
  else logError(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return detailResponse(500, 'Internal Server Error');
}
