// The OGC paths under /ogc, one function per path; the key is checked (header or api_key) by the caller's check.
import type { StoreReader } from '../../lib/open/store.js';
import type { WireRecord } from '../../lib/types.js';
import { WholeResponse } from '../answers.js';
import { HttpError } from '../errors.js';
import type { IncomingRequest } from '../incoming.js';
import { featureSchemaOf, findCollection, queryables, schemaOf } from './collections.js';
import { contextOf, KEY_PARAMETER, type LinkBase, link, OGC_PREFIX, type OgcContext } from './context.js';
import { collectionDocument, collectionList, conformance, landing } from './documents.js';
import { locations, nearestPlace, placesIn } from './edr.js';
import { htmlPage } from './html.js';
import { GEOJSON, items, oneItem, selectPlaces } from './items.js';
import { ogcOpenApi } from './openapi.js';
import { readUnits } from './parameters.js';
import { seriesAnswer } from './series.js';

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
  admit?: OgcContext['admit'],
  basePath = '', // the database's prefix (`/twdb`) when the server serves several: every link names it
  links: LinkBase = {},
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    throw new HttpError(405, `method ${request.method} is not allowed on ${path.slice(0, 200)}; allowed: GET`, { allow: 'GET' });
  const ctx = contextOf(request, admit, basePath, links);
  const asOf = ctx.params.get('as_of');
  if (asOf === null) return route(store, ctx, path.slice(OGC_PREFIX.length));
  const view = await store.asOf(asOf);
  try {
    return await route(view, ctx, path.slice(OGC_PREFIX.length)); // a streamed answer holds the view's lease until read (as runAsOf's do)
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
  if (sub === 'schema' && id === undefined) {
    const feature = ctx.params.get('profile') === 'feature'; // the GeoJSON feature's shape, as GDAL reads it
    const shape = feature ? featureSchemaOf : schemaOf;
    const self = ctx.href(`${path}/schema`, feature ? { profile: 'feature' } : {});
    return answer(ctx, `${collection.title}: schema`, shape(collection, readUnits(ctx.params), self), 'application/schema+json');
  }
  if (sub === 'items' && id === undefined) return answer(ctx, `${collection.title}: features`, await items(store, collection, ctx), GEOJSON);
  if (sub === 'items') return answer(ctx, `${collection.title}: ${id}`, { ...(await oneItem(store, collection, id!, ctx)) }, GEOJSON);
  if (collection.observations) {
    // the places' series, then what the answer adds after them
    const edr = (places: WireRecord[], extra: Record<string, unknown> = {}) =>
      seriesAnswer(store, collection, places, ctx, collection.title, { ...extra, links: [link(ctx.href(path), 'collection', 'application/json')] });
    if (sub === 'locations' && id === undefined) return answer(ctx, `${collection.title}: locations`, locations(store, collection, ctx), GEOJSON);
    if (sub === 'locations') {
      const place = selectPlaces(store, collection, new URLSearchParams()).find((row) => String(row[collection.nameKey]) === id);
      if (!place) throw new HttpError(404, `no location ${JSON.stringify(id!.slice(0, 120))} in ${collection.id}`);
      return edr([place]);
    }
    if (sub === 'position' && id === undefined) {
      const { place, metres } = nearestPlace(store, collection, ctx);
      return edr([place], { nearest: { name: place[collection.nameKey], distance_m: Math.round(metres * 10) / 10 } });
    }
    if (sub === 'area' && id === undefined) return edr(placesIn(store, collection, ctx));
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
