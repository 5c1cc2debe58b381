// The OGC paths called as fetch is (no socket): documents, items against the library's own answers and independent
// oracles (the box and the polygon by plain comparisons, a degree of latitude in metres), paging as a property.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAccess } from '../../../server/process/log.js';
import { testApp } from '../harness.js';

// biome-ignore lint/suspicious/noExplicitAny: the answers' JSON read loosely, each field asserted where it is used
type Doc = Record<string, any>;
const app = await testApp();
const json = async (path: string, init?: RequestInit) => {
  const response = await app.get(path, init);
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return (await response.json()) as Doc;
};
const reservoirs = app.store.metadataRows('reservoirs');

describe('landing, conformance, collections', () => {
  it('links absolutely to itself, the OpenAPI document, its page, conformance and data', async () => {
    const page = await json('/ogc', { headers: { host: 'evap.example:8080' } });
    const rels = Object.fromEntries(page.links.map((l: { rel: string; href: string }) => [l.rel, l.href]));
    expect(rels).toMatchObject({
      self: 'http://evap.example:8080/ogc',
      'service-desc': 'http://evap.example:8080/ogc/openapi',
      'service-doc': 'http://evap.example:8080/ogc/openapi?f=html',
      conformance: 'http://evap.example:8080/ogc/conformance',
      data: 'http://evap.example:8080/ogc/collections',
    });
    const openapi = await json('/ogc/openapi');
    expect(openapi.openapi).toMatch(/^3\.0\./);
    expect(Object.keys(openapi.paths)).toContain('/collections/{collectionId}/items');
    expect((await json('/ogc/conformance')).conformsTo).toContain('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson');
  });

  it('refuses a Host header that is not a host', async () => {
    expect((await app.get('/ogc', { headers: { host: 'a"b/<c>' } })).status).toBe(400);
  });

  it('lists the place collections, one per reservoir dataset and the station values, with extents', async () => {
    const { collections } = await json('/ogc/collections');
    expect(collections.map((c: { id: string }) => c.id)).toEqual(['reservoirs', 'stations', ...app.store.listDatasets(), 'station-values']);
    const lons = reservoirs.map((r) => r.LON as number);
    const lem = collections.find((c: { id: string }) => c.id === 'lem');
    expect(lem.extent.spatial.bbox[0][0]).toBe(Math.min(...lons));
    expect(lem.extent.temporal.interval[0][0].slice(0, 10)).toBe(app.store.listDates('lem', 'E_hs')[0]!.start_date);
    expect(Object.keys(lem.parameter_names)).toEqual(app.store.listVariables('lem').map((v) => v.api_name));
  });

  it('gives queryables and a schema with units', async () => {
    const q = await json('/ogc/collections/reservoirs/queryables');
    expect(q.properties.CAPACITY_M3).toMatchObject({ type: 'number', 'x-ogc-unit': 'm3' });
    const schema = await json('/ogc/collections/lem/schema?units=english');
    expect(schema.properties.E_hs).toMatchObject({ type: ['number', 'null'], 'x-ogc-unit': 'in' });
    expect(Object.keys(schema.properties).filter((k) => / \(/.test(k))).toEqual([]); // plain names: the unit is in the schema
  });

  it('answers a browser with HTML, and escapes what it writes', async () => {
    const response = await app.get('/ogc/collections', { headers: { accept: 'text/html' } });
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await response.text();
    expect(text).toContain('<a href="http://localhost/ogc/collections/reservoirs');
    expect((await app.get('/ogc?f=json', { headers: { accept: 'text/html' } })).headers.get('content-type')).toBe('application/json');
  });
});

describe('keys', () => {
  it('needs a key: the header, or api_key in the query (kept out of the access log)', async () => {
    expect((await app.fetch('/ogc/collections')).status).toBe(401);
    expect((await app.fetch('/ogc/collections?api_key=wrong')).status).toBe(401);
    const page = await app.fetch(`/ogc/collections?api_key=${app.key}`);
    expect(page.status).toBe(200);
    // a link is copied, logged and shared: the key stays out of it (a client following links sends the header)
    const body = (await page.json()) as { links: { href: string }[] };
    for (const l of body.links) expect(l.href).not.toContain(app.key);
    const line = formatAccess({ method: 'GET', target: `/ogc/collections?api_key=${app.key}`, status: 200, ms: 1, bytes: 1, aborted: false });
    expect(line).not.toContain(app.key);
  });
});

describe('items', () => {
  it('places: bbox by plain comparison, property filters, properties=', async () => {
    const box = [-115, 33, -105, 40];
    const page = await json(`/ogc/collections/reservoirs/items?bbox=${box.join(',')}&limit=1000`);
    const expected = reservoirs
      .filter((r) => (r.LON as number) >= box[0]! && (r.LON as number) <= box[2]! && (r.LAT as number) >= box[1]! && (r.LAT as number) <= box[3]!)
      .map((r) => r.RES_NAME)
      .sort();
    expect(expected.length).toBeGreaterThan(2);
    expect(page.features.map((f: { id: string }) => f.id)).toEqual(expected);
    expect(page.numberMatched).toBe(expected.length);
    const mead = await json('/ogc/collections/reservoirs/items?RES_NAME=LAKE%20MEAD&properties=RES_NAME,CAPACITY_M3');
    const row = reservoirs.find((r) => r.RES_NAME === 'LAKE MEAD')!;
    expect(mead.features).toEqual([
      {
        type: 'Feature',
        id: 'LAKE MEAD',
        geometry: { type: 'Point', coordinates: [row.LON, row.LAT] },
        properties: { RES_NAME: 'LAKE MEAD', CAPACITY_M3: row.CAPACITY_M3 },
      },
    ]);
    const nv = await json('/ogc/collections/reservoirs/items?STATE=NV&limit=1000');
    expect(nv.features.map((f: { id: string }) => f.id)).toEqual(
      reservoirs
        .filter((r) => r.STATE === 'NV')
        .map((r) => r.RES_NAME)
        .sort(),
    );
  });

  it('observations equal the OperEvap answer, metric and English', async () => {
    for (const units of ['metric', 'english']) {
      const page = await json(`/ogc/collections/lem/items?RES_NAME=LAKE%20MEAD&datetime=2020-01-01/2020-01-10&units=${units}`);
      const records = await app.store.reservoirTimeseries({ names: ['LAKE MEAD'], datasets: ['lem'], start: '2020-01-01', end: '2020-01-10', units });
      expect(page.numberMatched).toBe(10);
      // the same values under plain names: `E_hs`, where the OperEvap record says `E_hs (mm)` (or `E_hs (in)`)
      const plain = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k.split(' (')[0], v]));
      expect(page.features.map((f: { properties: Record<string, unknown> }) => f.properties)).toEqual(
        records.map(({ start_date, end_date: _, ...rest }) => ({ ...plain(rest), date: start_date })),
      );
    }
    const metric = await json('/ogc/collections/lem/items/LAKE%20MEAD@2020-01-05');
    const english = await json('/ogc/collections/lem/items/LAKE%20MEAD@2020-01-05?units=english');
    expect(english.properties.E_hs).toBeCloseTo(metric.properties.E_hs / 25.4, 3);
  });

  it('datetime: an instant, closed and open intervals, clipped to the days held', async () => {
    const held = app.store.listDates('lem', 'E_hs')[0]!;
    const days = async (datetime: string) => {
      const page = await json(`/ogc/collections/lem/items?RES_NAME=LAKE%20MEAD&datetime=${datetime}&limit=10000`);
      const dates = page.features.map((f: { properties: { date: string } }) => f.properties.date);
      return [dates[0], dates.at(-1), page.numberMatched];
    };
    expect(await days('2020-03-01')).toEqual(['2020-03-01', '2020-03-01', 1]);
    expect(await days('2020-03-01T12:00:00Z')).toEqual(['2020-03-01', '2020-03-01', 1]);
    expect(await days('2020-02-27/2020-03-01')).toEqual(['2020-02-27', '2020-03-01', 4]);
    expect((await days('2021-12-30/..')).slice(0, 2)).toEqual(['2021-12-30', held.end_date]);
    expect((await days('../2019-01-03')).slice(0, 2)).toEqual([held.start_date, '2019-01-03']);
    expect(await days('1990-01-01/1990-02-01')).toEqual([undefined, undefined, 0]);
  });

  it('refuses bad parameters with 400 and a detail', async () => {
    for (const query of [
      'bbox=1,2,3',
      'bbox=a,b,c,d',
      'datetime=2020-02-30',
      'datetime=2020-02-30T10:00Z', // Date would roll it over to March 1st
      'datetime=2020-03-01/2020-02-01',
      'limit=0',
      'limit=-1',
      'limit=1.5',
      'NOPE=1',
      'properties=nope',
      'units=imperial',
      'f=xml',
    ]) {
      const response = await app.get(`/ogc/collections/lem/items?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { detail: string }).detail, query).toBeTruthy();
    }
    const most = await json('/ogc/collections/rtma/items?limit=99999');
    expect(most.numberReturned).toBe(10_000);
    expect(most.links.find((l: { rel: string }) => l.rel === 'next').href).toContain('limit=10000&offset=10000');
    expect((await app.get('/ogc/collections/nope')).status).toBe(404);
    expect((await app.get('/ogc/collections/lem/items/%E0%A4')).status).toBe(404);
    expect((await app.get('/ogc/collections/lem/nope')).status).toBe(404);
    expect((await app.get('/ogc/collections/lem/items/LAKE%20MEAD@1800-01-01')).status).toBe(404);
    // a day that is no calendar day is no feature, and the answer names the feature, not a parameter never sent
    for (const day of ['2020-02-30', '2021-02-29', '2020-04-31', '2020-13-01', '2020-00-10', '2020-01-00']) {
      const response = await app.get(`/ogc/collections/lem/items/LAKE%20MEAD@${day}`);
      expect(response.status, day).toBe(404);
      expect(((await response.json()) as { detail: string }).detail, day).toBe(`no feature "LAKE MEAD@${day}" in lem`);
    }
    expect((await app.get('/ogc/collections/lem/items/LAKE%20MEAD@2020-02-29')).status).toBe(200);
    expect((await app.get('/ogc/collections', { method: 'POST' })).status).toBe(405);
  });

  it('pages through random limits: every feature once, in order, next and prev consistent', async () => {
    const query = 'bbox=-115,35,-105,40&datetime=2020-12-20/2021-01-05';
    const whole = await json(`/ogc/collections/nete-volume-calcs/items?${query}&limit=10000`);
    const ids: string[] = whole.features.map((f: { id: string }) => f.id);
    expect(ids.length).toBe(whole.numberMatched);
    expect(ids.length).toBeGreaterThan(30);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), async (limit) => {
        const seen: string[] = [];
        let next: string | undefined = `/ogc/collections/nete-volume-calcs/items?${query}&limit=${limit}`;
        let pages = 0;
        while (next !== undefined) {
          const page: Doc = await json(next.replace(/^http:\/\/localhost/, ''));
          expect(page.numberReturned).toBe(page.features.length);
          expect(page.numberReturned).toBeLessThanOrEqual(limit);
          expect(page.numberMatched).toBe(ids.length);
          if (pages > 0) expect(page.links.some((l: { rel: string }) => l.rel === 'prev')).toBe(true);
          seen.push(...page.features.map((f: { id: string }) => f.id));
          next = page.links.find((l: { rel: string }) => l.rel === 'next')?.href;
          pages++;
        }
        expect(seen).toEqual(ids);
        expect(pages).toBe(Math.max(1, Math.ceil(ids.length / limit)));
      }),
      { numRuns: 12 },
    );
  });

  it('as_of answers from a past snapshot, and refuses a time before the store', async () => {
    const now = new Date().toISOString();
    const page = await json(`/ogc/collections/reservoirs/items?as_of=${now}&limit=1`);
    expect(page.numberMatched).toBe(reservoirs.length);
    expect(page.links.find((l: { rel: string }) => l.rel === 'next').href).toContain(`as_of=${encodeURIComponent(now)}`);
    expect((await app.get('/ogc/collections/reservoirs/items?as_of=1990-01-01')).status).toBeGreaterThanOrEqual(400);
  });
});

describe('EDR', () => {
  const mead = reservoirs.find((r) => r.RES_NAME === 'LAKE MEAD')!;

  it('locations: every reservoir; one location a CoverageJSON point series equal to the library', async () => {
    const all = await json('/ogc/collections/lem/locations');
    expect(all.features.length).toBe(reservoirs.length);
    const cov = await json('/ogc/collections/lem/locations/LAKE%20MEAD?datetime=2020-01-01/2020-01-03&parameter-name=E_hs,Tw');
    const records = await app.store.reservoirTimeseries({
      names: ['LAKE MEAD'],
      datasets: ['lem'],
      variables: ['E_hs', 'Tw'],
      start: '2020-01-01',
      end: '2020-01-03',
    });
    const [coverage] = cov.coverages;
    expect(coverage.domain.axes).toEqual({
      x: { values: [mead.LON] },
      y: { values: [mead.LAT] },
      t: { values: ['2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z', '2020-01-03T00:00:00Z'] },
    });
    expect(coverage.ranges.E_hs.values).toEqual(records.map((r) => r['E_hs (mm)']));
    expect(Object.keys(cov.parameters)).toEqual(['E_hs', 'Tw']);
    expect(cov.parameters.Tw.unit.symbol).toBe('degC');
    // parameter_names, as OWSLib sends it
    const owslib = await json('/ogc/collections/lem/locations/LAKE%20MEAD?datetime=2020-01-01&parameter_names=Tw&units=english');
    expect(Object.keys(owslib.coverages[0].ranges)).toEqual(['Tw']);
    expect(owslib.parameters.Tw.unit.symbol).toBe('degF');
  });

  it('position: the nearest reservoir and its distance (one degree of latitude is 111.195 km on the mean sphere)', async () => {
    const at = await json(`/ogc/collections/lem/position?coords=POINT(${mead.LON}%20${mead.LAT})&datetime=2020-01-01`);
    expect(at.nearest).toEqual({ name: 'LAKE MEAD', distance_m: 0 });
    // due north of the northernmost reservoir, nothing is nearer than it
    const north = reservoirs.reduce((a, b) => ((b.LAT as number) > (a.LAT as number) ? b : a));
    const away = await json(`/ogc/collections/lem/position?coords=POINT(${north.LON}%20${(north.LAT as number) + 1})&within=200&datetime=2020-01-01&f=GeoJSON`);
    expect(away.nearest.name).toBe(north.RES_NAME);
    expect(away.nearest.distance_m).toBeCloseTo(111_195.1, 0);
    expect(away.features[0].id).toBe(`${north.RES_NAME}@2020-01-01`);
    for (const coords of ['POINT(1)', 'POINT(200 0)', 'LINESTRING(0 0, 1 1)', ''])
      expect((await app.get(`/ogc/collections/lem/position?coords=${coords}`)).status).toBe(400);
  });

  it('area: the reservoirs whose points are in the polygon, by plain comparison for a rectangle', async () => {
    const [x1, y1, x2, y2] = [-112, 36, -104, 42];
    const polygon = `POLYGON((${x1} ${y1},${x2} ${y1},${x2} ${y2},${x1} ${y2},${x1} ${y1}))`;
    const cov = await json(`/ogc/collections/nete-volume-calcs/area?coords=${encodeURIComponent(polygon)}&datetime=2020-06-01&parameter-name=NetE`);
    const inside = reservoirs.filter((r) => (r.LON as number) > x1 && (r.LON as number) < x2 && (r.LAT as number) > y1 && (r.LAT as number) < y2);
    expect(inside.length).toBeGreaterThan(2);
    expect(cov.coverages.map((c: { id: string }) => c.id)).toEqual(inside.map((r) => r.RES_NAME).sort());
    expect((await app.get('/ogc/collections/lem/area?coords=POLYGON((0%200,1%201))')).status).toBe(400);
    expect((await app.get('/ogc/collections/lem/area?coords=POLYGON((0 0,1 0,1 1,0 0))&parameter-name=NetE')).status).toBe(400);
  });
});

describe('admission', () => {
  it('EDR answers go through the gate of heavy answers; an items page (a page read) and place answers do not', async () => {
    const shut = await testApp({ maxHeavy: 0, heavyRows: 1 }); // no slot and no line: any heavy answer is refused at once
    const get = (path: string) => shut.get(path);
    expect((await get('/ogc/collections/lem/items?limit=5')).status).toBe(200);
    expect((await get('/ogc/collections/lem/position?coords=POINT(-114%2036)&within=500')).status).toBe(503);
    expect((await get('/ogc/collections/reservoirs/items')).status).toBe(200);
  });
});
