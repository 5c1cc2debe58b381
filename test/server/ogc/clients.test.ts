// Real OGC clients over loopback: GDAL's OAPIF driver (ogrinfo, ogr2ogr) and OWSLib, each answer compared with the
// library's own. Debian's gdal-bin and python3-owslib provide them; where EVAP_OGC_CLIENTS=required (.ci/run) a
// missing client fails the file, elsewhere the file says loudly that it did not run.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../harness.js';

const run = promisify(execFile);
const python = '/usr/bin/python3';

async function missingClient(): Promise<string | undefined> {
  try {
    await run('ogrinfo', ['--version']);
  } catch {
    return 'ogrinfo (Debian: apt-get install gdal-bin)';
  }
  try {
    await run(python, ['-c', 'import owslib.ogcapi.features']);
  } catch {
    return 'OWSLib (Debian: apt-get install python3-owslib)';
  }
  return undefined;
}

const missing = await missingClient();
if (missing !== undefined) {
  console.warn(`\n*** OGC client tests NOT RUN: ${missing} is missing ***\n`);
  if (process.env.EVAP_OGC_CLIENTS === 'required') throw new Error(`the OGC clients are required here but ${missing} is missing`);
}

interface GeoJson {
  features: { id?: string; properties: Record<string, unknown>; geometry: { coordinates: [number, number] } | null }[];
}

