// Several databases in one server: each store's paths under /<name>/..., the first also at the root, GET /databases,
// one key set and one rate limit, per-database /docs and /openapi.json, isolation of ingests, names that would hide a
// path of the API refused, and the remote client and mirror given a base URL with a path (over real HTTP).
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ingest } from '../../lib/ingest/ingest.js';
import { textSource } from '../../lib/ingest/text.js';
import { texasReservoirs } from '../../lib/model/texas.js';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { operations } from '../../lib/operations.js';
import { texasDemoAbout } from '../../lib/store/about.js';
import { createClient } from '../../lib/sync/client.js';
import { mirror } from '../../lib/sync/mirror.js';
import { generateStore } from '../../lib/synthetic/generate.js';
import { fetchFrom } from '../../server/app.js';
import { checkDatabaseNames, RESERVED_DATABASE_NAMES } from '../../server/database-names.js';
import { createDatabasesHandler, type DatabaseEntry } from '../../server/databases.js';
import { KeyRing } from '../../server/keys/auth.js';
import { parseDatabaseSettings } from '../../server/process/config.js';
import { routes } from '../../server/routes.js';
import { tempDir } from '../helpers.js';
import { spawnMain, startTestServer } from './harness.js';

const span = { start: '2021-01-01', end: '2021-01-31' };
let usbrDir: string;
let twdbDir: string;
let usbr: EvapStore;
let twdb: EvapStore;
const key = randomBytes(16).toString('hex');

function app(options: { rateLimitPerMinute?: number } = {}) {
  const handler = createDatabasesHandler({
    databases: [
      { name: 'usbr', store: usbr },
      { name: 'twdb', store: twdb },
    ],
    keys: KeyRing.fromKeys([key]),
    logError: () => {},
    ...options,
  });
  const fetch = fetchFrom(handler);
  return { handler, get: (path: string, headers: Record<string, string> = { 'api-key': key }) => fetch(path, { headers }) };
}

beforeAll(async () => {
  usbrDir = await tempDir();
  twdbDir = await tempDir();
  await generateStore(usbrDir, { reservoirs: 3, stations: 2, ...span, seed: 9 });
  await generateStore(twdbDir, { reservoirs: 4, stations: 0, ...span, seed: 11, places: texasReservoirs.slice(0, 4), about: texasDemoAbout(11) });
  usbr = await openStore(usbrDir);
  twdb = await openStore(twdbDir);
  return async () => {
    await usbr.close();
    await twdb.close();
  };
});

const names = async (response: Response) => ((await response.json()) as { RES_NAME: string }[]).map((r) => r.RES_NAME).sort();
const daterange = (name: string) => `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(name)}&start_date=2021-01-10&end_date=2021-01-12`;

