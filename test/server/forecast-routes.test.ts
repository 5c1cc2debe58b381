// The forecast paths through the app (no socket): answers equal the library's, csv and parquet carry the same
// records, bad input is a FastAPI-shaped 422 naming the parameter, /openapi.json lists the paths, as_of reads the past.
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../lib/format/csv.js';
import { createClient } from '../../lib/sync/client.js';
import { forecastStore } from '../lib/forecast/fixture.js';
import { type TestApp, testApp } from './harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ store: await forecastStore() });
}, 120_000);

const get = (path: string, params: Record<string, string>) => app.get(`${path}?${new URLSearchParams(params)}`);

describe('the forecast paths', () => {
  it('answer what the library answers, as json, csv and parquet', async () => {
    const params = { RES_NAMES: 'LAKE ALICE,LAKE ESTES', variables: 'E_volume,NetE', leads: '1-7', statistics: 'mean,p05,p95', units: 'english' };
    const library = await app.store.forecastDaily({
      names: ['LAKE ALICE', 'LAKE ESTES'],
      variables: ['E_volume', 'NetE'],
      leads: '1-7',
      statistics: ['mean', 'p05', 'p95'],
      units: 'english',
    });
    expect(library).toHaveLength(14);
    const json = await get('/forecast/daily/reservoirs', params);
    expect(json.status).toBe(200);
    expect(await json.json()).toEqual(library);
    const csv = await get('/forecast/daily/reservoirs', { ...params, output_format: 'csv' });
    expect(await csv.text()).toBe(recordsToCsv(library, Object.keys(library[0]!)));
    const parquet = await get('/forecast/daily/reservoirs', { ...params, output_format: 'parquet' });
    const rows = await parquetReadObjects({
      file: await parquet.arrayBuffer(),
      compressors: { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) },
    });
    expect(rows.map((r) => r['E_volume (acre-ft) p95'])).toEqual(library.map((r) => r['E_volume (acre-ft) p95']));
  });

  it('lead, total and verification answer as the library does', async () => {
    const cases: [string, Record<string, string>, () => Promise<unknown>][] = [
      ['/forecast/daily/reservoirs/lead', { lead: '3', variables: 'E_hs' }, () => app.store.forecastLead({ lead: '3', variables: ['E_hs'] })],
      ['/forecast/total/reservoirs', { leads: '1-14', issued: '2021-06-08' }, () => app.store.forecastTotal({ leads: '1-14', issued: '2021-06-08' })],
      ['/forecast/verification/reservoirs', { leads: '1-2', variables: 'E_hs' }, () => app.store.forecastVerification({ leads: '1-2', variables: ['E_hs'] })],
      ['/forecast/info/list_issues', {}, async () => app.store.listForecastIssues()],
      ['/forecast/info/list_variables', {}, async () => app.store.listForecastVariables()],
    ];
    for (const [path, params, library] of cases) {
      const response = await get(path, params);
      expect(response.status, path).toBe(200);
      expect(await response.json(), path).toEqual(await library());
    }
  });

  it("refuse bad input with a 422 in FastAPI's shape, naming the parameter", async () => {
    for (const [params, parameter] of [
      [{ leads: '0-3' }, 'leads'],
      [{ variables: 'E_hs,tmmx_c' }, 'variables'],
      [{ statistics: 'p99' }, 'statistics'],
      [{ issued: 'yesterday' }, 'issued'],
      [{ units: 'imperial' }, 'units'],
    ] as const) {
      const response = await get('/forecast/daily/reservoirs', params);
      expect(response.status, JSON.stringify(params)).toBe(422);
      const body = (await response.json()) as { detail: { loc: string[]; msg: string }[] };
      expect(body.detail[0]!.loc).toEqual(['query', parameter]);
    }
    expect((await get('/forecast/daily/reservoirs', { RES_NAMES: 'LAKE MAED' })).status).toBe(404);
  });

  it('are listed in /openapi.json with their parameters', async () => {
    const spec = (await (await app.get('/openapi.json')).json()) as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    expect(spec.paths['/forecast/daily/reservoirs']!.get.parameters.map((p) => p.name)).toEqual([
      'RES_NAMES',
      'variables',
      'issued',
      'leads',
      'statistics',
      'units',
      'also_return',
      'output_format',
      'as_of',
    ]);
    for (const path of [
      '/forecast/daily/reservoirs/lead',
      '/forecast/total/reservoirs',
      '/forecast/verification/reservoirs',
      '/forecast/info/list_issues',
      '/forecast/info/list_variables',
    ])
      expect(spec.paths[path], path).toBeDefined();
  });

  it('are spoken by createClient', async () => {
    const client = createClient({ baseUrl: 'http://evap.test', apiKey: app.key, fetch: (input, init) => app.fetch(input as string, init) });
    expect(await client.forecastTotal({ names: 'LAKE ESTES', variables: ['pr'] } as never)).toEqual(
      await app.store.forecastTotal({ names: ['LAKE ESTES'], variables: ['pr'] }),
    );
    expect(await client.listForecastIssues()).toEqual(await app.store.listForecastIssues());
  });
});
