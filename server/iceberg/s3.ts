// A read-only S3 endpoint over the tables of the served folders (lib/tables/objects.ts): GetObject (with Range),
// HeadObject, HeadBucket and ListObjectsV2, path-style (`/<bucket>/<key>`), a bucket per database named `evap.<name>`
// (a dot no database name or API path has), the caller's api-key as access key. Errors as S3 writes them, in XML.
import { isBucketLocation } from '../../lib/store/bucket.js';
import { TableObjects } from '../../lib/tables/objects.js';
import { WholeResponse } from '../answers.js';
import type { ServedDatabase } from '../databases.js';
import { HttpError } from '../errors.js';
import type { IncomingRequest } from '../incoming.js';
import { keyHeaders } from './credentials.js';

const BUCKET_PREFIX = 'evap.';

/** The bucket a database's tables are served in. */
export function bucketOf(database: string): string {
  return `${BUCKET_PREFIX}${database}`;
}

/** Whether a path is one of the endpoint's (its first segment a bucket name). */
export function isObjectPath(path: string): boolean {
  return path.startsWith(`/${BUCKET_PREFIX}`);
}

/** An S3 error: status, code and message. */
class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

interface ObjectOptions {
  databases: readonly ServedDatabase[];
  admit(request: { headers: { get(name: string): string | null } }): Promise<void>;
  logError(message: string): void;
}

/** The endpoint's handler, for paths isObjectPath accepts (the raw path: keys may hold what normalizing would change). */
export function createObjectEndpoint(options: ObjectOptions): (request: IncomingRequest) => Promise<Response> {
  // only folders: a bucket's tables name the bucket itself
  const buckets = new Map(
    options.databases
      .filter((d) => !isBucketLocation(d.store.storage.location))
      .map((d) => [bucketOf(d.name), new TableObjects(d.store.storage, `s3://${bucketOf(d.name)}`)]),
  );

  const route = async (request: IncomingRequest): Promise<Response> => {
    const raw = request.url.pathname.slice(1);
    const slash = raw.indexOf('/');
    const bucket = slash < 0 ? raw : raw.slice(0, slash);
    const key = slash < 0 ? '' : decodeURIComponent(raw.slice(slash + 1));
    const objects = buckets.get(bucket);
    if (!objects) throw new S3Error(404, 'NoSuchBucket', `no such bucket: ${bucket.slice(0, 80)}`);
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new S3Error(405, 'MethodNotAllowed', `${request.method}: this endpoint is read-only`);
    if (key === '') {
      if (request.method === 'HEAD') return new Response(null, { status: 200 });
      if (request.url.searchParams.has('location')) return xml('<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/"/>');
      return listObjects(objects, bucket, request.url.searchParams);
    }
    const size = await objects.size(key);
    if (size === undefined) throw new S3Error(404, 'NoSuchKey', `no such key: ${key.slice(0, 200)}`);
    const headers: Record<string, string> = { 'accept-ranges': 'bytes', etag: `"${size.toString(16)}-${hashKey(key)}"` };
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers: { ...headers, 'content-length': String(size) } });
    const range = readRange(request.headers.get('range'), size);
    if (range === 'unsatisfiable') throw new S3Error(416, 'InvalidRange', `range not satisfiable for ${size} bytes`, { 'content-range': `bytes */${size}` });
    const [start, end] = range ?? [0, size - 1];
    const bytes = end < start ? new Uint8Array(0) : ((await objects.read(key, start, end - start + 1)) ?? new Uint8Array(0));
    if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
    return new WholeResponse(bytes as Uint8Array<ArrayBuffer>, {
      status: range ? 206 : 200,
      headers: { ...headers, 'content-type': key.endsWith('.json') ? 'application/json' : 'application/octet-stream' },
    });
  };

  return async (request) => {
    try {
      await options.admit(keyHeaders(request));
      return await route(request);
    } catch (error) {
      return errorAnswer(error, options.logError);
    }
  };
}

