// Errors -> status and a FastAPI-style {"detail": ...} body, in one place.

import { validationTypes } from '../lib/catalogue.js';
import { InvalidParameterError, NotFoundError, StoreError } from '../lib/errors.js';
import { WholeResponse } from './answers.js';

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

/** A bad parameter that came in the request body (a form part, a JSON field) rather than in the query string. */
export class BodyParameterError extends InvalidParameterError {}

/**
 * The one place the 422 body is built: `{"detail": [{"type", "loc", "msg", "input"}]}` as FastAPI (pydantic v2) writes
 * validation errors. Every bad parameter, the library's and the server's own, arrives here as an InvalidParameterError.
 * `input` is what the client sent: for a query parameter its text as it arrived (`sent`, undefined when left out), for
 * a body field the value the error carries; null when nothing was sent or it is not known.
 */
function validationDetail(error: InvalidParameterError, sent?: (name: string) => string | undefined): object[] {
  // the shapefile's parts come in the form, whoever finds them bad
  // the wire's names (start_date), where the library named the option its caller wrote (start)
  const { parameter, message } = error.wire ?? error;
  const location = error instanceof BodyParameterError || parameter.startsWith('shapefile_') ? 'body' : 'query';
  const input = location === 'query' && sent ? sent(parameter) : error.value;
  return [{ type: validationTypes[error.reason], loc: [location, parameter], msg: message, input: input ?? null }];
}

/** The body of every error answer, as FastAPI writes it: `{"detail": detail}`. */
export function detailBody(detail: unknown): string {
  return JSON.stringify({ detail });
}

/** A JSON answer `{"detail": detail}` with the given status. */
export function detailResponse(status: number, detail: unknown, headers: Record<string, string> = {}): Response {
  return new WholeResponse(detailBody(detail), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Maps any thrown value to its response (`sent`: the request's query parameters, for a 422's input); unexpected errors are logged and answered 500 without internals. */
export function errorResponse(error: unknown, logError: (message: string) => void, sent?: (name: string) => string | undefined): Response {
  if (error instanceof HttpError) return detailResponse(error.status, error.detail, error.headers);
  if (error instanceof InvalidParameterError) return detailResponse(422, validationDetail(error, sent));
  if (error instanceof NotFoundError) return detailResponse(404, `${error.message}; see /info/list_${error.parameter}${otherPaths(error)}`);
  // a damaged or unreadable store: the operator's log names the file; the client learns nothing of the disk
  if (error instanceof StoreError) logError(`store error: ${error.message}`);
  else logError(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return detailResponse(500, 'Internal Server Error');
}

// where a name of the other kind is answered: a station asked for as a reservoir is at the stations' paths
function otherPaths(error: NotFoundError): string {
  if (error.elsewhere.length === 0) return '';
  return error.parameter === 'RES_NAMES'
    ? '; stations are at /timeseries/stations/daterange and /metadata/stations'
    : '; reservoirs are at /timeseries/daily/reservoirs/daterange and /metadata/reservoirs';
}
