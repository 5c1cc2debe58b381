// The OGC paths under /ogc, one function per path; the key is checked (header or api_key) by the caller's check.
import type { RecordStream } from '../../lib/format/stream.js';
import type { StoreReader } from '../../lib/store/store.js';
import { WholeResponse } from '../answers.js';
import { HttpError } from '../errors.js';
import type { IncomingRequest } from '../incoming.js';
import { findCollection, queryables, schemaOf } from './collections.js';
import { contextOf, KEY_PARAMETER, link, OGC_PREFIX, type OgcContext } from './context.js';
import { collectionDocument, collectionList, conformance, landing } from './documents.js';
import { locations, nearestPlace, placesIn, series } from './edr.js';
import { htmlPage } from './html.js';
import { GEOJSON, items, oneItem, selectPlaces } from './items.js';
import { ogcOpenApi } from './openapi.js';
import { readUnits } from './parameters.js';

/** The request with a key given as `api_key` moved into the api-key header (for the one key check of the server). */
export function withQueryKey(request: IncomingRequest): IncomingRequest {
  const key = request.url.searchParams.get(KEY_PARAMETER);
  if (key === null || request.headers.has('api-key')) return request;
  const headers = new Headers(request.headers);
  headers.set('api-key', key);
  return { ...request, headers };
}

function answer(ctx: OgcContext, title: string, body: Record<string, unknown>, type = 'application/json'): Response {
  if (ctx.html) return htmlPage(title, body);
  return new WholeResponse(JSON.stringify(body), { status: 200, headers: { 'content-type': type } });
}

/** Answers an OGC path (`path` normalized, starting /ogc). */
export async function ogcAnswer(
  store: StoreReader,
  request: IncomingRequest,
  path: string,
  admit?: (stream: RecordStream) => RecordStream,
  basePath = '', // the database's prefix (`/twdb`) when the server serves several: every link names it
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    throw new HttpError(405, `method ${request.method} is not allowed on ${path.slice(0, 200)}; allowed: GET`, { allow: 'GET' });
  const ctx = contextOf(request, admit, basePath);
  const asOf = ctx.params.get('as_of');
  if (asOf === null) return route(store, ctx, path.slice(OGC_PREFIX.length));
  const view = await store.asOf(asOf);
  try {
    return await route(view, ctx, path.slice(OGC_PREFIX.length)); // every answer is whole here, so the view closes after it
  } finally {
    await view.close();
  }
}

async function route(store: StoreReader, ctx: OgcContext, rest: string): Promise<Response> {
  if (rest === '') return answer(ctx, 'evap OGC API', landing(ctx));
  if (rest === '/conformance') return answer(ctx, 'Conformance', conformance(ctx));
  if (rest === '/openapi') {
    const doc = ogcOpenApi(ctx.base);
    return answer(ctx, 'evap OGC API: OpenAPI 3.0', doc, 'application/vnd.oai.openapi+json;version=3.0');
  }
  if (rest === '/collections') return answer(ctx, 'Collections', collectionList(store, ctx));
  const parts = rest.split('/').slice(1).map(decodePart); // ['collections', id, ...]
  if (parts[0] !== 'collections' || parts.length < 2 || parts.length > 4)
    throw new HttpError(404, `no such path: ${OGC_PREFIX}${rest.slice(0, 200)}; the OGC paths are listed at ${OGC_PREFIX}/openapi`);
  const collection = findCollection(parts[1]!);
  const [, , sub, id] = parts;
  const path = `/collections/${encodeURIComponent(collection.id)}`;
  if (sub === undefined) return answer(ctx, collection.title, collectionDocument(store, collection, ctx));
  if (sub === 'queryables' && id === undefined)
    return answer(ctx, `${collection.title}: queryables`, queryables(collection, ctx.href(`${path}/queryables`)), 'application/schema+json');
  if (sub === 'schema' && id === undefined)
    return answer(ctx, `${collection.title}: schema`, schemaOf(collection, readUnits(ctx.params), ctx.href(`${path}/schema`)), 'application/schema+json');
  if (sub === 'items' && id === undefined) return answer(ctx, `${collection.title}: features`, await items(store, collection, ctx), GEOJSON);
  if (sub === 'items') return answer(ctx, `${collection.title}: ${id}`, { ...(await oneItem(store, collection, id!, ctx)) }, GEOJSON);
  if (collection.observations) {
    const edr = (result: { body: Record<string, unknown>; type: string }) =>
      answer(ctx, collection.title, { ...result.body, links: [link(ctx.href(path), 'collection', 'application/json')] }, result.type);
    if (sub === 'locations' && id === undefined) return answer(ctx, `${collection.title}: locations`, locations(store, collection, ctx), GEOJSON);
    if (sub === 'locations') {
      const place = selectPlaces(store, collection, new URLSearchParams()).find((row) => String(row[collection.nameKey]) === id);
      if (!place) throw new HttpError(404, `no location ${JSON.stringify(id!.slice(0, 120))} in ${collection.id}`);
      return edr(await series(store, collection, [place], ctx));
    }
    if (sub === 'position' && id === undefined) {
      const { place, metres } = nearestPlace(store, collection, ctx);
      return edr(await series(store, collection, [place], ctx, { nearest: { name: place[collection.nameKey], distance_m: Math.round(metres * 10) / 10 } }));
    }
    if (sub === 'area' && id === undefined) return edr(await series(store, collection, placesIn(store, collection, ctx), ctx));
  }
  throw new HttpError(404, `no such path: ${OGC_PREFIX}${rest.slice(0, 200)}; the OGC paths are listed at ${OGC_PREFIX}/openapi`);
}

// a path segment as written; a broken %-escape names nothing here
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpError(404, `no such path: a broken %-escape in ${JSON.stringify(part.slice(0, 100))}`);
  }
}
