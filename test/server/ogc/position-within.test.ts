// EDR /position over a real socket: the nearest place only within a distance (`within`, `within-units`, as EDR's radius
// query names them), a 404 naming the nearest past it. The oracle is a plain haversine loop over the metadata rows.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness.js';

const server = await startTestServer();
afterAll(() => server.close());

const R = 6_371_008.8; // mean Earth radius, metres (IUGG)
const rad = (d: number) => (d * Math.PI) / 180;
function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(a));
}
function nearest(kind: 'reservoirs' | 'stations', lon: number, lat: number): { name: string; metres: number } {
  let best = { name: '', metres: Infinity };
  for (const row of server.store.metadataRows(kind)) {
    if (typeof row.LON !== 'number' || typeof row.LAT !== 'number') continue;
    const metres = haversine(lon, lat, row.LON, row.LAT);
    if (metres < best.metres) best = { name: String(row[kind === 'reservoirs' ? 'RES_NAME' : 'STA_NAME']), metres };
  }
  return best;
}
const position = (collection: string, lon: number, lat: number, extra = '') =>
  server.get(`/ogc/collections/${collection}/position?coords=POINT(${lon}%20${lat})&datetime=2020-01-01${extra}`);

describe('EDR position: within', () => {
  it('a point in Ohio finds no water body within the default 25 km, and names the nearest and its distance', async () => {
    const far = nearest('reservoirs', -80, 40);
    expect(far.metres).toBeGreaterThan(1_000_000); // the demo store holds western reservoirs only
    const response = await position('lem', -80, 40);
    expect(response.status).toBe(404);
    const { detail } = (await response.json()) as { detail: string };
    expect(detail).toContain('no water body within 25 km of POINT(-80 40)');
    expect(detail).toContain(`the nearest, ${far.name}, is ${Math.round(far.metres / 100) / 10} km away`);
  });

  it('within widens the search: the plain loop nearest, in km, m and mi', async () => {
    const far = nearest('reservoirs', -80, 40);
    const body = (await (await position('lem', -80, 40, '&within=2000&within-units=km')).json()) as { nearest: { name: string; distance_m: number } };
    expect(body.nearest.name).toBe(far.name);
    expect(body.nearest.distance_m).toBeCloseTo(far.metres, -1);
    // one degree north of the northernmost reservoir: 111.195 km away
    const rows = server.store.metadataRows('reservoirs');
    const north = rows.reduce((a, b) => ((b.LAT as number) > (a.LAT as number) ? b : a));
    const [lon, lat] = [north.LON as number, (north.LAT as number) + 1];
    const status = async (extra: string) => (await position('lem', lon, lat, extra)).status;
    expect(await status('')).toBe(404);
    expect(await status('&within=111000&within-units=m')).toBe(404);
    expect(await status('&within=111400&within-units=m')).toBe(200);
    expect(await status('&within=69&within-units=mi')).toBe(404); // 111.05 km
    expect(await status('&within=69.2&within-units=MI')).toBe(200); // 111.37 km
    expect(await status('&within=112')).toBe(200); // km by default
  });

  it('a point on a reservoir answers by default', async () => {
    const mead = server.store.metadataRows('reservoirs').find((r) => r.RES_NAME === 'LAKE MEAD')!;
    const [lon, lat] = [(mead.LON as number) + 0.1, mead.LAT as number];
    const expected = nearest('reservoirs', lon, lat);
    expect(expected.metres).toBeLessThan(25_000);
    const response = await position('lem', lon, lat);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { nearest: { name: string } }).nearest.name).toBe(expected.name);
  });

  it('stations say "no station"; bad within values are 400 naming the fix', async () => {
    const response = await position('station-values', -80, 40);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/^no station within 25 km/);
    for (const extra of ['&within=-1', '&within=abc', '&within=', '&within=5&within-units=furlong']) {
      const bad = await position('lem', -80, 40, extra);
      expect(bad.status, extra).toBe(400);
      expect(((await bad.json()) as { detail: string }).detail, extra).toMatch(/^within(-units)? must be/);
    }
  });
});
