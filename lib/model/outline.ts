// A water body's fetch by wind sector from its outline: the mean length of open water along each of 12 directions.
// docs/model.md says why the mean (not the longest) length. proj4 is loaded by this file only: a run without an outline
// never loads it.
import proj4 from 'proj4';
import type { Polygons } from '../spatial/within.js';
import { fetchSectors } from './dlem.js';

/**
 * The fetch of each sector (30° × k, clockwise from north) of an outline in WGS84 longitude/latitude: the water's area
 * divided by its width across that direction, which is the mean length of every straight line of water along the
 * direction. Coordinates are projected first onto a Lambert azimuthal equal-area plane centred on the outline, so
 * areas are exact and lengths true to a fraction of a percent across a 300 km lake.
 */
export function fetchFromPolygons(polygons: Polygons): Float64Array {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { bbox } of polygons) {
    west = Math.min(west, bbox[0]);
    south = Math.min(south, bbox[1]);
    east = Math.max(east, bbox[2]);
    north = Math.max(north, bbox[3]);
  }
  const plane = proj4('WGS84', `+proj=laea +lat_0=${(south + north) / 2} +lon_0=${(west + east) / 2} +x_0=0 +y_0=0 +ellps=WGS84 +units=m`);
  const rings = polygons.flatMap((polygon) =>
    polygon.rings.map((ring) => {
      const xy = new Float64Array(ring.length);
      for (let i = 0; i < ring.length; i += 2) [xy[i], xy[i + 1]] = plane.forward([ring[i]!, ring[i + 1]!]);
      return xy;
    }),
  );
  // outer rings and holes wind in opposite directions (shapefile and GeoJSON alike), so their signed areas add up
  const area = Math.abs(rings.reduce((sum, ring) => sum + signedArea(ring), 0));
  const fetch = new Float64Array(fetchSectors);
  for (let k = 0; k < fetchSectors; k++) {
    const bearing = (k * 30 * Math.PI) / 180;
    const [px, py] = [Math.cos(bearing), -Math.sin(bearing)]; // across the direction (east, north)
    let [low, high] = [Infinity, -Infinity];
    for (const ring of rings) {
      for (let i = 0; i < ring.length; i += 2) {
        const across = ring[i]! * px + ring[i + 1]! * py;
        if (across < low) low = across;
        if (across > high) high = across;
      }
    }
    fetch[k] = area / (high - low);
  }
  return fetch;
}

// Shoelace formula over a flat ring x0, y0, x1, y1, … (closed or not).
function signedArea(ring: Float64Array): number {
  let sum = 0;
  const n = ring.length;
  for (let i = 0; i < n; i += 2) {
    const j = (i + 2) % n;
    sum += ring[i]! * ring[j + 1]! - ring[j]! * ring[i + 1]!;
  }
  return sum / 2;
}

/** The polygons of a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection, as the shapefile reader gives them. */
export function polygonsFromGeoJson(json: unknown): Polygons {
  const polygons: { rings: Float64Array[]; bbox: [number, number, number, number] }[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const value = node as { type?: string; coordinates?: unknown; geometry?: unknown; features?: unknown[]; geometries?: unknown[] };
    if (value.type === 'FeatureCollection') for (const feature of value.features ?? []) visit(feature);
    else if (value.type === 'Feature') visit(value.geometry);
    else if (value.type === 'GeometryCollection') for (const geometry of value.geometries ?? []) visit(geometry);
    else if (value.type === 'Polygon') polygons.push(toPolygon(value.coordinates as number[][][]));
    else if (value.type === 'MultiPolygon') for (const polygon of value.coordinates as number[][][][]) polygons.push(toPolygon(polygon));
  };
  visit(json);
  if (polygons.length === 0) throw new Error('the GeoJSON holds no Polygon or MultiPolygon');
  return polygons;
}

function toPolygon(coordinates: number[][][]): { rings: Float64Array[]; bbox: [number, number, number, number] } {
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const rings = coordinates.map((ring) => {
    const flat = new Float64Array(ring.length * 2);
    ring.forEach(([lon, lat], i) => {
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) throw new Error(`a GeoJSON position is not two numbers: ${JSON.stringify([lon, lat])}`);
      flat[2 * i] = lon!;
      flat[2 * i + 1] = lat!;
      bbox[0] = Math.min(bbox[0], lon!);
      bbox[1] = Math.min(bbox[1], lat!);
      bbox[2] = Math.max(bbox[2], lon!);
      bbox[3] = Math.max(bbox[3], lat!);
    });
    return flat;
  });
  return { rings, bbox };
}