describe('paths under each database', () => {
  it('answers each database from its own store, and the first one at the root too', async () => {
    const { get } = app();
    const texasNames = texasReservoirs
      .slice(0, 4)
      .map((r) => r.name)
      .sort();
    expect(await names(await get('/twdb/metadata/reservoirs?RES_NAMES=ALL'))).toEqual(texasNames);
    const usbrNames = await names(await get('/usbr/metadata/reservoirs?RES_NAMES=ALL'));
    expect(usbrNames).toHaveLength(3);
    expect(usbrNames.some((n) => texasNames.includes(n))).toBe(false);
    const atRoot = await get('/metadata/reservoirs?RES_NAMES=ALL');
    expect(atRoot.headers.get('x-evap-databases')).toBe('2'); // every answer says how many (the explorer's cue to ask /databases)
    expect(await names(atRoot)).toEqual(usbrNames); // the root is the first database
    const texasDay = await get(`/twdb${daterange(texasNames[0]!)}`);
    expect(texasDay.status).toBe(200);
    expect(((await texasDay.json()) as unknown[]).length).toBe(3);
    // a name of one database is unknown in the other
    expect((await get(`/usbr${daterange(texasNames[0]!)}`)).status).toBe(404);
    expect((await get(daterange(texasNames[0]!))).status).toBe(404);
    // a repeated slash or a trailing one still reaches the database
    expect(await names(await get('/twdb//metadata/reservoirs/?RES_NAMES=ALL'))).toEqual(texasNames);
  });

  it('keeps one cache of recent answers for every database: the first one at the root and under its name is read once', async () => {
    const { get } = app();
    const [name] = usbr.manifest.reservoirs.names;
    const asked = vi.spyOn(usbr, 'streamReservoirTimeseries');
    try {
      const first = await get(`/usbr${daterange(name!)}`);
      const again = await get(daterange(name!));
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(await again.text()).toBe(await first.text());
      expect(asked).toHaveBeenCalledTimes(1);
      // the other database's answer to the same query is its own
      const texas = await get(`/twdb${daterange(name!)}`);
      expect(texas.status).toBe(404);
    } finally {
      asked.mockRestore();
    }
  });

  it('serves /docs and /openapi.json per database, each naming its own base path', async () => {
    const { get } = app();
    const root = (await (await get('/openapi.json', {})).json()) as { servers?: unknown };
    expect(root.servers).toBeUndefined();
    const texas = (await (await get('/twdb/openapi.json', {})).json()) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(texas.servers).toEqual([{ url: '/twdb' }]);
    expect(Object.keys(texas.paths)).toContain('/timeseries/daily/reservoirs/daterange'); // relative to the server's url
    const page = await (await get('/twdb/docs', {})).text();
    expect(page).toContain('href="/twdb/docs/swagger-ui.css"');
    expect(page).toContain('src="/twdb/docs/init.js"');
    expect(await (await get('/twdb/docs/init.js', {})).text()).toContain("url: '/twdb/openapi.json'");
    expect((await get('/twdb/docs/swagger-ui.css', {})).status).toBe(200);
  });

  it('links the OGC paths of a database under its prefix', async () => {
    const { get } = app();
    const answer = (await (await get('/twdb/ogc/collections?f=json')).json()) as { links: { href: string }[] };
    const hrefs = answer.links.map((l) => new URL(l.href).pathname);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href.startsWith('/twdb/ogc')).toBe(true);
  });

  it('lists the databases with their title, coverage, period, kind and source', async () => {
    const { get } = app();
    const response = await get('/databases');
    expect(response.status).toBe(200);
    const list = (await response.json()) as DatabaseEntry[];
    expect(list.map((d) => [d.name, d.url, d.root])).toEqual([
      ['usbr', '/usbr', true],
      ['twdb', '/twdb', false],
    ]);
    const [u, t] = list;
    expect(u!.coverage).toEqual({ reservoirs: 3, stations: 2 });
    expect(t!.coverage).toEqual({ reservoirs: 4, stations: 0 });
    expect(t!.period).toEqual({ first: span.start, last: span.end });
    expect(t!.station_period).toEqual({ first: null, last: null });
    // which databases have forecasts: generated with none, and as many reservoirs and issues as a store was given
    expect(u!.forecasts).toEqual({ reservoirs: 0, first_issue: null, last_issue: null });
    const forecastDir = await tempDir();
    const forecastNames = [texasReservoirs[1]!.name, texasReservoirs[2]!.name];
    await generateStore(forecastDir, {
      reservoirs: 3,
      stations: 0,
      ...span,
      seed: 5,
      places: texasReservoirs.slice(0, 3),
      forecasts: { firstIssue: '2021-01-20', lastIssue: '2021-01-22', members: 2, keepMembers: 0, names: forecastNames },
    });
    const withForecasts = await openStore(forecastDir);
    const fetchWith = fetchFrom(
      createDatabasesHandler({ databases: [{ name: 'f', store: withForecasts }], keys: KeyRing.fromKeys([key]), logError: () => {} }),
    );
    const [listed] = (await (await fetchWith('/databases', { headers: { 'api-key': key } })).json()) as DatabaseEntry[];
    expect(listed!.forecasts).toEqual({ reservoirs: forecastNames.length, first_issue: '2021-01-20', last_issue: '2021-01-22' });
    await withForecasts.close();
    // a database without stations lists none, as names and as GeoJSON points (the explorer asks both)
    const post = (path: string) => fetchFrom(app().handler)(path, { method: 'POST', headers: { 'api-key': key } });
    expect(await (await post('/twdb/info/list_STA_NAMES')).json()).toEqual({ STA_NAMES: [] });
    const points = await post('/twdb/info/list_STA_NAMES?output_format=geojson');
    expect(points.status).toBe(200);
    expect(((await points.json()) as { features: unknown[] }).features).toEqual([]);
    expect(t!.synthetic).toBe(true);
    expect(t!.source).toBe('synthetic, seeded model');
    expect(t!.title).toContain('Texas');
    expect(t!.description).toContain('twdb.dri.edu');
  });

  it('asks one key set of every database and counts one rate limit for all', async () => {
    const { get } = app({ rateLimitPerMinute: 3 });
    expect((await get('/twdb/metadata/reservoirs?RES_NAMES=ALL', {})).status).toBe(401);
    expect((await get('/databases', {})).status).toBe(401);
    expect((await get('/twdb/metadata/reservoirs?RES_NAMES=ALL', { 'api-key': 'not-a-key' })).status).toBe(401);
    expect((await get('/usbr/metadata/reservoirs?RES_NAMES=ALL')).status).toBe(200);
    expect((await get('/twdb/metadata/reservoirs?RES_NAMES=ALL')).status).toBe(200);
    expect((await get('/databases')).status).toBe(200);
    const fourth = await get('/metadata/reservoirs?RES_NAMES=ALL');
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).not.toBeNull();
  });
});

