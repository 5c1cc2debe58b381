// Query strings and multipart forms -> typed arguments for the library, with the request limits applied.

import { InvalidParameterError } from '../lib/errors.js';
import { type Parameter, parameters } from '../lib/operations.js';

export { IGNORED_HEADER } from '../lib/sync/client.js'; // the response header naming the parameters a path does not take

import { didYouMean } from '../lib/suggest.js';
import type { ShapefileParts } from '../lib/types.js';
import { BodyParameterError, HttpError } from './errors.js';
import { type FormPart, MultipartError, parseMultipart } from './multipart.js';
import { settingDefault } from './process/config.js';

/** Limits on what one request may ask for. */
export interface RequestLimits {
  maxNames: number; // names per RES_NAMES / STA_NAMES list
  maxVariables: number; // entries per variables / datasets / also_return list
  maxUploadBytes: number; // the request body (the four shapefile parts together)
}

/** The limits when none are configured: the defaults of the server's settings (config.ts), not written again here. */
export const defaultRequestLimits: RequestLimits = {
  maxNames: settingDefault('max-names'),
  maxVariables: settingDefault('max-variables'),
  maxUploadBytes: settingDefault('max-upload-bytes'),
};

// which limit a list counts against, from the operations table; a list the table does not know counts as values
const namesLists = new Set(
  Object.values(parameters as Record<string, Parameter>)
    .filter((p) => p.limit === 'names')
    .map((p) => p.name),
);
const limitOf = (name: string): keyof RequestLimits => (namesLists.has(name) ? 'maxNames' : 'maxVariables');

/** The query parameters of one request; a repeated parameter takes its last value, as FastAPI does for a `str`. */
export class QueryParams {
  constructor(
    private readonly params: URLSearchParams,
    private readonly limits: RequestLimits,
  ) {}

  /** The names of the parameters sent, each once. */
  names(): string[] {
    return [...new Set(this.params.keys())];
  }

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
    const limit = this.limits[limitOf(name)];
    if (items.length > limit) {
      throw new InvalidParameterError(name, `${name} has ${items.length} values; at most ${limit} are allowed per request`, 'too-many', value);
    }
    return items;
  }
}

/**
 * The header's value for the parameters sent that are not `known`: each name, with the known one it most likely
 * meant (`RES_NAME (did you mean "RES_NAMES"?)`), comma-separated; undefined when every parameter is known. A name
 * is percent-encoded where it holds what a header may not (it is the client's text); at most ten are named.
 */
export function ignoredParameters(sent: QueryParams, known: readonly string[]): string | undefined {
  const ignored = sent.names().filter((name) => !known.includes(name));
  if (ignored.length === 0) return undefined;
  const shown = ignored.slice(0, 10).map((name) => {
    const text = /^[\x21-\x7e]+$/.test(name) && !/[",]/.test(name) ? name.slice(0, 60) : encodeURIComponent(name.slice(0, 60));
    return `${text}${didYouMean(name, known)}`;
  });
  return ignored.length > 10 ? `${shown.join(', ')}, and ${ignored.length - 10} more` : shown.join(', ');
}

/** What reading a body needs of a request: its headers (length, type) and the body itself. */
type BodyOf = { readonly headers: Headers; readonly body: ReadableStream<Uint8Array> | null };

/** The optional parts of a shapefile upload, each sent as the form field `shapefile_<part>`. */
export const shapefileParts = ['shp', 'dbf', 'prj', 'shx'] as const;

/** Parts of a form read at most: the four shapefile parts and a few other fields (672k tiny parts took 21 s and 1.5 GB). */
export const maxFormParts = 16;

/** The optional shapefile parts of a POST body: undefined for no body or a form without them. */
export async function readShapefileParts(request: BodyOf, limits: RequestLimits): Promise<ShapefileParts | undefined> {
  const bytes = await readBody(request, limits.maxUploadBytes);
  if (bytes.byteLength === 0) return undefined;
  const type = request.headers.get('content-type') ?? '';
  const fields = /^multipart\/form-data\s*(;|$)/i.test(type)
    ? multipartFields(bytes, type)
    : /^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)
      ? urlencodedFields(bytes)
      : undefined;
  if (!fields) {
    throw new BodyParameterError(
      'body',
      `the body must be multipart/form-data with the parts shapefile_shp, shapefile_dbf, shapefile_prj, shapefile_shx; got content-type ${JSON.stringify(type.slice(0, 80))}`,
      'malformed',
    );
  }
  // a misnamed part (a file sent as `shp` or `shapefile`) would otherwise be ignored and every name listed, unfiltered
  const known = shapefileParts.map((part) => `shapefile_${part}`);
  for (const name of new Set(fields.map((field) => field.name))) {
    if (!known.includes(name))
      throw new BodyParameterError(
        name.slice(0, 80),
        `unknown part ${JSON.stringify(name.slice(0, 80))}${didYouMean(name, known)}; the parts are ${known.join(', ')}`,
        'not-allowed',
      );
  }
  const parts: ShapefileParts = {};
  for (const part of shapefileParts) {
    const value = fields.filter((field) => field.name === `shapefile_${part}`).pop(); // when parts repeat, the last counts
    if (value === undefined) continue;
    if (!value.file) throw new BodyParameterError(`shapefile_${part}`, `shapefile_${part} must be an uploaded file, not a text field`, 'malformed');
    parts[part] = value.bytes;
  }
  return Object.keys(parts).length === 0 ? undefined : parts;
}

function multipartFields(bytes: Uint8Array, type: string): FormPart[] {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(type);
  try {
    if (!boundary) throw new MultipartError('malformed', 'the multipart body is malformed: the content-type has no boundary');
    return parseMultipart(bytes, boundary[1] ?? boundary[2]!, maxFormParts);
  } catch (error) {
    if (!(error instanceof MultipartError)) throw error;
    throw new BodyParameterError('body', error.message, error.reason);
  }
}

// A urlencoded form holds text only: a shapefile part in it is refused as a text field
function urlencodedFields(bytes: Uint8Array): FormPart[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pairs = 1;
  for (let at = text.indexOf('&'); at !== -1 && pairs <= maxFormParts; at = text.indexOf('&', at + 1)) pairs++;
  if (pairs > maxFormParts)
    throw new BodyParameterError('body', `the form has more than ${maxFormParts} fields: send the four shapefile parts as multipart/form-data`, 'too-many');
  return [...new URLSearchParams(text.toString('utf8')).keys()].map((name) => ({ name, file: false, bytes: new Uint8Array(0) }));
}

/** The whole body, refused with 413 as soon as it is known to exceed the limit (Content-Length, or while reading). */
export async function readBody(request: BodyOf, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
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
function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, `the request body exceeds the limit of ${maxBytes} bytes (the four shapefile parts together)`, { connection: 'close' });
}
