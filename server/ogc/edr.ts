// OGC API - EDR over an observation collection: its places as locations, the nearest place to a point, the places in
// a polygon; each answer their series (series.ts).
import type { StoreReader } from '../../lib/open/store.js';
import { nearestPoint } from '../../lib/spatial/nearest.js';
import { type Polygon, pointInPolygons } from '../../lib/spatial/within.js';
import type { WireRecord } from '../../lib/types.js';
import { HttpError } from '../errors.js';
import { type Collection, placeRows } from './collections.js';
import { link, type OgcContext } from './context.js';
import { GEOJSON, pointOf } from './items.js';

const bad = (message: string) => new HttpError(400, message);

/** The places of a collection as EDR locations (GeoJSON points, id the name). */
export function locations(store: StoreReader, collection: Collection, ctx: OgcContext): Record<string, unknown> {
  const path = `/collections/${encodeURIComponent(collection.id)}/locations`;
  return {
    type: 'FeatureCollection',
    features: placeRows(store, collection).map((row) => {
      const name = String(row[collection.nameKey]);
      return { type: 'Feature', id: name, geometry: pointOf(row), properties: { name, ...row, detail: ctx.href(`${path}/${encodeURIComponent(name)}`) } };
    }),
    links: [link(ctx.href(path), 'self', GEOJSON)],
  };
}

/** `POINT(lon lat)` -> [lon, lat]. */
function readPoint(text: string | null): [number, number] {
  const match = /^\s*POINT\s*\(\s*(\S+)\s+(\S+)\s*\)\s*$/i.exec(text ?? '');
  const lon = Number(match?.[1]);
  const lat = Number(match?.[2]);
  if (!match || !Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    throw bad('coords must be POINT(lon lat) in WGS 84');
  return [lon, lat];
}

/** `POLYGON((x y, ...), (hole...))` or `MULTIPOLYGON(((...)), ...)` -> polygons (even-odd rings). */
function readPolygon(text: string | null): Polygon[] {
  const source = (text ?? '').trim();
  const kind = /^(MULTI)?POLYGON\s*\(/i.exec(source);
  if (!kind) throw bad('coords must be POLYGON((lon lat, ...)) or MULTIPOLYGON in WGS 84');
  const body = source.slice(source.indexOf('('));
  const polygons: Polygon[] = [];
  // every innermost parenthesised list is a ring; a MULTIPOLYGON's polygons are rings joined by even-odd alike
  const rings = [...body.matchAll(/\(([^()]*)\)/g)].map((m) => {
    const values = m[1]!.split(',').flatMap((pair) => {
      const xy = pair.trim().split(/\s+/).map(Number);
      if (xy.length < 2 || !xy.every(Number.isFinite)) throw bad(`coords: ${JSON.stringify(pair.trim().slice(0, 40))} is not a lon lat pair`);
      return [xy[0]!, xy[1]!];
    });
    if (values.length < 8) throw bad('coords: a ring needs at least four points (the first repeated last)');
    return Float64Array.from(values);
  });
  if (rings.length === 0) throw bad('coords: no ring in the polygon');
  let bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings)
    for (let i = 0; i < ring.length; i += 2)
      bbox = [Math.min(bbox[0], ring[i]!), Math.min(bbox[1], ring[i + 1]!), Math.max(bbox[2], ring[i]!), Math.max(bbox[3], ring[i + 1]!)];
  polygons.push({ rings, bbox });
  return polygons;
}

/** How far /position looks without `within`: a click on a water body lands within this of its point (the points are
 * the water bodies' centres; a long reservoir's end can be tens of km away, so a caller widens it with `within`). */
export const DEFAULT_WITHIN_KM = 25;

/** `within-units` as OGC EDR names them (its radius query), in metres. */
const metresPer: Record<string, number> = { km: 1000, m: 1, mi: 1609.344 };

/** `within` (default DEFAULT_WITHIN_KM km) and `within-units` (default km) -> [metres, as the caller wrote it]. */
function readWithin(params: URLSearchParams): [number, string] {
  const units = (params.get('within-units') ?? 'km').toLowerCase();
  const per = metresPer[units];
  if (per === undefined) throw bad(`within-units must be one of ${Object.keys(metresPer).join(', ')}`);
  const text = params.get('within');
  if (text === null) return [DEFAULT_WITHIN_KM * 1000, `${DEFAULT_WITHIN_KM} km`];
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value) || value <= 0) throw bad('within must be a positive distance (within-units: km, m or mi; default km)');
  return [value * per, `${text.trim()} ${units}`];
}

/** /position: the place nearest the point, and its distance in metres; none within the distance is a 404. */
export function nearestPlace(store: StoreReader, collection: Collection, ctx: OgcContext): { place: WireRecord; metres: number } {
  const [lon, lat] = readPoint(ctx.params.get('coords'));
  const [limit, said] = readWithin(ctx.params);
  const rows = placeRows(store, collection);
  const points = rows.flatMap((row) => {
    const p = pointOf(row);
    return p ? [{ name: String(row[collection.nameKey]), lon: p.coordinates[0], lat: p.coordinates[1] }] : [];
  });
  const found = nearestPoint(points, lon, lat);
  if (!found) throw new HttpError(404, `${collection.id} holds no located place`);
  if (found.metres > limit) {
    const what = collection.places === 'reservoirs' ? 'no water body' : 'no station';
    const km = Math.round(found.metres / 100) / 10;
    throw new HttpError(
      404,
      `${what} within ${said} of POINT(${lon} ${lat}); the nearest, ${found.point.name}, is ${km} km away (widen with within=, within-units=km|m|mi)`,
    );
  }
  return { place: rows.find((row) => String(row[collection.nameKey]) === found.point.name)!, metres: found.metres };
}

/** /area: the places inside the polygon. */
export function placesIn(store: StoreReader, collection: Collection, ctx: OgcContext): WireRecord[] {
  const polygons = readPolygon(ctx.params.get('coords'));
  return placeRows(store, collection).filter((row) => {
    const p = pointOf(row);
    return p !== null && pointInPolygons(polygons, p.coordinates[0], p.coordinates[1]);
  });
}
