// The nearest of named points to a place, by great-circle distance (a sphere of the mean Earth radius).
import type { NamedPoint } from '../types.js';

/** The mean Earth radius, IUGG, in metres. */
export const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres between two WGS 84 points (haversine; within 0.5 % of the ellipsoid's). */
export function greatCircleMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point nearest (lon, lat) and its distance in metres; the first by name order on a tie; undefined for no points. */
export function nearestPoint(points: readonly NamedPoint[], lon: number, lat: number): { point: NamedPoint; metres: number } | undefined {
  let best: { point: NamedPoint; metres: number } | undefined;
  for (const point of points) {
    const metres = greatCircleMetres(lon, lat, point.lon, point.lat);
    if (best === undefined || metres < best.metres) best = { point, metres };
  }
  return best;
}
