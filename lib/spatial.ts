// Shapefile parts -> polygons in WGS84 (proj4) -> the names of the points inside them.
import proj4 from 'proj4';
import type { NamedPoint, ShapefileParts } from './types.js';
import { checkDbf, checkShx, partError, readShp, viewPart } from './spatial/shp.js';

/** One shape record: its rings in WGS84, combined by the even-odd rule, and their bounding box. */
export interface Polygon {
  rings: Float64Array[]; // each ring flat: lon0, lat0, lon1, lat1, ... (flat for speed over many vertices)
  bbox: [number, number, number, number]; // minLon, minLat, maxLon, maxLat
}

/** The polygons of a shapefile; a point is inside when it is inside any of them. */
export type Polygons = readonly Polygon[];

/** Parses the shapefile parts, reprojects from the .prj WKT to WGS84 (proj4), and returns the polygons. */
export async function parseShapefile(parts: ShapefileParts): Promise<Polygons> {
  if (!parts.shp) throw partError('shp', 'is missing: it is required when any shapefile part is sent');
  const shp = viewPart('shp', parts.shp);
  // check every sent part for emptiness or a zip before reading any of them
  const shx = parts.shx && viewPart('shx', parts.shx);
  const dbf = parts.dbf && viewPart('dbf', parts.dbf);
  const prj = parts.prj && viewPart('prj', parts.prj);
  const records = readShp(shp);
  if (shx) checkShx(shx, records);
  if (dbf) checkDbf(dbf, records.length);
  const project = prj ? readProjection(prj) : undefined; // no .prj: coordinates are WGS84 lon/lat
  const polygons = records.filter((record) => record.rings.length > 0).map((record) => toPolygon(record.rings, project));
  if (polygons.length === 0) throw partError('shp', `contains no polygons (${records.length} empty records)`);
  return polygons;
}

/** The names of the points that lie inside the shapefile's polygons, in input order. */
export async function filterPointsByShapefile(parts: ShapefileParts, points: readonly NamedPoint[]): Promise<string[]> {
  const polygons = await parseShapefile(parts);
  return points.filter((point) => pointInPolygons(polygons, point.lon, point.lat)).map((point) => point.name);
}

/** Whether the point lies inside (or on the boundary of) any of the polygons. */
export function pointInPolygons(polygons: Polygons, lon: number, lat: number): boolean {
  return polygons.some((polygon) => {
    const [minLon, minLat, maxLon, maxLat] = polygon.bbox;
    if (!(lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat)) return false; // also rejects NaN
    let inside = false;
    for (const ring of polygon.rings) {
      const crossings = countCrossings(ring, lon, lat);
      if (crossings === 'boundary') return true; // a point exactly on an edge or vertex counts as inside
      if (crossings % 2 === 1) inside = !inside;
    }
    return inside;
  });
}

// Even-odd ray casting to +x (orientation-independent); 'boundary' when the point is on an edge of the ring.
function countCrossings(ring: Float64Array, x: number, y: number): number | 'boundary' {
  let count = 0;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const xi = ring[i]!, yi = ring[i + 1]!, xj = ring[j]!, yj = ring[j + 1]!;
    if (yi > y === yj > y) {
      // the edge does not straddle the ray's line; it may still contain the point if horizontal through it
      if (yi === y && (xi === x || (yj === y && x >= Math.min(xi, xj) && x <= Math.max(xi, xj)))) return 'boundary';
      continue;
    }
    const cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
    if (cross === 0) return 'boundary';
    // the crossing is right of the point when the cross product has the sign of the edge's upward direction
    if (cross > 0 === yj > yi) count++;
  }
  return count;
}

type Project = (x: number, y: number) => [number, number];

// proj4 throws strings and TypeErrors for WKT it cannot read; every failure becomes a typed error.
function readProjection(view: DataView): Project {
  const wkt = new TextDecoder().decode(view).replace(/^\uFEFF/, '').trim();
  if (wkt === '') throw partError('prj', 'is an empty file');
  let converter: proj4.Converter;
  try {
    converter = proj4(wkt, 'WGS84');
  } catch (error) {
    throw partError('prj', `is an unknown or malformed projection (${describe(error)}): ${wkt.slice(0, 80)}`);
  }
  return (x, y) => {
    try {
      const [lon, lat] = converter.forward([x, y]);
      return [lon!, lat!];
    } catch (error) {
      throw partError('prj', `cannot reproject (${x}, ${y}) to WGS84 (${describe(error)})`);
    }
  };
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 120);
}

// Reprojects the rings and checks that every vertex lands on the globe, which catches a .prj that does not fit.
function toPolygon(rings: [number, number][][], project: Project | undefined): Polygon {
  const bbox: Polygon['bbox'] = [Infinity, Infinity, -Infinity, -Infinity];
  const projected = rings.map((ring) => {
    const flat = new Float64Array(2 * ring.length);
    ring.forEach(([x, y], i) => {
      const [lon, lat] = project ? project(x, y) : [x, y];
      if (!(Math.abs(lon) <= 180 && Math.abs(lat) <= 90)) {
        throw project
          ? partError('prj', `does not fit the .shp: (${x}, ${y}) reprojects to (${lon}, ${lat}), outside WGS84 lon/lat`)
          : partError('prj', `is missing, so coordinates are read as WGS84 lon/lat, but (${x}, ${y}) is not: send the .prj`);
      }
      flat[2 * i] = lon;
      flat[2 * i + 1] = lat;
      bbox[0] = Math.min(bbox[0], lon);
      bbox[1] = Math.min(bbox[1], lat);
      bbox[2] = Math.max(bbox[2], lon);
      bbox[3] = Math.max(bbox[3], lat);
    });
    return flat;
  });
  return { rings: projected, bbox };
}
