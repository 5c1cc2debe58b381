// POST twins of the timeseries and metadata paths: the same parameters in a JSON or form body, for name lists too
// long for a URL. Body values win over the query string's (a repeated parameter takes its last value).
import { BodyParameterError } from './errors.js';
import type { IncomingRequest } from './incoming.js';
import { QueryParams, type RequestLimits, readBody } from './params.js';
import type { Route } from './route.js';

/** The routes, then a POST route for every GET timeseries and metadata path (app.ts reads its parameters with bodyQuery). */
export function withPostTwins(routes: readonly Route[]): Route[] {
  const twins = routes
    .filter((r) => r.method === 'GET' && (r.tag === 'Timeseries' || r.tag === 'Metadata'))
    .map((r): Route => ({ ...r, method: 'POST', body: 'parameters' }));
  return [...routes, ...twins];
}

/** The query string's parameters followed by the body's: JSON `{"RES_NAMES": ["A", "B"], ...}` or a urlencoded form. */
export async function bodyQuery(request: IncomingRequest, limits: RequestLimits): Promise<QueryParams> {
  const merged = new URLSearchParams(request.url.searchParams);
  const bytes = await readBody(request, limits.maxUploadBytes);
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
