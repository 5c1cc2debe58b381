// POST twins of the timeseries and metadata paths: the same parameters in a JSON or form body, for name lists too
// long for a URL. Body values win over the query string's (a repeated parameter takes its last value).

import { readBody } from './body.js';
import { BodyParameterError, HttpError } from './errors.js';
import type { IncomingRequest } from './incoming.js';
import type { Route } from './route.js';
import { QueryParams, type RequestLimits } from './route.js';

/** The routes, then a POST route for every GET timeseries and metadata path (app.ts reads its parameters with bodyQuery). */
export function withPostTwins(routes: readonly Route[]): Route[] {
  const twins = routes
    .filter((r) => r.method === 'GET' && (r.tag === 'Timeseries' || r.tag === 'Metadata'))
    .map((r): Route => ({ ...r, method: 'POST', body: 'parameters' }));
  return [...routes, ...twins];
}

// A body of parameters is a few short lists: a name list at its longest and room for the rest. Bounded to that, and
// its shape checked before parsing, a hostile body costs a scan of kilobytes, not seconds of a parse holding the loop.
const MAX_PARAMETERS = 64; // the widest path takes about a dozen
const parameterBytes = (limits: RequestLimits) => Math.min(limits.maxUploadBytes, 64 * 1024 + limits.maxNames * 1024);

/** The query string's parameters followed by the body's: JSON `{"RES_NAMES": ["A", "B"], ...}` or a urlencoded form. */
export async function bodyQuery(request: IncomingRequest, limits: RequestLimits): Promise<QueryParams> {
  const merged = new URLSearchParams(request.url.searchParams);
  const max = parameterBytes(limits);
  const bytes = await readBody(request, max).catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 413)
      throw new HttpError(413, `a body of parameters is at most ${max} bytes (a list of --max-names ${limits.maxNames} names and the rest)`, error.headers);
    throw error;
  });
  if (bytes.byteLength > 0) {
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const text = new TextDecoder().decode(bytes);
    if (type === 'application/json') for (const [name, value] of jsonParameters(text)) merged.append(name, value);
    else if (type === 'application/x-www-form-urlencoded') for (const [name, value] of new URLSearchParams(text)) merged.append(name, value);
    else
      throw new BodyParameterError(
        'body',
        `the body must be application/json or application/x-www-form-urlencoded; got content-type ${JSON.stringify(type.slice(0, 80))}`,
        'malformed',
      );
  }
  return new QueryParams(merged, limits);
}

// a JSON object of parameters: strings and numbers as they are, lists joined with commas (as in the query string)
function jsonParameters(text: string): [string, string][] {
  checkParameterShape(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyParameterError('body', 'the body is not valid JSON', 'malformed');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new BodyParameterError('body', 'the JSON body must be an object of parameters, e.g. {"RES_NAMES": ["LAKE MEAD"]}', 'malformed');
  const out: [string, string][] = [];
  for (const [name, v] of Object.entries(value)) {
    const scalar = (x: unknown) => typeof x === 'string' || typeof x === 'number';
    if (v === null) continue;
    if (scalar(v)) out.push([name, String(v)]);
    else if (Array.isArray(v) && v.every(scalar)) out.push([name, v.join(',')]);
    else throw new BodyParameterError(name, `${name} must be a string, a number or a list of them`, 'malformed', v);
  }
  return out;
}

// An object of parameters whose values are scalars or lists of them: nothing nested deeper than 2, and at most
// MAX_PARAMETERS keys, checked on the text (a string's brackets and colons are not structure).
function checkParameterShape(text: string): void {
  let depth = 0;
  let keys = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > 2)
        throw new BodyParameterError('body', 'the JSON body nests deeper than an object of lists, e.g. {"RES_NAMES": ["LAKE MEAD"]}', 'malformed');
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x3a && depth === 1 && ++keys > MAX_PARAMETERS)
      throw new BodyParameterError('body', `the JSON body has more than ${MAX_PARAMETERS} parameters`, 'malformed');
  }
}
