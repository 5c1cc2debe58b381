// Multipart uploads to /info/list_RES_NAMES and /info/list_STA_NAMES through the app (no socket), with shapefiles that ogr2ogr wrote.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxFormParts } from '../../server/body.js';
import { type TestApp, testApp } from '../server/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp();
});

const dir = new URL('../fixtures/shapefiles/', import.meta.url);
const parts = ['shp', 'dbf', 'prj', 'shx'] as const;

function form(name: string, only: readonly (typeof parts)[number][] = parts): FormData {
  const body = new FormData();
  for (const ext of only) body.append(`shapefile_${ext}`, new Blob([readFileSync(new URL(`${name}/${name}.${ext}`, dir))]), `${name}.${ext}`);
  return body;
}

const post = (path: string, body?: FormData) => app.get(path, { method: 'POST', ...(body ? { body } : {}) });

describe('POST /info/list_RES_NAMES', () => {
  it('answers the same to a multipart body without parts as to no body', async () => {
    const bare = await (await post('/info/list_RES_NAMES')).json();
    const multipart = await post('/info/list_RES_NAMES', new FormData());
    expect(multipart.status).toBe(200);
    expect(await multipart.json()).toEqual(bare);
  });

  it('refuses a part with another name with a 422 naming it, not a silently unfiltered list', async () => {
    const misnamed = new FormData();
    misnamed.append('shapefile_shpx', new Blob([readFileSync(new URL('colorado_wgs84/colorado_wgs84.shp', dir))]), 'colorado_wgs84.shp');
    const response = await post('/info/list_RES_NAMES', misnamed);
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: string[]; msg: string }[] };
    expect(detail[0]!.loc).toEqual(['body', 'shapefile_shpx']);
    expect(detail[0]!.msg).toContain('unknown part "shapefile_shpx" (did you mean "shapefile_shp"?)');
    const comment = new FormData();
    comment.append('comment', 'no files here');
    expect((await post('/info/list_RES_NAMES', comment)).status).toBe(422);
  });

  it('reads the names and filenames a browser sends: a backslash as itself, a quote percent-encoded', async () => {
    // filenames as a Windows browser may write them; the four parts still filter
    const quoted = new FormData();
    for (const ext of parts) {
      quoted.append(`shapefile_${ext}`, new Blob([readFileSync(new URL(`colorado_wgs84/colorado_wgs84.${ext}`, dir))]), `C:\\maps\\"co"\\.${ext}`);
    }
    const filtered = await post('/info/list_RES_NAMES', quoted);
    expect(filtered.status).toBe(200);
    expect(await filtered.json()).toEqual(await (await post('/info/list_RES_NAMES', form('colorado_wgs84'))).json());
    const stray = form('colorado_wgs84');
    stray.append('notes\\', new Blob(['x']), 'a "b".txt');
    const refused = await post('/info/list_RES_NAMES', stray);
    expect(refused.status).toBe(422);
    const { detail } = (await refused.json()) as { detail: { loc: string[]; msg: string }[] };
    expect(detail[0]!.loc).toEqual(['body', 'notes\\']);
    expect(detail[0]!.msg).toMatch(/^unknown part "notes\\\\";/);
  });

  it.each(['colorado_wgs84', 'colorado_albers', 'colorado_utm13n'])('keeps only the reservoirs inside %s', async (name) => {
    const response = await post('/info/list_RES_NAMES', form(name));
    expect(response.status).toBe(200);
    const { RES_NAMES } = (await response.json()) as { RES_NAMES: string[] };
    // listed by hand from the demo coordinates (test/lib/spatial/within.test.ts): Colorado's reservoirs, none elsewhere
    expect(RES_NAMES).toEqual(expect.arrayContaining(['LAKE ESTES', 'RUEDI RESERVOIR', 'BLUE MESA RESERVOIR']));
    for (const outside of ['LAKE ALICE', 'LAKE MEAD', 'LAKE POWELL', 'FLAMING GORGE RESERVOIR']) expect(RES_NAMES).not.toContain(outside);
    const lat = (await (await app.get(`/metadata/reservoirs?RES_NAMES=${encodeURIComponent(RES_NAMES.join(','))}`)).json()) as {
      LAT: number;
      LON: number;
    }[];
    for (const r of lat) {
      expect(r.LAT).toBeGreaterThanOrEqual(36.99);
      expect(r.LAT).toBeLessThanOrEqual(41.01);
      expect(r.LON).toBeGreaterThanOrEqual(-109.06);
      expect(r.LON).toBeLessThanOrEqual(-102.04);
    }
    expect(RES_NAMES).toEqual(
      await app.store.listReservoirNames({ ...Object.fromEntries(parts.map((ext) => [ext, readFileSync(new URL(`${name}/${name}.${ext}`, dir))])) }),
    );
  });

  it('answers CSV with one RES_NAME column', async () => {
    const text = await (await post('/info/list_RES_NAMES?output_format=csv', form('colorado_wgs84'))).text();
    expect(text.split('\n')[0]).toBe('RES_NAME');
    expect(text).toContain('\nLAKE ESTES\n');
  });

  it('names the missing part in a 422', async () => {
    const response = await post('/info/list_RES_NAMES', form('colorado_wgs84', ['dbf', 'prj']));
    expect(response.status).toBe(422);
    const { detail } = (await response.json()) as { detail: { loc: string[] }[] };
    expect(detail[0]!.loc).toEqual(['body', 'shapefile_shp']);
  });

  it('refuses a text field in place of a file', async () => {
    const body = new FormData();
    body.append('shapefile_shp', 'not a file');
    const response = await post('/info/list_RES_NAMES', body);
    expect(response.status).toBe(422);
  });

  it('refuses a body of more parts than the bound before parsing it; at the bound, names are checked next', async () => {
    const many = form('colorado_wgs84');
    for (let i = 0; i < maxFormParts - 3; i++) many.append(`field${i}`, 'x'); // 672k such parts took 21 s and 1.5 GB
    const refused = await post('/info/list_RES_NAMES', many);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      detail: [
        { type: 'too_long', loc: ['body', 'body'], msg: `the multipart body has more than ${maxFormParts} parts: send the four shapefile parts`, input: null },
      ],
    });
    const few = form('colorado_wgs84');
    for (let i = 0; i < maxFormParts - 4; i++) few.append(`field${i}`, 'x');
    const counted = await post('/info/list_RES_NAMES', few); // within the count: refused by name (a misnamed part), not by count
    expect(counted.status).toBe(422);
    expect(JSON.stringify(await counted.json())).toMatch(/unknown part \\"field0\\"/);
  });

  it('refuses a urlencoded form of more fields than the bound, and a shapefile part sent as text in one', async () => {
    const post = (body: string) => app.get('/info/list_RES_NAMES', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const many = await post(Array.from({ length: maxFormParts + 1 }, (_, i) => `f${i}=x`).join('&'));
    expect(many.status).toBe(422);
    expect(JSON.stringify(await many.json())).toMatch(/more than 16 fields/);
    const counted = await post(Array.from({ length: maxFormParts }, (_, i) => `f${i}=x`).join('&')); // within the count: refused by name
    expect(JSON.stringify(await counted.json())).toMatch(/unknown part \\"f0\\"/);
    expect(JSON.stringify(await (await post('shapefile_shp=abc')).json())).toMatch(/shapefile_shp must be an uploaded file/);
  });

  it('refuses a body that is not multipart', async () => {
    const response = await app.get('/info/list_RES_NAMES', { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toMatch(/multipart\/form-data/);
  });
});

describe('POST /info/list_STA_NAMES', () => {
  it('keeps only the stations inside the polygon', async () => {
    const { STA_NAMES } = (await (await post('/info/list_STA_NAMES', form('colorado_wgs84'))).json()) as { STA_NAMES: string[] };
    expect(STA_NAMES).toEqual(expect.arrayContaining(['RUEDI DAM_STATION', 'BLUE MESA_STATION']));
    expect(STA_NAMES).not.toContain('LAKE MEAD_STATION');
  });
});
