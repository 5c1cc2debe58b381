// A request's body: read whole within a limit (413 past it), and the shapefile parts of an upload, sent as
// multipart/form-data (RFC 7578) or refused as text fields of a urlencoded form. Multipart is read from the body
// already in memory: each part's bytes are a view into the body, found with Buffer.indexOf, and at most `maxParts`
// are read. undici's formData() copied every part and parsed a 46 MiB body in one piece of 160-280 ms, and 672k tiny
// parts in 21 s.

import { didYouMean } from '../lib/suggest.js';
import type { ShapefileParts } from '../lib/types.js';
import { BodyParameterError, HttpError } from './errors.js';
import type { RequestLimits } from './route.js';

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
    const { done, value } = await reader.read().catch((error: unknown) => {
      // the adapter's own refusals (a body too slow, no slot once it arrived) keep their status
      throw error instanceof HttpError ? error : new HttpError(400, 'the request body was cut off before its end');
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

/** One part: its field name, whether it was sent as a file (a `filename` parameter), and its bytes. */
interface FormPart {
  name: string;
  file: boolean;
  bytes: Uint8Array;
}

/** Why a body is refused: too many parts, or not multipart as RFC 7578 writes it. */
export class MultipartError extends Error {
  constructor(
    readonly reason: 'too-many' | 'malformed',
    message: string,
  ) {
    super(message);
    this.name = 'MultipartError';
  }
}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

/** The parts of a multipart body with the given boundary, in order; throws MultipartError. */
export function parseMultipart(body: Uint8Array, boundary: string, maxParts: number): FormPart[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const malformed = (problem: string) => new MultipartError('malformed', `the multipart body is malformed: ${problem}`);
  // the first delimiter opens the body, or follows a preamble
  const opens = bytes.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2));
  const first = opens ? 0 : bytes.indexOf(delimiter);
  if (first === -1) throw malformed('no boundary line');
  let at = opens ? delimiter.length - 2 : first + delimiter.length;
  const parts: FormPart[] = [];
  for (;;) {
    if (bytes[at] === 45 && bytes[at + 1] === 45) return parts; // `--boundary--`: the rest is an epilogue
    while (bytes[at] === 32 || bytes[at] === 9) at++; // transport padding
    if (!bytes.subarray(at, at + 2).equals(CRLF)) throw malformed('a boundary line does not end with CRLF');
    at += 2;
    const headersEnd = bytes.subarray(at, at + 2).equals(CRLF) ? at : bytes.indexOf(HEADERS_END, at);
    if (headersEnd === -1) throw malformed('a part has no end to its headers');
    const start = headersEnd === at ? at + 2 : headersEnd + 4;
    const end = bytes.indexOf(delimiter, start);
    if (end === -1) throw malformed('the body ends inside a part (no closing boundary)');
    if (parts.length === maxParts) throw new MultipartError('too-many', `the multipart body has more than ${maxParts} parts: send the four shapefile parts`);
    parts.push({ ...disposition(bytes.toString('utf8', at, headersEnd), malformed), bytes: bytes.subarray(start, end) });
    at = end + delimiter.length;
  }
}

// A quoted name or filename as browsers write it (the HTML standard's form encoding, undici's FormData too): a backslash
// is itself, not an escape, and ", CR and LF travel as %22, %0D and %0A, decoded here as the Fetch standard's parser does
const unescapeQuoted = (text: string) => text.replace(/%(0A|0D|22)/gi, (code) => String.fromCharCode(Number.parseInt(code.slice(1), 16)));

// The field name and file-ness from the part's Content-Disposition header.
function disposition(headers: string, malformed: (problem: string) => MultipartError): { name: string; file: boolean } {
  const line = headers.split('\r\n').find((h) => /^content-disposition\s*:/i.test(h));
  if (!line || !/^content-disposition\s*:\s*form-data\s*(;|$)/i.test(line)) throw malformed('a part has no Content-Disposition: form-data header');
  const params = new Map<string, string>();
  for (const [, key, quoted, bare] of line.matchAll(/;\s*([^\s=;]+)\s*=\s*(?:"([^"]*)"|([^;]*))/g)) {
    params.set(key!.toLowerCase(), quoted !== undefined ? unescapeQuoted(quoted) : bare!.trim());
  }
  const name = params.get('name');
  if (name === undefined) throw malformed('a part has no name');
  return { name, file: params.has('filename') || params.has('filename*') };
}
