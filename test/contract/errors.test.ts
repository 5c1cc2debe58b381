// Every error status through the app (no socket), with its FastAPI-shaped body that names the bad value and what is allowed.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { reservoirDatasets } from '../../lib/catalogue.js';
import { openStore } from '../../lib/open/store.js';
import { parseFileIndex } from '../../lib/store/file-index.js';
import { createKeyRequests } from '../../server/keys/requests.js';
import { tempDir, writeTinyStore } from '../helpers.js';
import { startTestServer, type TestApp, testApp } from '../server/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ limits: { maxNames: 5, maxUploadBytes: 64 * 1024 } });
});

async function detail(response: Response, status: number): Promise<unknown> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as { detail: unknown };
  expect(Object.keys(body)).toEqual(['detail']);
  return body.detail;
}

describe('401', () => {
  const path = '/info/list_datasets';
  it('rejects a missing key', async () => {
    expect(await detail(await app.fetch(`${path}`), 401)).toMatch(/missing API key.*api-key/);
  });
  it('rejects an empty, wrong or differently-cased key', async () => {
    for (const key of ['', 'wrong', app.key.toUpperCase(), `${app.key} `.trim() + 'x', app.key.slice(1)]) {
      expect(await detail(await app.get(path, { headers: { 'api-key': key } }), 401)).toMatch(/API key/);
    }
  });
  it('rejects every data path without a key, and opens /docs, /openapi.json and the one way to ask for a key', async () => {
    const spec = (await (await app.fetch(`/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const open: string[] = [];
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const status = (await app.fetch(`${path}`, { method: method.toUpperCase() })).status;
        // an operation whose security is the empty list is documented as needing no key
        if (operation.security?.length === 0) {
          open.push(`${method} ${path}`);
          expect(status, `${method} ${path}`).not.toBe(401);
        } else expect(status, `${method} ${path}`).toBe(401);
      }
    }
    expect(open).toEqual(['get /auth/request_key']); // how one asks for a key: it cannot need one
    expect((await app.fetch(`/docs`)).status).toBe(200);
  });
  it('never writes a key to the log', async () => {
    const server = await startTestServer(); // the access log is the node adapter's: a real socket
    await server.get('/info/list_datasets?api-key=' + server.key);
    await server.get('/info/list_datasets', { headers: { 'api-key': 'another-secret-value' } });
    const log = server.logs.join('\n');
    expect(log).toContain('GET /info/list_datasets');
    expect(log).not.toContain(server.key);
    expect(log).not.toContain('another-secret-value');
    await server.close();
  });
});

describe('404', () => {
  it('names the unknown reservoirs and stations', async () => {
    const d = await detail(await app.get('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE,NO%20SUCH%20LAKE,ATLANTIS'), 404);
    expect(d).toMatch(/NO SUCH LAKE/);
    expect(d).toMatch(/ATLANTIS/);
    expect(d).not.toMatch(/LAKE ALICE/);
    expect(await detail(await app.get('/metadata/stations?STA_NAMES=NOWHERE_STATION'), 404)).toMatch(/NOWHERE_STATION/);
    expect(await detail(await app.get('/info/list_stations_dates?STA_NAMES=NOWHERE_STATION'), 404)).toMatch(/NOWHERE_STATION/);
  });
  it('suggests the name meant when it differs by case or a letter or two', async () => {
    expect(await detail(await app.get('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MAED'), 404)).toBe(
      'reservoir not found: "LAKE MAED" (did you mean "LAKE MEAD"?); see /info/list_RES_NAMES',
    );
    expect(await detail(await app.get('/metadata/stations?STA_NAMES=lake%20mead_station'), 404)).toMatch(
      /"lake mead_station" \(did you mean "LAKE MEAD_STATION"\?\)/,
    );
    expect(await detail(await app.get('/timeseries/daily/reservoirs/daterange?RES_NAMES=ATLANTIS'), 404)).not.toMatch(/did you mean/);
    const [variable] = (await detail(await app.get('/timeseries/daily/reservoirs/daterange?datasets=nete-volume-calcs&variables=NetE,E_volum'), 422)) as {
      msg: string;
    }[];
    expect(variable!.msg).toMatch(/^unknown variable "E_volum" \(did you mean "E_volume"\?\)/);
  });
  it('answers an unknown path', async () => {
    expect(await detail(await app.get('/timeseries/daily/lakes'), 404)).toMatch(/no such path: \/timeseries\/daily\/lakes/);
    expect(await detail(await app.fetch(`/nothing`), 404)).toMatch(/\/docs/);
  });
});

describe('405', () => {
  it('answers a wrong method with Allow', async () => {
    const get = await app.get('/info/list_RES_NAMES');
    expect(await detail(get, 405)).toMatch(/GET.*allowed: POST/);
    expect(get.headers.get('allow')).toBe('POST');
    const post = await app.get('/info/list_datasets', { method: 'POST' }); // timeseries and metadata paths take POST too (issue 14)
    expect(await detail(post, 405)).toMatch(/allowed: GET/);
    expect((await app.get('/timeseries/stations/date', { method: 'DELETE' })).status).toBe(405);
  });
});

describe('422', () => {
  const cases: [string, string, RegExp][] = [
    ['/timeseries/daily/reservoirs/daterange?start_date=2020-13-01', 'start_date', /2020-13-01/],
    ['/timeseries/daily/reservoirs/daterange?start_date=2020-02-01&end_date=2020-01-01', 'end_date', /2020-01-01/],
    ['/timeseries/daily/reservoirs/date?date=yesterday', 'date', /yesterday/],
    ['/timeseries/daily/reservoirs/daterange?units=imperial', 'units', /imperial.*|metric, english/],
    ['/timeseries/daily/reservoirs/daterange?datasets=weather', 'datasets', /weather.*rtma/],
    ['/timeseries/daily/reservoirs/daterange?datasets=rtma&variables=NetE', 'variables', /NetE.*nete-volume-calcs/],
    ['/timeseries/stations/daterange?variables=NetE', 'variables', /NetE/],
    ['/timeseries/daily/reservoirs/daterange?also_return=password', 'also_return', /password.*qflag/],
    ['/info/list_datasets?output_format=xml', 'output_format', /json, csv.*xml/],
    ['/info/list_variables?dataset=weather', 'dataset', /weather/],
    ['/info/list_dates?dataset=rtma&variable=NetE', 'variable', /NetE/],
    ['/metadata/reservoirs?RES_NAMES=', 'RES_NAMES', /empty/],
    ['/metadata/reservoirs?RES_NAMES=A,B,C,D,E,F', 'RES_NAMES', /6 values; at most 5/],
  ];
  it.each(cases)('%s', async (path, parameter, message) => {
    const d = (await detail(await app.get(path), 422)) as { loc: string[]; msg: string; type: string; input: unknown }[];
    expect(d).toHaveLength(1);
    expect(Object.keys(d[0]!)).toEqual(['type', 'loc', 'msg', 'input']); // pydantic v2's order
    expect(d[0]!.loc).toEqual(['query', parameter]);
    expect(d[0]!.msg).toMatch(message);
    expect(typeof d[0]!.type).toBe('string');
    expect(d[0]!.input).toBe(new URL(path, 'http://x').searchParams.get(parameter));
  });
});

describe('422 input', () => {
  type Entry = { type: string; loc: string[]; msg: string; input: unknown };
  const refused = async (path: string, init?: RequestInit) => ((await detail(await app.get(path, init), 422)) as Entry[])[0]!;
  // any text a client can send: every Unicode character (no lone surrogate, which has no UTF-8 form), control characters included
  const text = fc.string({ unit: 'grapheme', maxLength: 30 });
  const nete = Object.keys(reservoirDatasets['nete-volume-calcs'].variables);
  const bad: [string, string, fc.Arbitrary<string>, (value: string) => string][] = [
    [
      'start_date',
      'a date',
      text.filter((v) => !/^\d{4}-\d\d-\d\d$/.test(v) && v !== 'latest' && !v.startsWith('P')),
      (v) => `/timeseries/daily/reservoirs/daterange?start_date=${encodeURIComponent(v)}`,
    ],
    ['units', 'units', text.filter((v) => v !== 'metric' && v !== 'english'), (v) => `/timeseries/stations/daterange?units=${encodeURIComponent(v)}`],
    ['output_format', 'a format', text.filter((v) => v !== 'json' && v !== 'csv'), (v) => `/info/list_datasets?output_format=${encodeURIComponent(v)}`],
    [
      'statistic',
      'a statistic',
      text.filter((v) => !['sum', 'mean', 'min', 'max'].includes(v)),
      (v) => `/timeseries/monthly/reservoirs/daterange?statistic=${encodeURIComponent(v)}`,
    ],
    ['as_of', 'a time', text.filter((v) => !/^\d{4}-\d\d-\d\d/.test(v)), (v) => `/timeseries/daily/reservoirs/daterange?as_of=${encodeURIComponent(v)}`],
    // a list: the whole comma-separated value, as sent, not the one entry refused
    [
      'variables',
      'a list with a bad entry',
      text.filter((v) => !v.includes(',') && v.trim() !== '' && !nete.includes(v.trim())).map((v) => `NetE, ${v}`),
      (v) => `/timeseries/daily/reservoirs/daterange?datasets=nete-volume-calcs&variables=${encodeURIComponent(v)}`,
    ],
  ];
  it.each(bad)('gives a bad %s (%s) as it was sent, after URL decoding', async (parameter, _what, values, path) => {
    await fc.assert(
      fc.asyncProperty(values, async (value) => {
        const entry = await refused(path(value));
        expect(entry.loc).toEqual(['query', parameter]);
        expect(entry.input).toBe(value);
      }),
      { numRuns: 40 },
    );
  });

  it('gives a list over the limit whole, and the last of a repeated parameter (the one read)', async () => {
    const names = ['LAKE MEAD', 'A & B', 'C+D', '100%', 'É', 'F'];
    const sent = names.join(',');
    expect((await refused(`/metadata/reservoirs?RES_NAMES=${encodeURIComponent(sent)}`)).input).toBe(sent);
    expect((await refused('/timeseries/stations/daterange?units=metric&units=si')).input).toBe('si');
  });

  it("gives a POST twin's body value as the body sent it (a JSON list joined as in the query string)", async () => {
    const post = (body: object) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await refused('/timeseries/stations/daterange', post({ units: 'kelvin' }))).input).toBe('kelvin');
    expect((await refused('/timeseries/daily/reservoirs/daterange', post({ variables: ['NetE', 'rain'] }))).input).toBe('NetE,rain');
  });

  it('gives null for a parameter left out', async () => {
    // end_date left out is its default, 2020-01-31, before this start
    const entry = await refused('/timeseries/daily/reservoirs/daterange?start_date=2021-06-01');
    expect(entry.loc).toEqual(['query', 'end_date']);
    expect(entry.input).toBeNull();
    // the fields of a key request are required; an empty one was sent, a missing one was not
    const keys = await testApp({ store: app.store, keyRequests: createKeyRequests(join(await tempDir(), 'requests')) });
    const ask = async (query: string) => ((await detail(await keys.fetch(`/auth/request_key?${query}`), 422)) as Entry[])[0]!;
    expect(await ask('email=a%40b.cd&justification=why')).toEqual({ type: 'missing', loc: ['query', 'name'], msg: 'name is required', input: null });
    expect((await ask('name=%20&email=a%40b.cd&justification=why')).input).toBe(' ');
    expect((await ask('name=Ann&email=not%20one&justification=why')).input).toBe('not one');
  });
});

describe('413', () => {
  it('refuses an upload over the limit', async () => {
    const form = new FormData();
    form.append('shapefile_shp', new Blob([new Uint8Array(100 * 1024)]), 'big.shp');
    const d = await detail(await app.get('/info/list_RES_NAMES', { method: 'POST', body: form }), 413);
    expect(d).toMatch(/65536 bytes/);
  });
});

describe('500', () => {
  it('refuses to serve a corrupted partition, names the file in the log and nothing of it to the client', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const tiny = await testApp({ store: await openStore(dir, { cacheBytes: 0, footerCacheBytes: 0 }) });
    const [first, second] = tiny.store.manifest.datasets['nete-volume-calcs']!.partitions.map((p) => p.files[0]!);
    const bytes = await readFile(join(dir, first!.path));
    // in the first row group's date chunk, which the query reads (its footer is not read: the file's index is)
    const layout = parseFileIndex(await readFile(join(dir, first!.index!.path), 'utf8'), first!);
    bytes[layout.ranges[0]![layout.columns.get('date')!]![0] + 2]! ^= 0x01;
    await writeFile(join(dir, first!.path), bytes);
    await writeFile(join(dir, second!.path), (await readFile(join(dir, second!.path))).subarray(0, 100));
    for (const year of ['2020-12-30', '2021-01-02']) {
      const response = await tiny.get(
        `/timeseries/daily/reservoirs/daterange?RES_NAMES=ALPHA%20LAKE&datasets=nete-volume-calcs&start_date=${year}&end_date=${year}`,
      );
      expect(await detail(response, 500)).toBe('Internal Server Error');
    }
    const log = tiny.logs.join('\n');
    expect(log).toContain(`store error: store file ${first!.path} is corrupt`);
    expect(log).toContain(`store error: store file ${second!.path} is truncated: shorter than the ${second!.bytes} bytes the manifest says`);
    expect((await tiny.get('/metadata/reservoirs?RES_NAMES=ALPHA%20LAKE')).status).toBe(200); // the rest is still served
  });
});
