// A read-only Apache Iceberg REST catalog over the served databases (the `open-api/rest-catalog-open-api.yaml` of
// apache/iceberg): a namespace per database, its tables, each loaded with its whole metadata. A folder's tables are
// handed out at the server's own S3 endpoint (objects.ts) with the caller's key as access key; a bucket's as they are.
import { isBucketLocation } from '../../lib/store/bucket.js';
import { readTable, tablesBase } from '../../lib/tables/catalog.js';
import { tableNames } from '../../lib/tables/fields.js';
import { relocateMetadata, relocatePath } from '../../lib/tables/relocate.js';
import { WholeResponse } from '../answers.js';
import type { ServedDatabase } from '../databases.js';
import { HttpError } from '../errors.js';
import type { IncomingRequest } from '../incoming.js';
import { keyHeaders, presentedKey } from './credentials.js';
import { bucketOf } from './s3.js';

/** Where the catalog is: clients are given `<server>/iceberg/v1` as its URI. */
export const CATALOG_PATH = '/iceberg/v1';

// the reads served, as the specification names them in `endpoints` (no write is listed, so clients assume none)
const ENDPOINTS = [
  'GET /v1/{prefix}/namespaces',
  'GET /v1/{prefix}/namespaces/{namespace}',
  'HEAD /v1/{prefix}/namespaces/{namespace}',
  'GET /v1/{prefix}/namespaces/{namespace}/tables',
  'GET /v1/{prefix}/namespaces/{namespace}/tables/{table}',
  'HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}',
];

// the specification's error types by status (its examples' names)
const errorTypes: Record<number, string> = {
  400: 'BadRequestException',
  401: 'NotAuthorizedException',
  404: 'NotFoundException',
  406: 'UnsupportedOperationException',
  429: 'TooManyRequestsException',
  500: 'InternalServerError',
};

/** An error in the catalog's model: `{"error": {"message", "type", "code"}}`. */
class CatalogError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly type = errorTypes[code] ?? 'ServiceFailureException',
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}

interface CatalogOptions {
  databases: readonly ServedDatabase[];
  admit(request: { headers: { get(name: string): string | null } }): Promise<void>; // the key and the rate limit, as every path
  logError(message: string): void;
}

