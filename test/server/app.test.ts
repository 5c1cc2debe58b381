// The handler, called directly with fetch Request objects, over the tiny store whose every value is known.
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetNames, defaults, reservoirVariables } from '../../lib/catalogue.js';
import { recordStream } from '../../lib/format/stream.js';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { acceptsGzip } from '../../server/answers.js';
import { createHandler, type Handler, normalizePath } from '../../server/app.js';
import { fromFetchRequest } from '../../server/incoming.js';
import { digestKey, KeyRing, parseKeysFile } from '../../server/keys/auth.js';
import { routes } from '../../server/routes.js';
import { tempDir, writeTinyStore } from '../helpers.js';

const key = 'test-key';
let store: EvapStore;
let handler: Handler;
const errors: string[] = [];
beforeAll(async () => {
  const dir = await tempDir();
  await writeTinyStore(dir);
  store = await openStore(dir);
  handler = createHandler({ store, keys: KeyRing.fromKeys([key]), limits: { maxNames: 3 }, logError: (m) => errors.push(m) });
});

const fetchRequest = (input: string, init?: RequestInit) => fromFetchRequest(new Request(input, init));
const call = (path: string, init: RequestInit = {}) =>
  handler(
    fetchRequest(`http://localhost${path}`, {
      ...init,
      headers: { 'api-key': key, 'accept-encoding': 'identity', ...(init.headers as Record<string, string>) },
    }),
  );

describe('normalizePath', () => {
  it('collapses repeated slashes and drops a trailing slash', () => {
    expect(normalizePath('//info//list_RES_NAMES/')).toBe('/info/list_RES_NAMES');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('///')).toBe('/');
  });
});

describe('createHandler', () => {
  it('answers the tiny store exactly', async () => {
    const response = await call(
      '/timeseries/daily/reservoirs/daterange?RES_NAMES=BETA%20RESERVOIR%20,ALPHA%20LAKE&datasets=nete-volume-calcs&variables=NetE&start_date=2020-12-31&end_date=2021-01-01',
    );
    expect(await response.json()).toEqual([
      { RES_NAME: 'ALPHA LAKE', start_date: '2020-12-31', end_date: '2020-12-31', 'NetE (mm)': 1.1 },
      { RES_NAME: 'ALPHA LAKE', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': 1.2 },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2020-12-31', end_date: '2020-12-31', 'NetE (mm)': 2.1 },
      { RES_NAME: 'BETA RESERVOIR', start_date: '2021-01-01', end_date: '2021-01-01', 'NetE (mm)': null },
    ]);
  });

  it('writes a gap as an empty CSV field', async () => {
    const text = await (
      await call('/timeseries/daily/reservoirs/date?datasets=nete-volume-calcs&variables=NetE,E_volume&date=2021-01-01&output_format=csv')
    ).text();
    expect(text).toBe(
      'RES_NAME,start_date,end_date,NetE (mm),E_volume (m3)\nALPHA LAKE,2021-01-01,2021-01-01,1.2,1200\nBETA RESERVOIR,2021-01-01,2021-01-01,,\n',
    );
  });

  it('takes the last of a repeated parameter', async () => {
    const records = (await (
      await call('/timeseries/stations/daterange?STA_NAMES=NOPE&STA_NAMES=ALPHA_STATION&start_date=2020-12-30&end_date=2020-12-31&variables=ATemp')
    ).json()) as unknown[];
    expect(records).toEqual([
      { STA_NAME: 'ALPHA_STATION', start_date: '2020-12-30', end_date: '2020-12-30', 'ATemp (degC)': 0 },
      { STA_NAME: 'ALPHA_STATION', start_date: '2020-12-31', end_date: '2020-12-31', 'ATemp (degC)': 1 },
    ]);
  });

  it('answers the names listings as the public service does', async () => {
    expect(await (await call('/info/list_RES_NAMES', { method: 'POST' })).json()).toEqual({ RES_NAMES: ['ALPHA LAKE', 'BETA RESERVOIR'] });
    expect(await (await call('/info/list_STA_NAMES/', { method: 'POST' })).json()).toEqual({ STA_NAMES: ['ALPHA_STATION'] });
    expect(await (await call('/info/list_STA_NAMES?output_format=csv', { method: 'POST' })).text()).toBe('STA_NAME\nALPHA_STATION\n');
  });

  it('gzips data answers only when accepted', async () => {
    const zipped = await call('/info/list_datasets', { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    const text = await new Response(zipped.body!.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>)).text();
    expect(JSON.parse(text)).toEqual(['nete-volume-calcs']);
    expect((await call('/info/list_datasets')).headers.get('content-encoding')).toBeNull();
  });

  it('checks the key before reading any parameter', async () => {
    const response = await handler(fetchRequest('http://localhost/info/list_dates?dataset=nope'));
    expect(response.status).toBe(401);
  });

  it('answers an unexpected failure with 500 and no internals, and logs it', async () => {
    const broken = Object.create(store) as EvapStore;
    broken.listDatasets = () => {
      throw new Error('secret internal path /var/lib/x');
    };
    const failing = createHandler({ store: broken, keys: KeyRing.fromKeys([key]), logError: (m) => errors.push(m) });
    const response = await failing(fetchRequest('http://localhost/info/list_datasets', { headers: { 'api-key': key } }));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: 'Internal Server Error' });
    expect(errors.join('\n')).toContain('secret internal path');
  });

  it('answers a failure before the first record with 500, not a broken stream', async () => {
    const broken = Object.create(store) as EvapStore;
    // biome-ignore lint/correctness/useYield: a stream that fails when its first record is asked for
    async function* fail(): AsyncGenerator<never> {
      throw new Error('partition unreadable');
    }
    broken.streamReservoirTimeseries = () => recordStream(['RES_NAME'], fail);
    const failing = createHandler({ store: broken, keys: KeyRing.fromKeys([key]), logError: () => {} });
    expect((await failing(fetchRequest('http://localhost/timeseries/daily/reservoirs/daterange', { headers: { 'api-key': key } }))).status).toBe(500);
  });

  it('serves the docs assets from swagger-ui-dist and nothing else from disk', async () => {
    const bundle = await handler(fetchRequest('http://localhost/docs/swagger-ui-bundle.js'));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    for (const path of ['/docs/../package.json', '/docs/%2e%2e/package.json', '/docs/index.js', '/docs/swagger-ui-bundle.js.map']) {
      expect((await handler(fetchRequest(`http://localhost${path}`))).status, path).toBe(404);
    }
    expect((await handler(fetchRequest('http://localhost/docs', { method: 'POST' }))).status).toBe(405);
  });
});

