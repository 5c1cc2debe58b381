// OGC API - EDR over an observation collection: its places as locations, the nearest place to a point, the places in
// a polygon; each answer a CoverageJSON point series per place (or GeoJSON features, f=GeoJSON).
import type { UnitSystem } from '../../lib/catalogue.js';
import { nearestPoint } from '../../lib/spatial/nearest.js';
import { type Polygon, pointInPolygons } from '../../lib/spatial/within.js';
import type { StoreReader } from '../../lib/store/store.js';
import type { WireRecord } from '../../lib/types.js';
import { HttpError } from '../errors.js';
import { type Collection, dayRange, placeRows, wireKey } from './collections.js';
import { link, type OgcContext } from './context.js';
import { type Feature, GEOJSON, observationFeature, observationStream, pointOf } from './items.js';
import { readDatetime, readUnits } from './parameters.js';

const COVJSON = 'application/prs.coverage+json';

/** The most values (days x parameters x places) one EDR answer holds; above it the answer is refused (ask for fewer days). */
const MAX_EDR_VALUES = 2_000_000;

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

/** parameter-name (or parameter_names, as OWSLib sends): variable names of the collection; undefined for all. */
function readParameters(params: URLSearchParams, collection: Collection): string[] | undefined {
  const text = params.get('parameter-name') ?? params.get('parameter_names');
  if (text === null) return undefined;
  const names = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const name of names)
    if (!collection.variables.some((v) => v.name === name))
      throw bad(
        `parameter-name: ${JSON.stringify(name.slice(0, 60))} is not a parameter of ${collection.id}; parameters: ${collection.variables.map((v) => v.name).join(', ')}`,
      );
  return names;
}

/** The series of some places: one CoverageJSON point series each (a CoverageCollection), or GeoJSON observation features. */
export async function series(
  store: StoreReader,
  collection: Collection,
  places: WireRecord[],
  ctx: OgcContext,
  extra: Record<string, unknown> = {},
): Promise<{ body: Record<string, unknown>; type: string }> {
  const units = readUnits(ctx.params);
  const wanted = readParameters(ctx.params, collection);
  const held = dayRange(store, collection);
  const asked = readDatetime(ctx.params.get('datetime'));
  const start = [asked.start, held?.start]
    .filter((d) => d !== undefined)
    .sort()
    .pop();
  const end = [asked.end, held?.end].filter((d) => d !== undefined).sort()[0];
  const variables = collection.variables.filter((v) => wanted === undefined || wanted.includes(v.name));
  const names = places.map((row) => String(row[collection.nameKey]));
  const byName = new Map(places.map((row) => [String(row[collection.nameKey]), row]));
  const geojson = ['GeoJSON', 'geojson'].includes(ctx.params.get('f') ?? '');
  const records: WireRecord[] = [];
  if (names.length > 0 && start !== undefined && end !== undefined && start <= end) {
    let values = 0;
    for await (const batch of ctx.admit(observationStream(store, collection, names, start, end, units, wanted)).batches) {
      values += batch.length * variables.length;
      if (values > MAX_EDR_VALUES) throw bad(`the answer would hold more than ${MAX_EDR_VALUES} values: ask for fewer days (datetime), parameters or places`);
      records.push(...batch);
    }
  }
  if (geojson) {
    const features: Feature[] = records.map((r) => observationFeature(collection, r, byName));
    return { body: { type: 'FeatureCollection', features, numberReturned: features.length, ...extra }, type: GEOJSON };
  }
  const coverages = names.flatMap((name) => {
    const point = pointOf(byName.get(name));
    if (point === null) return [];
    const rows = records.filter((r) => r[collection.nameKey] === name);
    return [coverage(name, point.coordinates, rows, variables, units)];
  });
  const parameters = Object.fromEntries(variables.map((v) => [v.name, parameter(v, units)]));
  return {
    body: {
      type: 'CoverageCollection',
      domainType: 'PointSeries',
      parameters,
      referencing: referencing(),
      coverages,
      ...extra,
    },
    type: COVJSON,
  };
}

function referencing() {
  return [
    { coordinates: ['x', 'y'], system: { type: 'GeographicCRS', id: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84' } },
    { coordinates: ['t'], system: { type: 'TemporalRS', calendar: 'Gregorian' } },
  ];
}

function parameter(v: Collection['variables'][number], units: UnitSystem) {
  const key = wireKey(v, units);
  const symbol = key.slice(v.name.length + 2, -1);
  return { type: 'Parameter', description: { en: v.description }, unit: { symbol }, observedProperty: { id: v.name, label: { en: v.description } } };
}

function coverage(name: string, [lon, lat]: [number, number], rows: WireRecord[], variables: Collection['variables'], units: UnitSystem) {
  return {
    type: 'Coverage',
    id: name,
    domain: {
      type: 'Domain',
      domainType: 'PointSeries',
      axes: { x: { values: [lon] }, y: { values: [lat] }, t: { values: rows.map((r) => `${r.start_date}T00:00:00Z`) } },
      referencing: referencing(),
    },
    ranges: Object.fromEntries(
      variables.map((v) => [
        v.name,
        {
          type: 'NdArray',
          dataType: 'float',
          axisNames: ['t'],
          shape: [rows.length],
          values: rows.map((r) => (r[wireKey(v, units)] as number | null | undefined) ?? null),
        },
      ]),
    ),
  };
}

/** /position: the place nearest the point, and its distance in metres. */
export function nearestPlace(store: StoreReader, collection: Collection, ctx: OgcContext): { place: WireRecord; metres: number } {
  const [lon, lat] = readPoint(ctx.params.get('coords'));
  const rows = placeRows(store, collection);
  const points = rows.flatMap((row) => {
    const p = pointOf(row);
    return p ? [{ name: String(row[collection.nameKey]), lon: p.coordinates[0], lat: p.coordinates[1] }] : [];
  });
  const found = nearestPoint(points, lon, lat);
  if (!found) throw new HttpError(404, `${collection.id} holds no located place`);
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
