import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError, NotFoundError } from '../../../lib/errors.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { createClient, type EvapClient, RemoteError } from '../../../lib/sync/client.js';
import { tempDir, writeSmallStore } from '../../helpers.js';
import { startTestServer } from '../../server/harness.js';

let store: EvapStore;
let client: EvapClient;
let server: { url: string; key: string };

beforeAll(async () => {
  const dir = await tempDir();
  await writeSmallStore(dir);
  store = await openStore(dir);
  server = await startTestServer({ store: store });
  client = createClient({ baseUrl: server.url, apiKey: server.key, backoffMs: 1 });
});

/** Both answers of one query, or both errors' class and message. */
async function both<T>(call: (api: EvapStore | EvapClient) => T | Promise<T>) {
  const settle = async (api: EvapStore | EvapClient) => {
    try {
      return { value: await call(api) };
    } catch (error) {
      return { error: (error as Error).name, message: (error as Error).message };
    }
  };
  return [await settle(store), await settle(client)] as const;
}

describe('createClient', () => {
  it('answers every query function as the in-process store does', async () => {
    const names = store.manifest.reservoirs.names;
    const stations = store.manifest.stations.names;
    const shape = join(import.meta.dirname, '../../fixtures/shapefiles/colorado_wgs84/colorado_wgs84');
    const shapefile = Object.fromEntries(await Promise.all(['shp', 'dbf', 'prj', 'shx'].map(async (p) => [p, await readFile(`${shape}.${p}`)])));
    const calls: [string, (api: EvapStore | EvapClient) => unknown][] = [
      ['reservoirTimeseries', (api) => api.reservoirTimeseries({ names, start: '2020-12-25', end: '2021-01-05' })],
      [
        'reservoirTimeseries english',
        (api) =>
          api.reservoirTimeseries({
            names: names.slice(1, 3),
            datasets: ['lem', 'rtma'],
            variables: ['Tw', 'pr'],
            units: 'english',
            start: '2020-12-30',
            end: '2021-01-02',
            alsoReturn: ['qflag', 'LAT'],
          }),
      ],
      ['reservoirTimeseriesOnDate', (api) => api.reservoirTimeseriesOnDate({ date: '2021-01-01' })],
      [
        'reservoirTimeseriesOnDate english',
        (api) => api.reservoirTimeseriesOnDate({ date: '2020-12-31', datasets: ['res'], units: 'english', alsoReturn: ['qflag'] }),
      ],
      ['stationTimeseries', (api) => api.stationTimeseries({ names: stations, start: '2020-12-25', end: '2021-01-05' })],
      [
        'stationTimeseries english',
        (api) =>
          api.stationTimeseries({
            names: stations.slice(0, 1),
            variables: ['ATemp', 'WS'],
            units: 'english',
            start: '2020-12-28',
            end: '2021-01-03',
            alsoReturn: ['RES_NAME'],
          }),
      ],
      ['stationTimeseriesOnDate', (api) => api.stationTimeseriesOnDate({ date: '2021-01-02' })],
      [
        'reservoirAggregates annual max',
        (api) => api.reservoirAggregates({ names, interval: 'annual', start: '2020-01-01', end: '2021-06-30', statistic: 'max', alsoReturn: ['STATE'] }),
      ],
      [
        'reservoirAggregates monthly against normals',
        (api) =>
          api.reservoirAggregates({
            names: names.slice(0, 2),
            datasets: ['lem'],
            variables: ['E_hs'],
            units: 'english',
            start: '2020-11-01',
            end: '2021-02-28',
            compareTo: 'normal',
            baseStart: '2019-01-01',
            baseEnd: '2020-12-31',
          }),
      ],
      [
        'stationAggregates water-year',
        (api) => api.stationAggregates({ names: stations, interval: 'water-year', start: '2020-01-01', end: '2021-09-30', variables: ['ATemp', 'WD'] }),
      ],
      [
        'reservoirNormals by day',
        (api) => api.reservoirNormals({ names: names.slice(0, 1), datasets: ['rtma'], variables: ['pr'], period: 'day', baseEnd: '2020-12-31' }),
      ],
      ['stationNormals by day', (api) => api.stationNormals({ names: stations.slice(0, 1), period: 'day', units: 'english' })],
      ['reservoirModel warmer', (api) => api.reservoirModel({ names: names.slice(0, 1), start: '2020-12-28', end: '2021-01-03', taDelta: '2' })],
      ['listDatasets', (api) => api.listDatasets()],
      ['listVariables', (api) => api.listVariables()],
      ['listVariables rtma', (api) => api.listVariables('rtma')],
      ['listDates', (api) => api.listDates()],
      ['listDates lem Tw', (api) => api.listDates('lem', 'Tw')],
      ['listReservoirNames', (api) => api.listReservoirNames()],
      ['listReservoirNames shapefile', (api) => api.listReservoirNames(shapefile)],
      ['listStationNames', (api) => api.listStationNames()],
      ['listStationNames shapefile', (api) => api.listStationNames(shapefile)],
      ['listStationVariables', (api) => api.listStationVariables()],
      ['listStationVariables some', (api) => api.listStationVariables(stations.slice(0, 2))],
      ['listStationDates', (api) => api.listStationDates()],
      ['listStationDates some', (api) => api.listStationDates(stations.slice(1))],
      ['reservoirMetadata', (api) => api.reservoirMetadata(names)],
      ['stationMetadata', (api) => api.stationMetadata(stations)],
      ['default names (not in this store)', (api) => api.reservoirTimeseries()],
      ['unknown dataset', (api) => api.listVariables('nope')],
    ];
    for (const [what, call] of calls) {
      const [local, remote] = await both(call);
      expect(remote, what).toEqual(local);
      // every query is answered with records, so the comparison is of answers, not of two errors or two empty lists;
      // but the last two, and the shapefile listings (no generated place lies in Colorado)
      if (!['default names (not in this store)', 'unknown dataset', 'listReservoirNames shapefile', 'listStationNames shapefile'].includes(what))
        expect((local as { value?: unknown[] }).value?.length, `${what}: ${JSON.stringify(local).slice(0, 200)}`).toBeGreaterThan(0);
    }
  });

  it('maps 404 to NotFoundError naming the missing names', async () => {
    const error = await client.reservoirMetadata(['NO SUCH LAKE']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).missing).toEqual(['NO SUCH LAKE']);
  });

  it('maps 422 to InvalidParameterError naming the parameter and the value the server says it was sent', async () => {
    const error = await client.reservoirTimeseries({ names: store.manifest.reservoirs.names, start: '2021-02-30' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect((error as InvalidParameterError).parameter).toBe('start_date');
    expect((error as InvalidParameterError).value).toBe('2021-02-30');
  });

  it('throws RemoteError with status and detail for a wrong key', async () => {
    const wrong = createClient({ baseUrl: server.url, apiKey: 'wrong' });
    const error = await wrong.listDatasets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as RemoteError).status).toBe(401);
  });

  it('retries 429 and 5xx with backoff, honouring Retry-After', async () => {
    const statuses = [503, 429, 500];
    const waits: number[] = [];
    let last = performance.now();
    const flaky: typeof fetch = async (input, init) => {
      const now = performance.now();
      waits.push(now - last);
      last = now;
      const status = statuses.shift();
      if (status) return new Response(JSON.stringify({ detail: 'busy' }), { status, headers: status === 429 ? { 'retry-after': '0.05' } : {} });
      return fetch(input, init);
    };
    const retrying = createClient({ baseUrl: server.url, apiKey: server.key, fetch: flaky, backoffMs: 20 });
    expect(await retrying.listDatasets()).toEqual(store.listDatasets());
    expect(waits[1]).toBeGreaterThanOrEqual(18); // backoff 20 ms
    expect(waits[2]).toBeGreaterThanOrEqual(45); // Retry-After 0.05 s
    expect(waits[3]).toBeGreaterThanOrEqual(75); // backoff 80 ms
    const failing = createClient({
      baseUrl: server.url,
      apiKey: server.key,
      retries: 1,
      backoffMs: 1,
      fetch: async () => new Response('{"detail":"down"}', { status: 502 }),
    });
    await expect(failing.listDatasets()).rejects.toMatchObject({ name: 'RemoteError', status: 502, detail: 'down' });
  });

  it('gives up on a server that does not answer within timeoutMs, saying so with the URL', async () => {
    const silent = createServer(() => {}); // accepts, never answers
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    try {
      const slow = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', timeoutMs: 200, retries: 1, backoffMs: 1 });
      await expect(slow.listDatasets()).rejects.toThrow(`no answer within 200 ms from http://127.0.0.1:${port}/info/list_datasets`);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('names the URL and the system error when nothing listens', async () => {
    const gone = createServer();
    await new Promise<void>((done) => gone.listen(0, '127.0.0.1', done));
    const { port } = gone.address() as { port: number };
    await new Promise((done) => gone.close(done));
    const offline = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', retries: 0 });
    await expect(offline.listDatasets()).rejects.toThrow(new RegExp(`^http://127\\.0\\.0\\.1:${port}/info/list_datasets: fetch failed: connect ECONNREFUSED`));
  });
});