describe('isolation', () => {
  it('an ingest into one database changes neither the answers nor the snapshots of the other', async () => {
    const { get } = app();
    const [texasName] = twdb.manifest.reservoirs.names;
    const [usbrName] = usbr.manifest.reservoirs.names;
    const usbrBefore = await (await get(`/usbr${daterange(usbrName!)}`)).text();
    const usbrSnapshots = await (await get('/usbr/info/list_snapshots')).text();
    const texasSnapshots = await (await get('/twdb/info/list_snapshots')).text();
    const csv = ['name,dataset,variable,date,value', `${texasName},nete-volume-calcs,NetE,2021-01-11,12.5`].join('\n');
    const summary = await ingest(twdbDir, [textSource('revision.csv', csv)]);
    expect(summary.problems).toEqual([]);
    expect(await twdb.refresh()).toBe(true);
    expect(await usbr.refresh()).toBe(false);
    const texasAfter = (await (await get(`/twdb${daterange(texasName!)}&variables=NetE`)).json()) as Record<string, unknown>[];
    expect(texasAfter.find((r) => r.start_date === '2021-01-11')!['NetE (mm)']).toBe(12.5);
    expect(await (await get('/twdb/info/list_snapshots')).text()).not.toBe(texasSnapshots);
    expect(await (await get(`/usbr${daterange(usbrName!)}`)).text()).toBe(usbrBefore);
    expect(await (await get(`${daterange(usbrName!)}`)).text()).toBe(usbrBefore);
    expect(await (await get('/usbr/info/list_snapshots')).text()).toBe(usbrSnapshots);
  });
});

describe('database names', () => {
  it('reserves the first segment of every path the API answers', () => {
    const segments = new Set([...routes.map((r) => r.path), ...Object.values(operations).map((o) => o.path)].map((p) => p.split('/')[1]!));
    for (const segment of segments) expect(RESERVED_DATABASE_NAMES).toContain(segment);
    for (const segment of ['docs', 'openapi.json', 'ogc', 'auth', 'databases']) expect(RESERVED_DATABASE_NAMES).toContain(segment);
  });

  it('refuses a name that would hide a path, a malformed one and a repeated one, saying why', () => {
    for (const name of ['info', 'timeseries', 'docs', 'ogc', 'auth', 'metadata', 'databases', 'INFO'])
      expect(() => checkDatabaseNames([name])).toThrow(/is a path of the API/);
    for (const name of ['', 'Texas', 'a b', '-x', 'x/y', 'x'.repeat(41)]) expect(() => checkDatabaseNames([name])).toThrow(/must be 1 to 40/);
    expect(() => checkDatabaseNames(['twdb', 'twdb'])).toThrow(/given twice/);
    expect(() => checkDatabaseNames(['usbr', 'twdb', 'conus-2026'])).not.toThrow();
    expect(() =>
      createDatabasesHandler({
        databases: [{ name: 'timeseries', store: usbr }],
        keys: KeyRing.fromKeys([key]),
      }),
    ).toThrow(/is a path of the API/);
  });

  it('reads --store and EVAP_STORE as named entries, or one bare location as before', () => {
    expect(parseDatabaseSettings(['usbr=data', 'twdb=s3://bucket/texas'], undefined)).toEqual([
      { name: 'usbr', location: 'data' },
      { name: 'twdb', location: 's3://bucket/texas' },
    ]);
    expect(parseDatabaseSettings(undefined, 'usbr=data, twdb=data/twdb')).toEqual([
      { name: 'usbr', location: 'data' },
      { name: 'twdb', location: 'data/twdb' },
    ]);
    expect(parseDatabaseSettings(undefined, 's3://bucket/a,b')).toEqual([{ name: undefined, location: 's3://bucket/a,b' }]); // as before: one location
    expect(parseDatabaseSettings(['data'], 'ignored=x')).toEqual([{ name: undefined, location: 'data' }]); // the flag wins
    expect(parseDatabaseSettings(undefined, undefined)).toEqual([]);
    expect(() => parseDatabaseSettings(['usbr=data', 'other'], undefined)).toThrow(/every one needs a name/);
    expect(() => parseDatabaseSettings(['info=data'], undefined)).toThrow(/is a path of the API/);
    expect(() => parseDatabaseSettings(['twdb='], undefined)).toThrow(/names no location/);
    expect(() => parseDatabaseSettings(undefined, 'a=x,a=y')).toThrow(/given twice/);
  });
});