/** The catalog's handler, for paths under CATALOG_PATH. */
export function createCatalog(options: CatalogOptions): (request: IncomingRequest, path: string) => Promise<Response> {
  const byName = new Map(options.databases.map((d) => [d.name, d]));
  const servesFolders = options.databases.some((d) => !isBucketLocation(d.store.storage.location));

  const namespace = (text: string): ServedDatabase => {
    const name = decodeURIComponent(text);
    const database = byName.get(name); // one level: a name with the separator (0x1F) is no database
    if (!database) throw new CatalogError(404, `namespace does not exist: ${name.slice(0, 80)}`, 'NoSuchNamespaceException');
    return database;
  };

  const loadTable = async (request: IncomingRequest, database: ServedDatabase, table: string) => {
    const storage = database.store.storage;
    const stored = tableNames.includes(table) ? await readTable(storage, table) : undefined;
    if (!stored) throw new CatalogError(404, `table does not exist: ${database.name}.${table.slice(0, 80)}`, 'NoSuchTableException');
    if (isBucketLocation(storage.location)) return { 'metadata-location': stored.file, metadata: stored.metadata, config: {} };
    const from = tablesBase(storage);
    const root = `s3://${bucketOf(database.name)}`;
    return {
      ...(resolvesMetadataLocationWrongly(request) ? {} : { 'metadata-location': relocatePath(stored.file, from, root) }),
      metadata: relocateMetadata(stored.metadata, from, root),
      // the caller's own key, as the access key of the server's S3 endpoint (its signature is not checked)
      config: { ...s3Config(request), 's3.access-key-id': presentedKey(request)!, 's3.secret-access-key': 'not-checked' },
    };
  };

  const route = async (request: IncomingRequest, path: string): Promise<Response> => {
    const parts = path.slice(CATALOG_PATH.length).split('/').slice(1);
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (parts.length === 1 && parts[0] === 'config') {
      if (request.method !== 'GET') throw new CatalogError(406, `${request.method} /config: this catalog is read-only`);
      return json({ defaults: servesFolders ? s3Config(request) : {}, overrides: {}, endpoints: ENDPOINTS });
    }
    if (parts[0] !== 'namespaces' || parts.length > 4 || (parts.length >= 3 && parts[2] !== 'tables')) {
      throw new CatalogError(404, `no such catalog path: ${path.slice(0, 200)}; the reads served are listed by GET ${CATALOG_PATH}/config`);
    }
    if (!read || (request.method === 'HEAD' && parts.length % 2 === 1)) {
      throw new CatalogError(406, `${request.method} ${path.slice(0, 200)}: this catalog is read-only; see GET ${CATALOG_PATH}/config`);
    }
    if (parts.length === 1) {
      const parent = request.url.searchParams.get('parent') ?? '';
      if (parent !== '') namespace(parent.split('\x1f')[0]!); // a database has no namespace inside
      const names = parent === '' ? options.databases.map((d) => [d.name]) : [];
      return json({ namespaces: names });
    }
    const database = namespace(parts[1]!);
    if (parts.length === 2) {
      if (request.method === 'HEAD') return new Response(null, { status: 204 });
      const about = database.store.about();
      return json({ namespace: [database.name], properties: { title: about.title, data: about.data, licence: about.licence } });
    }
    if (parts.length === 3) {
      const stored = await Promise.all(tableNames.map((t) => database.store.storage.exists(`tables/${t}/metadata/version-hint.text`)));
      return json({ identifiers: tableNames.filter((_, i) => stored[i]).map((name) => ({ namespace: [database.name], name })) });
    }
    const loaded = await loadTable(request, database, decodeURIComponent(parts[3]!));
    if (request.method === 'HEAD') return new Response(null, { status: 204 });
    return json(loaded);
  };

  return async (request, path) => {
    try {
      await options.admit(keyHeaders(request));
      return await route(request, path);
    } catch (error) {
      return errorAnswer(error, options.logError);
    }
  };
}

/**
 * ClickHouse (26.7, as in chdb 3.4) joins an announced metadata-location to the table's path on a custom S3 endpoint
 * without taking the bucket out (`/b/tables/t/b/tables/t/metadata/v1.metadata.json`); without one (the specification
 * allows it) it lists the table's `metadata/` folder and reads the newest version, which is the same file.
 */
function resolvesMetadataLocationWrongly(request: IncomingRequest): boolean {
  return /^ClickHouse\//.test(request.headers.get('user-agent') ?? '');
}

/** How a client reaches the server's S3 endpoint: the server as it was asked for, path-style. */
function s3Config(request: IncomingRequest): Record<string, string> {
  const host = request.headers.get('host') ?? request.url.host;
  const scheme = request.headers.get('x-forwarded-proto') === 'https' ? 'https' : 'http';
  return { 's3.endpoint': `${scheme}://${host}`, 's3.path-style-access': 'true', 's3.region': 'us-east-1' };
}

function json(value: unknown): Response {
  // no-store: a table's answer carries the caller's key
  return new WholeResponse(JSON.stringify(value), { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

function errorAnswer(error: unknown, logError: (message: string) => void): Response {
  let failure: CatalogError;
  const headers: Record<string, string> = {};
  if (error instanceof CatalogError) failure = error;
  else if (error instanceof HttpError) {
    failure = new CatalogError(error.status, error.message);
    Object.assign(headers, error.headers);
  } else if (error instanceof URIError) failure = new CatalogError(400, `malformed path: ${error.message}`);
  else {
    logError(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    failure = new CatalogError(500, 'Internal Server Error');
  }
  const body = JSON.stringify({ error: { message: failure.message, type: failure.type, code: failure.code } });
  return new WholeResponse(body, { status: failure.code, headers: { 'content-type': 'application/json', ...headers } });
}