/** ListObjectsV2 (and v1's marker): the keys under a prefix, a delimiter's common prefixes, a page at a time. */
async function listObjects(objects: TableObjects, bucket: string, params: URLSearchParams): Promise<Response> {
  const prefix = params.get('prefix') ?? '';
  const delimiter = params.get('delimiter') ?? '';
  const max = Math.min(1000, Math.max(0, Number.parseInt(params.get('max-keys') ?? '1000', 10) || 0));
  const after = params.get('continuation-token') ?? params.get('start-after') ?? params.get('marker') ?? '';
  const urlEncoded = params.get('encoding-type') === 'url';
  const text = (s: string) => escapeXml(urlEncoded ? encodeURIComponent(s).replaceAll('%2F', '/') : s);
  const entries: ({ key: string; bytes: number } | { common: string })[] = [];
  const seen = new Set<string>();
  for (const o of await objects.list(prefix)) {
    if (o.key <= after) continue;
    const cut = delimiter === '' ? -1 : o.key.indexOf(delimiter, prefix.length);
    if (cut < 0) entries.push(o);
    else {
      const common = o.key.slice(0, cut + delimiter.length);
      if (!seen.has(common) && common > after) entries.push({ common });
      seen.add(common);
    }
  }
  const page = entries.slice(0, max);
  const truncated = entries.length > page.length;
  const last = page.at(-1);
  const next = last === undefined ? '' : 'common' in last ? last.common : last.key;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    `<Name>${escapeXml(bucket)}</Name><Prefix>${text(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys>`,
    delimiter === '' ? '' : `<Delimiter>${text(delimiter)}</Delimiter>`,
    urlEncoded ? '<EncodingType>url</EncodingType>' : '',
    `<IsTruncated>${truncated}</IsTruncated>`,
    truncated ? `<NextContinuationToken>${escapeXml(next)}</NextContinuationToken><NextMarker>${text(next)}</NextMarker>` : '',
    ...page.map((e) =>
      'common' in e
        ? `<CommonPrefixes><Prefix>${text(e.common)}</Prefix></CommonPrefixes>`
        : `<Contents><Key>${text(e.key)}</Key><Size>${e.bytes}</Size><ETag>"${e.bytes.toString(16)}-${hashKey(e.key)}"</ETag><StorageClass>STANDARD</StorageClass></Contents>`,
    ),
    '</ListBucketResult>',
  ].join('');
  return xml(body);
}

/** A Range header's first range, clipped to the object; undefined for none (or one not in bytes). */
function readRange(header: string | null, size: number): [number, number] | 'unsatisfiable' | undefined {
  const match = header === null ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim().split(',')[0]!.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  if (start >= size) return 'unsatisfiable';
  return [start, match[2] === '' ? size - 1 : Math.min(size - 1, Number(match[2]))];
}

// a short tag of a key for ETags (objects are written once under their names: the key and size identify them)
function hashKey(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function xml(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new WholeResponse(body, { status, headers: { 'content-type': 'application/xml', ...headers } });
}

function errorAnswer(error: unknown, logError: (message: string) => void): Response {
  let failure: S3Error;
  if (error instanceof S3Error) failure = error;
  else if (error instanceof HttpError) {
    // a missing or refused key is S3's AccessDenied; a rate limit its SlowDown
    failure =
      error.status === 429
        ? new S3Error(503, 'SlowDown', error.message, error.headers)
        : new S3Error(error.status === 401 ? 403 : error.status, error.status === 401 ? 'AccessDenied' : 'InvalidRequest', error.message, error.headers);
  } else if (error instanceof URIError) failure = new S3Error(400, 'InvalidURI', `malformed key: ${error.message}`);
  else {
    logError(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    failure = new S3Error(500, 'InternalError', 'Internal Server Error');
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${failure.code}</Code><Message>${escapeXml(failure.message)}</Message></Error>`;
  return xml(body, failure.status, failure.headers);
}
