// Great-circle distances against known values and an independent formula (the spherical law of cosines), and the
// nearest point against a search by that formula.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_M, greatCircleMetres, nearestPoint } from '../../../lib/spatial/nearest.js';

const rad = Math.PI / 180;
function lawOfCosines(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const c = Math.sin(lat1 * rad) * Math.sin(lat2 * rad) + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.cos((lon2 - lon1) * rad);
  return EARTH_RADIUS_M * Math.acos(Math.min(1, Math.max(-1, c)));
}
const lon = fc.double({ min: -180, max: 180, noNaN: true });
const lat = fc.double({ min: -89, max: 89, noNaN: true });

describe('greatCircleMetres', () => {
  it('knows a degree of latitude, a quarter meridian and the antipode', () => {
    expect(greatCircleMetres(10, 0, 10, 1)).toBeCloseTo(111_195.08, 1);
    expect(greatCircleMetres(0, 0, 0, 90)).toBeCloseTo((Math.PI / 2) * 6_371_008.8, 3);
    expect(greatCircleMetres(0, 0, 180, 0)).toBeCloseTo(Math.PI * 6_371_008.8, 3);
    expect(greatCircleMetres(-114.74, 36.02, -114.74, 36.02)).toBe(0);
  });

  it('agrees with the law of cosines (beyond a kilometre, where that formula is well conditioned)', () => {
    fc.assert(
      fc.property(lon, lat, lon, lat, (x1, y1, x2, y2) => {
        const expected = lawOfCosines(x1, y1, x2, y2);
        fc.pre(expected > 1000);
        expect(Math.abs(greatCircleMetres(x1, y1, x2, y2) - expected)).toBeLessThan(0.5);
      }),
    );
  });
});

describe('nearestPoint', () => {
  it('finds the point a plain search by the law of cosines finds', () => {
    const point = fc.record({ name: fc.string(), lon, lat });
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 20 }), lon, lat, (points, x, y) => {
        const found = nearestPoint(points, x, y)!;
        const best = Math.min(...points.map((p) => lawOfCosines(x, y, p.lon, p.lat)));
        expect(lawOfCosines(x, y, found.point.lon, found.point.lat)).toBeLessThanOrEqual(best + 1);
      }),
    );
    expect(nearestPoint([], 0, 0)).toBeUndefined();
  });
});
