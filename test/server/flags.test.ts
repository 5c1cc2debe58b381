// Day flags and history on the wire (issue 13), through the app (no socket): also_return=qflag,status in every answer format,
// as_of on timeseries paths, /info/list_snapshots, and what /openapi.json says about them.
import { tableFromIPC } from 'apache-arrow';
import * as wasm from 'parquet-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest, textSource } from '../../lib/ingest/ingest.js';
import { openStore } from '../../lib/open/store.js';
import { createClient } from '../../lib/sync/client.js';
import { generateStore } from '../../lib/synthetic/generate.js';
import { tempDir } from '../helpers.js';
import { parseCsv, type TestApp, testApp } from './harness.js';

let app: TestApp;
let name: string;
let beforeTime: string;
const range = 'start_date=2021-03-20&end_date=2021-03-31';

beforeAll(async () => {
  const dir = await tempDir();
  await generateStore(dir, { reservoirs: 3, stations: 2, start: '2021-01-01', end: '2021-03-31', seed: 3 });
  await new Promise((resolve) => setTimeout(resolve, 20));
  beforeTime = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const store = await openStore(dir);
  name = store.manifest.reservoirs.names[0]!;
  const [day] = await store.reservoirTimeseries({ names: [name], datasets: ['lem'], variables: ['E_hs'], start: '2021-03-31', end: '2021-03-31' });
  await ingest(dir, [textSource('revision.json', JSON.stringify([{ ...day, 'E_hs (mm)': 7.25, status: 'Final' }]))]);
  await store.refresh();
  app = await testApp({ store });
});

const json = async (path: string) => {
  const response = await app.get(path);
  return { status: response.status, body: (await response.json()) as Record<string, unknown>[] & { detail?: unknown } };
};

describe('also_return=qflag,status', () => {
  it("gives each record its day's flags, the same in JSON, CSV, Parquet and Arrow", async () => {
    const path = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(name)}&datasets=lem&variables=E_hs&${range}&also_return=status,qflag`;
    const { status, body } = await json(path);
    expect(status).toBe(200);
    expect(body).toHaveLength(12);
    expect(Object.keys(body[0]!)).toEqual(['RES_NAME', 'start_date', 'end_date', 'E_hs (mm)', 'status', 'qflag']);
    // the data end 2021-03-31: its last 3 days Early (the revision made the last Final), the rest Provisional
    expect(body.map((r) => r.status)).toEqual([...Array(9).fill('Provisional'), 'Early', 'Early', 'Final']);
    expect(body.every((r) => ['O', 'M', 'R', 'S'].includes(r.qflag as string))).toBe(true);
    expect(parseCsv(await (await app.get(`${path}&output_format=csv`)).text())).toEqual(body);
    const parquet = new Uint8Array(await (await app.get(`${path}&output_format=parquet`)).arrayBuffer());
    const fromParquet = tableFromIPC(wasm.readParquet(parquet).intoIPCStream());
    expect(fromParquet.getChild('status')!.toArray()).toEqual(body.map((r) => r.status));
    const arrow = tableFromIPC(new Uint8Array(await (await app.get(`${path}&output_format=arrow`)).arrayBuffer()));
    expect(arrow.getChild('qflag')!.toArray()).toEqual(body.map((r) => r.qflag));
  });

  it('answers on one date and for stations; metadata keeps the reservoir-level qflag', async () => {
    const { body } = await json('/timeseries/daily/reservoirs/date?date=2021-03-31&datasets=lem&variables=E_hs&also_return=qflag,status');
    expect(body.find((r) => r.RES_NAME === name)!.status).toBe('Final');
    expect(body.filter((r) => r.RES_NAME !== name).map((r) => r.status)).toEqual(['Early', 'Early']);
    const stations = await json(
      `/timeseries/stations/daterange?STA_NAMES=${encodeURIComponent(app.store.manifest.stations.names.join(','))}&variables=ATemp&${range}&also_return=status`,
    );
    expect(stations.body.length).toBeGreaterThan(0);
    expect(stations.body.every((r) => r.status === (String(r.start_date) >= '2021-03-29' ? 'Early' : 'Provisional'))).toBe(true);
    const metadata = await json(`/metadata/reservoirs?RES_NAMES=${encodeURIComponent(name)}`);
    expect(['O', 'S']).toContain(metadata.body[0]!.qflag);
  });

  it('is refused with status on aggregate paths, as a FastAPI-style 422', async () => {
    const { status, body } = await json(`/timeseries/monthly/reservoirs/daterange?RES_NAMES=${encodeURIComponent(name)}&${range}&also_return=status`);
    expect(status).toBe(422);
    expect(JSON.stringify(body.detail)).toContain('status is a flag of each day');
  });
});

describe('as_of in the client and /info/list_snapshots (as_of on every path: as-of.test.ts)', () => {
  it("is asked by the HTTP client with asOf, and taken by the library's aggregates", async () => {
    const client = createClient({ baseUrl: 'http://localhost', apiKey: app.key, fetch: app.fetch });
    const query = { names: [name], datasets: ['lem'], variables: ['E_hs'], start: '2021-03-31', end: '2021-03-31', alsoReturn: ['status'] };
    const then = await client.reservoirTimeseries({ ...query, asOf: beforeTime });
    expect(then).toEqual(await app.store.reservoirTimeseries({ ...query, asOf: beforeTime }));
    expect(then[0]!.status).toBe('Early');
    const monthly = { names: [name], datasets: ['lem'], variables: ['E_hs'], start: '2021-03-01', end: '2021-03-31', interval: 'monthly' as const };
    const [old] = await app.store.reservoirAggregates({ ...monthly, asOf: beforeTime });
    const [now] = await app.store.reservoirAggregates(monthly);
    expect((now!['E_hs (mm)'] as number) - (old!['E_hs (mm)'] as number)).toBeCloseTo(7.25 - (then[0]!['E_hs (mm)'] as number), 3);
  });

  it('lists the snapshots as JSON and CSV', async () => {
    const { status, body } = await json('/info/list_snapshots');
    expect(status).toBe(200);
    expect(body.map((s) => s.id)).toEqual([1, 2]);
    expect(body[1]).toMatchObject({ files: 1, rows: 3 * 90, removed: 1 }); // the lem file of 2021 rewritten
    expect(parseCsv(await (await app.get('/info/list_snapshots?output_format=csv')).text())).toEqual(body);
  });

  it('is described in /openapi.json', async () => {
    const spec = (await (await app.get('/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { name: string; description: string }[] } }>;
    };
    const parameters = spec.paths['/timeseries/daily/reservoirs/daterange']!.get.parameters;
    expect(parameters.map((p) => p.name)).toContain('as_of');
    expect(parameters.find((p) => p.name === 'also_return')!.description).toMatch(/qflag.*status/);
    expect(spec.paths['/info/list_snapshots']).toBeDefined();
  });
});