describe('over HTTP: the client and mirror given a database URL', () => {
  it('createClient and mirror work with a base URL ending in the database name', async () => {
    const { handler } = app();
    const server = await startTestServer({ handler });
    try {
      const client = createClient({ baseUrl: `${server.url}/twdb/`, apiKey: key });
      expect(await client.listReservoirNames()).toEqual(twdb.manifest.reservoirs.names);
      expect((await client.about()).title).toContain('Texas');
      expect(await createClient(`${server.url}/twdb`, { apiKey: key }).listReservoirNames()).toEqual(twdb.manifest.reservoirs.names);
      await expect(createClient(`${server.url}/twdb`).listReservoirNames()).rejects.toThrow(/401/); // no key given, none sent
      const root = createClient({ baseUrl: server.url, apiKey: key });
      expect(await root.listReservoirNames()).toEqual(usbr.manifest.reservoirs.names);

      const copyDir = await tempDir();
      const summary = await mirror(copyDir, { baseUrl: `${server.url}/twdb`, apiKey: key });
      expect(summary.problems).toEqual([]);
      const copy = await openStore(copyDir);
      try {
        expect(copy.manifest.reservoirs.names).toEqual(twdb.manifest.reservoirs.names);
        expect(copy.synthetic).toBe(true); // a copy of synthetic data stays synthetic
        expect(copy.about().title).toContain(`${server.url}/twdb`);
        const [name] = twdb.manifest.reservoirs.names;
        const range = { names: [name!], start: span.start, end: span.end };
        expect(await copy.reservoirTimeseries(range)).toEqual(await twdb.reservoirTimeseries(range));
      } finally {
        await copy.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('npm start', () => {
  it('serves the demo databases with no store given: Reclamation at the root and /usbr, the Texas-like one at /twdb', async () => {
    const server = await spawnMain({ EVAP_API_KEYS: key, EVAP_STORE: '' });
    const get = (path: string) => fetch(`${server.url}${path}`, { headers: { 'api-key': key } });
    const list = (await (await get('/databases')).json()) as DatabaseEntry[];
    expect(list.map((d) => [d.name, d.root, d.coverage.reservoirs])).toEqual([
      ['usbr', true, 67],
      ['twdb', false, texasReservoirs.length],
    ]);
    const travis = '/metadata/reservoirs?RES_NAMES=LAKE%20TRAVIS';
    expect(((await (await get(`/twdb${travis}`)).json()) as { STATE: string }[])[0]!.STATE).toBe('TX');
    expect((await get(travis)).status).toBe(404); // not in the Reclamation demo at the root
    expect((await get('/usbr/metadata/reservoirs?RES_NAMES=LAKE%20MEAD')).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 60_000);

  it('refuses to start with a database name that is a path of the API', async () => {
    await expect(spawnMain({ EVAP_API_KEYS: key }, ['--store', 'info=data'])).rejects.toThrow(/exited with 2: database name "info" is a path of the API/);
  }, 60_000);
});
