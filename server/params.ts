// Query strings and multipart forms -> typed arguments for the library, with the request limits applied.
import type { ShapefileParts } from '../lib/types.js';
import { HttpError, invalidParameter } from './errors.js';

/** Limits on what one request may ask for. */
export interface RequestLimits {
  maxNames: number; // names per RES_NAMES / STA_NAMES list
  maxVariables: number; // entries per variables / datasets / also_return list
  maxUploadBytes: number; // the request body (the four shapefile parts together)
}

export const defaultRequestLimits: RequestLimits = { maxNames: 500, maxVariables: 100, maxUploadBytes: 50 * 1024 * 1024 };

export type OutputFormat = 'json' | 'csv';
const outputFormats: readonly string[] = ['json', 'csv'];
const listParameters: Record<string, keyof RequestLimits> = {
  RES_NAMES: 'maxNames',
  STA_NAMES: 'maxNames',
  datasets: 'maxVariables',
  variables: 'maxVariables',
  also_return: 'maxVariables',
};

/** The query parameters of one request; a repeated parameter takes its last value, as FastAPI does for a `str`. */
export class QueryParams {
  constructor(
    private readonly params: URLSearchParams,
    private readonly limits: RequestLimits,
  ) {}

  /** One value, or undefined when absent (the library then applies the public service's default). */
  one(name: string): string | undefined {
    const values = this.params.getAll(name);
    return values.length === 0 ? undefined : values[values.length - 1];
  }

  /** A comma-separated list, split and trimmed: `"LAKE ALICE, LAKE ESTES"` -> ['LAKE ALICE', 'LAKE ESTES']. */
  list(name: string): string[] | undefined {
    const value = this.one(name);
    if (value === undefined) return undefined;
    const items = value.split(',').map((item) => item.trim());
    const limit = this.limits[listParameters[name] ?? 'maxVariables'];
    if (items.length > limit) {
      throw invalidParameter(name, `${name} has ${items.length} values; at most ${limit} are allowed per request`, 'too-many');
    }
    return items;
  }

  /** The `output_format` parameter: json (default) or csv. */
  format(): OutputFormat {
    const value = this.one('output_format') ?? 'json';
    if (!outputFormats.includes(value)) {
      throw invalidParameter('output_format', `output_format must be one of json, csv; got ${JSON.stringify(value.slice(0, 40))}`, 'not-allowed');
    }
    return value as OutputFormat;
  }
}

const shapefileParts = ['shp', 'dbf', 'prj', 'shx'] as const;

/** Parts of a multipart body read at most: the four shapefile parts and a few other fields (672k tiny parts took 21 s and 1.5 GB). */
export const maxFormParts = 16;

/** The optional shapefile parts of a POST body: undefined for no body or a form without them. */
export async function readShapefileParts(request: Request, limits: RequestLimits): Promise<ShapefileParts | undefined> {
  const bytes = await readBody(request, limits.maxUploadBytes);
  if (bytes.byteLength === 0) return undefined;
  const type = request.headers.get('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i.test(type)) {
    throw invalidParameter('body', `the body must be multipart/form-data with the parts shapefile_shp, shapefile_dbf, shapefile_prj, shapefile_shx; got content-type ${JSON.stringify(type.slice(0, 80))}`, 'malformed', 'body');
  }
  const boundary = /;\s*boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary !== undefined && countParts(bytes, boundary, maxFormParts + 1) > maxFormParts) {
    throw invalidParameter('body', `the multipart body has more than ${maxFormParts} parts: send the four shapefile parts`, 'too-many', 'body');
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { 'content-type': type } }).formData();
  } catch {
    throw invalidParameter('body', 'the multipart body is malformed or truncated', 'malformed', 'body');
  }
  const parts: ShapefileParts = {};
  for (const part of shapefileParts) {
    const values = form.getAll(`shapefile_${part}`);
    const value = values[values.length - 1];
    if (value === undefined) continue;
    if (typeof value === 'string') {
      throw invalidParameter(`shapefile_${part}`, `shapefile_${part} must be an uploaded file, not a text field`, 'malformed', 'body');
    }
    parts[part] = await value.arrayBuffer();
  }
  return Object.keys(parts).length === 0 ? undefined : parts;
}

/** How many parts a multipart body holds, counting its delimiter lines (`--boundary` at the start or after CRLF), up to `stop`. */
export function countParts(body: Uint8Array, boundary: string, stop: number): number {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let delimiters = bytes.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2)) ? 1 : 0;
  for (let at = bytes.indexOf(delimiter); at !== -1 && delimiters <= stop; at = bytes.indexOf(delimiter, at + delimiter.length)) delimiters++;
  return Math.max(0, delimiters - 1); // the last delimiter closes the body
}

/** The whole body, refused with 413 as soon as it is known to exceed the limit (Content-Length, or while reading). */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw new HttpError(400, 'the request body was cut off before its end');
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** A 413 naming the limit. */
export function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `the request body exceeds the limit of ${maxBytes} bytes (the four shapefile parts together)`, { connection: 'close' });
}
