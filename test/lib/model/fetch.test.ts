// The fetch by sector against geometry worked out by hand: a circle's mean chord, a latitude-longitude box's on the
// sphere, and the same outline in three projections made by GDAL (test/fixtures/shapefiles/make.sh).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fetchFromArea } from '../../../lib/model/fetch.js';
import { fetchFromPolygons, polygonsFromGeoJson } from '../../../lib/model/outline.js';
import { parseShapefile } from '../../../lib/spatial/within.js';

const shapefiles = join(import.meta.dirname, '../../fixtures/shapefiles');
const R = 6_371_008.8; // mean Earth radius, m

async function shapefile(name: string) {
  const part = (ext: string) => readFile(join(shapefiles, name, `${name}.${ext}`));
  return parseShapefile({ shp: await part('shp'), shx: await part('shx'), dbf: await part('dbf'), prj: await part('prj') });
}

// a circle of radius r metres around (lon, lat), as a GeoJSON ring of n vertices on the sphere
function circle(lon: number, lat: number, r: number, n = 720) {
  const ring = Array.from({ length: n + 1 }, (_, i) => {
    const a = (2 * Math.PI * (i % n)) / n;
    return [lon + ((r * Math.cos(a)) / (R * Math.cos((lat * Math.PI) / 180))) * (180 / Math.PI), lat + ((r * Math.sin(a)) / R) * (180 / Math.PI)];
  });
  return { type: 'Polygon', coordinates: [ring] };
}

describe('fetch by sector', () => {
  it('of a round lake is its mean chord, πr/2, in every direction; from its area alone the same', () => {
    for (const r of [500, 5_000, 40_000]) {
      const fetch = fetchFromPolygons(polygonsFromGeoJson(circle(-114.7, 36.1, r)));
      for (const f of fetch) expect(Math.abs(f / ((Math.PI * r) / 2) - 1)).toBeLessThan(0.005);
      expect(fetchFromArea(Math.PI * r * r)).toBeCloseTo((Math.PI * r) / 2, 6);
    }
  });

  it('of a latitude-longitude box: area over width, as worked out on the sphere', () => {
    // Colorado's box, 37-41 N by 7 degrees: its area R² Δλ (sin 41° − sin 37°); its width across the north direction
    // is its widest parallel, 37°, a chord on the plane of R Δλ cos 37° (to the projection's fraction)
    const rad = Math.PI / 180;
    const area = R * R * 7 * rad * (Math.sin(41 * rad) - Math.sin(37 * rad));
    const north = area / (R * 7 * rad * Math.cos(37 * rad));
    return shapefile('colorado_wgs84').then((polygons) => {
      const fetch = fetchFromPolygons(polygons);
      expect(Math.abs(fetch[0]! / north - 1)).toBeLessThan(0.005);
      expect(fetch[6]).toBeCloseTo(fetch[0]!, 6); // 180°: the same lines of water, crossed the other way
    });
  });

  it('of a long narrow lake at an angle: its length along it, its width across, LW / (L sin α + W cos α) between', () => {
    const [L, W, axis] = [20_000, 4_000, 30]; // metres; the long axis points 30° east of north
    const rad = Math.PI / 180;
    const along = [Math.sin(axis * rad), Math.cos(axis * rad)]; // east, north
    const across = [Math.cos(axis * rad), -Math.sin(axis * rad)];
    // metres per radian east and north at 40° on the WGS84 ellipsoid: the prime vertical and meridian radii
    const [a, e2, phi] = [6_378_137, 0.00669437999014, 40 * rad];
    const primeVertical = a / Math.sqrt(1 - e2 * Math.sin(phi) ** 2);
    const meridian = (a * (1 - e2)) / (1 - e2 * Math.sin(phi) ** 2) ** 1.5;
    const corner = (u: number, v: number) => {
      const [e, n] = [(u * along[0]! + v * across[0]!) / 2, (u * along[1]! + v * across[1]!) / 2];
      return [-110 + e / (primeVertical * Math.cos(phi)) / rad, 40 + n / meridian / rad];
    };
    const ring = [corner(L, W), corner(-L, W), corner(-L, -W), corner(L, -W), corner(L, W)];
    const fetch = fetchFromPolygons(polygonsFromGeoJson({ type: 'Polygon', coordinates: [ring] }));
    fetch.forEach((f, k) => {
      const alpha = (30 * k - axis) * rad; // the angle between the sector and the long axis
      const expected = (L * W) / (L * Math.abs(Math.sin(alpha)) + W * Math.abs(Math.cos(alpha)));
      expect(Math.abs(f / expected - 1), `sector ${30 * k}°`).toBeLessThan(0.002);
    });
  });

  it('does not depend on the projection the outline comes in', async () => {
    const [wgs84, utm, albers] = await Promise.all(['colorado_wgs84', 'colorado_utm13n', 'colorado_albers'].map(shapefile));
    const a = fetchFromPolygons(wgs84!);
    for (const other of [utm!, albers!]) {
      const b = fetchFromPolygons(other);
      a.forEach((f, k) => expect(Math.abs(b[k]! / f - 1)).toBeLessThan(0.003));
    }
  });

  it('subtracts an island (a hole) from the water', () => {
    const outer = circle(-100, 40, 10_000).coordinates[0]!;
    const hole = circle(-100, 40, 5_000).coordinates[0]!.slice().reverse();
    const ring = fetchFromPolygons(polygonsFromGeoJson({ type: 'Polygon', coordinates: [outer, hole] }));
    // area π(R² − r²) over the outer width 2R
    const expected = (Math.PI * (10_000 ** 2 - 5_000 ** 2)) / 20_000;
    for (const f of ring) expect(Math.abs(f / expected - 1)).toBeLessThan(0.005);
  });
});