describe.skipIf(missing !== undefined)('OGC clients', async () => {
  const server = await startTestServer();
  const store = server.store;
  const dir = await mkdtemp(join(tmpdir(), 'evap-ogc-'));
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const gdalEnv = { ...process.env, GDAL_HTTP_HEADERS: `api-key: ${server.key}`, CPL_DEBUG: 'OFF' };
  const gdal = (command: string, args: string[], env: NodeJS.ProcessEnv = gdalEnv) => run(command, args, { env, maxBuffer: 64 * 2 ** 20 });
  const reservoirs = store.metadataRows('reservoirs');

  it('ogrinfo lists every collection as a layer and counts the reservoirs', async () => {
    const { stdout } = await gdal('ogrinfo', ['-ro', `OAPIF:${server.url}/ogc`]);
    const layers = [...stdout.matchAll(/^\d+: (\S+)/gm)].map((m) => m[1]);
    expect(layers).toEqual(['reservoirs', 'stations', ...store.listDatasets(), 'station-values']);
    const summary = await gdal('ogrinfo', ['-ro', '-so', `OAPIF:${server.url}/ogc`, 'reservoirs']);
    expect(summary.stdout).toContain(`Feature Count: ${reservoirs.length}`);
  });

  it('refuses GDAL without the key', async () => {
    const { GDAL_HTTP_HEADERS: _, ...env } = gdalEnv;
    await expect(gdal('ogrinfo', ['-ro', '-so', `OAPIF:${server.url}/ogc`, 'reservoirs'], env)).rejects.toThrow(/401|missing API key/);
  });

  it('ogr2ogr of a daily collection with a bbox and a datetime gives the library answer: ids, values and points', async () => {
    const out = join(dir, 'lem.geojson');
    const [x1, y1, x2, y2] = [-115, 35, -105, 40];
    await gdal('ogr2ogr', [
      '-f',
      'GeoJSON',
      out,
      `OAPIF:${server.url}/ogc/collections/lem`,
      '-spat',
      `${x1}`,
      `${y1}`,
      `${x2}`,
      `${y2}`,
      '-where',
      "date >= '2020-01-01' AND date <= '2020-01-03'",
    ]);
    const got = JSON.parse(await readFile(out, 'utf8')) as GeoJson;
    const inside = reservoirs.filter((r) => (r.LON as number) >= x1 && (r.LON as number) <= x2 && (r.LAT as number) >= y1 && (r.LAT as number) <= y2);
    const names = inside.map((r) => String(r.RES_NAME)).sort();
    const expected = await store.reservoirTimeseries({ names, datasets: ['lem'], start: '2020-01-01', end: '2020-01-03' });
    expect(got.features.length).toBe(expected.length);
    expect(got.features.length).toBe(names.length * 3);
    got.features.forEach((feature, i) => {
      const record = expected[i]!;
      const place = inside.find((r) => r.RES_NAME === record.RES_NAME)!;
      expect(feature.properties.id).toBe(`${record.RES_NAME}@${record.start_date}`);
      expect(feature.geometry!.coordinates).toEqual([place.LON, place.LAT]);
      // plain field names (`E_hs`), the unit in the collection's schema: the OperEvap record's `E_hs (mm)`
      for (const [key, value] of Object.entries(record)) if (key.includes(' (')) expect(feature.properties[key.split(' (')[0]!], key).toBe(value);
    });
  });

  it('ogr2ogr of the reservoirs to GeoPackage keeps every attribute (PAGE_SIZE: GDAL types fields from its first page)', async () => {
    const gpkg = join(dir, 'reservoirs.gpkg');
    const back = join(dir, 'reservoirs.geojson');
    await gdal('ogr2ogr', ['-oo', 'PAGE_SIZE=1000', '-f', 'GPKG', gpkg, `OAPIF:${server.url}/ogc/collections/reservoirs`]);
    await gdal('ogr2ogr', ['-f', 'GeoJSON', back, gpkg]);
    const got = JSON.parse(await readFile(back, 'utf8')) as GeoJson;
    const sorted = [...reservoirs].sort((a, b) => String(a.RES_NAME).localeCompare(String(b.RES_NAME)));
    expect(got.features.map(({ properties: { id: _, ...p } }) => p)).toEqual(sorted);
    expect(got.features.map((f) => f.geometry!.coordinates)).toEqual(sorted.map((r) => [r.LON, r.LAT]));
  });

  it('without PAGE_SIZE, GDAL types CAPACITY_M3 from the schema as Real: no value clamped to 2,147,483,647', async () => {
    const largest = Math.max(...reservoirs.map((r) => r.CAPACITY_M3 as number));
    expect(largest).toBeGreaterThan(2 ** 31); // Lake Mead holds about 3.5e10 m3
    const { stdout } = await gdal('ogrinfo', ['-ro', '-so', `OAPIF:${server.url}/ogc`, 'reservoirs']);
    expect(stdout).toMatch(/^CAPACITY_M3: (Real|Integer64) /m);
    const out = join(dir, 'reservoirs-default-page.geojson');
    await gdal('ogr2ogr', ['-f', 'GeoJSON', out, `OAPIF:${server.url}/ogc/collections/reservoirs`]);
    const got = JSON.parse(await readFile(out, 'utf8')) as GeoJson;
    const byName = new Map(reservoirs.map((r) => [r.RES_NAME, r.CAPACITY_M3]));
    expect(got.features.length).toBe(reservoirs.length);
    for (const f of got.features) expect(f.properties.CAPACITY_M3, String(f.properties.RES_NAME)).toBe(byName.get(f.properties.RES_NAME as string));
  });

  it('OWSLib reads the collections and queryables, and pages through items', async () => {
    const script = `
import json, sys
from owslib.ogcapi.features import Features
api = Features(sys.argv[1], headers={'api-key': sys.argv[2]})
out = {'collections': [c['id'] for c in api.collections()['collections']]}
out['queryables'] = sorted(api.collection_queryables('lem')['properties'].keys())
ids, offset = [], 0
while True:
    page = api.collection_items('nete-volume-calcs', limit=7, offset=offset, bbox=[-115, 35, -105, 40], datetime='2020-06-01/2020-06-05')
    ids += [f['id'] for f in page['features']]
    out['matched'] = page['numberMatched']
    if not any(l['rel'] == 'next' for l in page['links']):
        break
    offset += 7
out['ids'] = ids
print(json.dumps(out))
`;
    const { stdout } = await run(python, ['-c', script, `${server.url}/ogc`, server.key]);
    const got = JSON.parse(stdout) as { collections: string[]; queryables: string[]; ids: string[]; matched: number };
    expect(got.collections).toEqual(['reservoirs', 'stations', ...store.listDatasets(), 'station-values']);
    expect(got.queryables).toEqual([...Object.keys(reservoirs[0]!), 'date', 'geometry'].sort());
    const names = reservoirs
      .filter((r) => (r.LON as number) >= -115 && (r.LON as number) <= -105 && (r.LAT as number) >= 35 && (r.LAT as number) <= 40)
      .map((r) => String(r.RES_NAME))
      .sort();
    const expected = await store.reservoirTimeseries({ names, datasets: ['nete-volume-calcs'], start: '2020-06-01', end: '2020-06-05' });
    expect(got.ids).toEqual(expected.map((r) => `${r.RES_NAME}@${r.start_date}`));
    expect(got.matched).toBe(expected.length);
  });
});