describe('/openapi.json', () => {
  it('describes every route and parameter with the catalogue defaults and the api-key scheme', async () => {
    const spec = (await (await handler(fetchRequest('http://localhost/openapi.json'))).json()) as {
      paths: Record<string, Record<string, { parameters: { name: string; schema: { default?: string; enum?: string[] } }[]; requestBody?: unknown }>>;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    };
    expect(Object.keys(spec.paths).sort()).toEqual([...new Set(routes.map((r) => r.path)), '/auth/request_key'].sort());
    expect(Object.keys(spec.paths)).toHaveLength(13 + 8 + 1 + 1 + 1 + 6 + 1 + 1); // the public service's 13, aggregates and normals, list_snapshots, request_key, /info/about (provenance), the six forecast paths, the model's what-if, /changes
    expect(Object.values(spec.components.securitySchemes)).toEqual([{ type: 'apiKey', in: 'header', name: 'api-key' }]);
    const param = (path: string, name: string) => spec.paths[path]!.get!.parameters.find((p) => p.name === name)!.schema;
    expect(param('/timeseries/daily/reservoirs/daterange', 'variables').default!.split(', ')).toEqual(reservoirVariables.map((v) => v.name));
    expect(param('/timeseries/daily/reservoirs/daterange', 'datasets').default!.split(', ')).toEqual(datasetNames);
    expect(param('/timeseries/daily/reservoirs/daterange', 'RES_NAMES').default).toBe(defaults.RES_NAMES.join(', '));
    // left out, station variables are those the stations hold, not a fixed list: the description says so, no default does
    expect(param('/timeseries/stations/date', 'variables').default).toBeUndefined();
    expect(param('/info/list_variables', 'dataset').enum).toEqual(datasetNames);
    expect(param('/metadata/stations', 'STA_NAMES').default).toBe('ABERDEEN_STATION, ABIQUIU DAM_STATION');
    expect(spec.paths['/info/list_RES_NAMES']!.post!.requestBody).toBeDefined();
  });
});

describe('auth', () => {
  it('reads a keys file of digests with comments', () => {
    const digest = digestKey('k1').toString('hex');
    const ring = new KeyRing(parseKeysFile(`# a comment\n${digest}  # trailing\n\n${digest.toUpperCase()}\n`).digests);
    expect(ring.size).toBe(2);
    expect(ring.accepts('k1')).toBe(true);
    expect(ring.accepts('K1')).toBe(false);
    expect(ring.accepts('')).toBe(false);
    const mistaken = parseKeysFile('plain-key-by-mistake\n');
    expect(mistaken.digests).toEqual([]);
    expect(mistaken.problems).toEqual([expect.stringMatching(/:1: expected a hex SHA-256/)]);
    expect(mistaken.problems.join('\n')).not.toContain('plain-key'); // a key written by mistake is never echoed
  });
});

describe('acceptsGzip', () => {
  it('reads q-values', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('br, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(null)).toBe(false);
  });
});
