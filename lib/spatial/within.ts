// Shapefile parts -> polygons in WGS84 (proj4) -> the names of the points inside them.
import type proj4 from 'proj4';
import { nextTurn } from '../turns.js';
import type { NamedPoint, ShapefileParts } from '../types.js';
import { checkDbf, checkShx, partError, readShp, viewPart } from './shp.js';

/** One shape record: its rings in WGS84, combined by the even-odd rule, and their bounding box. */
export interface Polygon {
  rings: Float64Array[]; // each ring flat: lon0, lat0, lon1, lat1, ... (flat for speed over many vertices)
  bbox: [number, number, number, number]; // minLon, minLat, maxLon, maxLat
}

/** The polygons of a shapefile; a point is inside when it is inside any of them. */
export type Polygons = readonly Polygon[];

/** The longest .prj read: a projection's WKT is under 1 KB, WKT2 with all its metadata a few KB (proj4 took 7.8 s on 38 MiB). */
export const maxPrjBytes = 64 * 1024;

// Vertices reprojected, or edges tested, between two turns of the event loop (about 25 ms of proj4): a 50 MiB .shp
// is 3M vertices, seconds of work in one piece otherwise, during which a server answers nothing else.
const sliceWork = 1 << 14;

/** Parses the shapefile parts, reprojects from the .prj WKT to WGS84 (proj4), and returns the polygons. */
export async function parseShapefile(parts: ShapefileParts): Promise<Polygons> {
  if (!parts.shp) throw partError('shp', 'is missing: it is required when any shapefile part is sent');
  const shp = viewPart('shp', parts.shp);
  // check every sent part for emptiness or a zip before reading any of them
  const shx = parts.shx && viewPart('shx', parts.shx);
  const dbf = parts.dbf && viewPart('dbf', parts.dbf);
  const prj = parts.prj && viewPart('prj', parts.prj);
  if (prj && prj.byteLength > maxPrjBytes) throw partError('prj', `is ${prj.byteLength} bytes: a projection's WKT is at most ${maxPrjBytes} bytes`);
  const records = readShp(shp);
  if (shx) checkShx(shx, records);
  if (dbf) checkDbf(dbf, records.length);
  const project = prj ? await readProjection(prj) : undefined; // no .prj: coordinates are WGS84 lon/lat
  const polygons: Polygon[] = [];
  const turn = new Turn();
  for (const record of records) if (record.rings.length > 0) polygons.push(await toPolygon(record.rings, project, turn));
  if (polygons.length === 0) throw partError('shp', `contains no polygons (${records.length} empty records)`);
  return polygons;
}

/** The names of the points that lie inside the shapefile's polygons, in input order. */
export async function filterPointsByShapefile(parts: ShapefileParts, points: readonly NamedPoint[]): Promise<string[]> {
  const polygons = await parseShapefile(parts);
  const edges = polygons.reduce((n, polygon) => n + polygon.rings.reduce((m, ring) => m + ring.length / 2, 0), 0);
  const turn = new Turn();
  const inside: string[] = [];
  for (const point of points) {
    if (pointInPolygons(polygons, point.lon, point.lat)) inside.push(point.name);
    await turn.spend(edges); // at most: the bounding boxes usually spare most of it
  }
  return inside;
}

// Counts work done and lets the event loop turn once a slice of it is spent.
class Turn {
  private left = sliceWork;

  async spend(work: number): Promise<void> {
    this.left -= work;
    if (this.left > 0) return;
    this.left = sliceWork;
    await nextTurn();
  }
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
    const xi = ring[i]!,
      yi = ring[i + 1]!,
      xj = ring[j]!,
      yj = ring[j + 1]!;
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
async function readProjection(view: DataView): Promise<Project> {
  const wkt = new TextDecoder()
    .decode(view)
    .replace(/^\uFEFF/, '')
    .trim();
  if (wkt === '') throw partError('prj', 'is an empty file');
  const { default: toWgs84 } = await import('proj4'); // loaded by the first .prj, not by every process (about 50 ms of CPU)
  let converter: proj4.Converter;
  try {
    converter = toWgs84(wkt, 'WGS84');
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
async function toPolygon(rings: Float64Array[], project: Project | undefined, turn: Turn): Promise<Polygon> {
  const bbox: Polygon['bbox'] = [Infinity, Infinity, -Infinity, -Infinity];
  const projected: Float64Array[] = [];
  for (const ring of rings) {
    const flat = new Float64Array(ring.length);
    for (let from = 0; from < ring.length; from += 2 * sliceWork) {
      const to = Math.min(ring.length, from + 2 * sliceWork);
      for (let i = from; i < to; i += 2) {
        const x = ring[i]!,
          y = ring[i + 1]!;
        const [lon, lat] = project ? project(x, y) : [x, y];
        if (!(Math.abs(lon) <= 180 && Math.abs(lat) <= 90)) {
          throw project
            ? partError('prj', `does not fit the .shp: (${x}, ${y}) reprojects to (${lon}, ${lat}), outside WGS84 lon/lat`)
            : partError('prj', `is missing, so coordinates are read as WGS84 lon/lat, but (${x}, ${y}) is not: send the .prj`);
        }
        flat[i] = lon;
        flat[i + 1] = lat;
        bbox[0] = Math.min(bbox[0], lon);
        bbox[1] = Math.min(bbox[1], lat);
        bbox[2] = Math.max(bbox[2], lon);
        bbox[3] = Math.max(bbox[3], lat);
      }
      await turn.spend((to - from) / 2);
    }
    projected.push(flat);
  }
  return { rings: projected, bbox };
}
