// POST twins: the same answer as GET, with the parameters in a JSON or urlencoded body, through the app (no socket).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromFetchRequest } from '../../server/incoming.js';
import { bodyQuery } from '../../server/post-routes.js';
import { type TestApp, testApp } from './harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ limits: { maxUploadBytes: 4096 } });
});

const post = (path: string, type: string, body: string) => app.get(path, { method: 'POST', headers: { 'content-type': type }, body });
const text = async (response: Response) => {
  expect(response.status).toBe(200);
  return response.text();
};

describe('POST with parameters in the body', () => {
  it('answers every timeseries and metadata path as GET does, from JSON and from a form', async () => {
    const cases: [string, Record<string, string | string[]>][] = [
      [
        '/timeseries/daily/reservoirs/daterange',
        {
          RES_NAMES: ['LAKE MEAD', 'LAKE ALICE'],
          variables: ['NetE', 'E_volume'],
          datasets: 'nete-volume-calcs',
          start_date: '2020-01-01',
          end_date: '2020-01-05',
        },
      ],
      ['/timeseries/daily/reservoirs/date', { variables: 'NetE', datasets: 'nete-volume-calcs', date: '2020-06-01' }],
      ['/timeseries/stations/daterange', { STA_NAMES: ['LAKE MEAD_STATION'], start_date: '2020-01-01', end_date: '2020-01-03' }],
      ['/timeseries/stations/date', { date: '2020-06-01', output_format: 'csv' }],
      ['/timeseries/monthly/reservoirs/daterange', { RES_NAMES: ['LAKE POWELL'], start_date: '2020-01-01', end_date: '2020-06-30', statistic: 'max' }],
      ['/timeseries/normals/stations', { STA_NAMES: 'BLW_STATION', period: 'month' }],
      ['/metadata/reservoirs', { RES_NAMES: ['LAKE MEAD', 'LAKE POWELL', 'LAKE ALICE'] }],
      ['/metadata/stations', { STA_NAMES: ['BLW_STATION'], output_format: 'geojson' }],
    ];
    for (const [path, parameters] of cases) {
      const query = new URLSearchParams(Object.entries(parameters).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
      const expected = await text(await app.get(`${path}?${query}`));
      expect(await text(await post(path, 'application/json', JSON.stringify(parameters))), path).toBe(expected);
      expect(await text(await post(path, 'application/x-www-form-urlencoded; charset=utf-8', query.toString())), path).toBe(expected);
    }
  });

  it('lets the body override the query string, and takes an empty body as no parameters', async () => {
    const fromBody = await text(await post('/metadata/reservoirs?RES_NAMES=LAKE%20ALICE', 'application/json', '{"RES_NAMES": "LAKE MEAD"}'));
    expect(JSON.parse(fromBody).map((r: { RES_NAME: string }) => r.RES_NAME)).toEqual(['LAKE MEAD']);
    const empty = await app.get('/metadata/reservoirs?RES_NAMES=LAKE%20ALICE', { method: 'POST' });
    expect((await empty.json()).map((r: { RES_NAME: string }) => r.RES_NAME)).toEqual(['LAKE ALICE']);
  });

  it('refuses malformed bodies with a 422 naming the body, and long ones with a 413', async () => {
    const cases: [string, string, RegExp][] = [
      ['application/json', '{"RES_NAMES": ', /not valid JSON/],
      ['application/json', '["LAKE MEAD"]', /object of parameters/],
      ['application/json', '{"RES_NAMES": {"a": 1}}', /string, a number or a list/],
      ['text/plain', 'RES_NAMES=LAKE MEAD', /application\/json or application\/x-www-form-urlencoded/],
    ];
    for (const [type, body, message] of cases) {
      const response = await post('/timeseries/daily/reservoirs/daterange', type, body);
      expect(response.status, body).toBe(422);
      const detail = ((await response.json()) as { detail: { loc: string[]; msg: string }[] }).detail[0]!;
      expect(detail.loc[0]).toBe('body');
      expect(detail.msg).toMatch(message);
    }
    const unknown = await post('/metadata/reservoirs', 'application/json', '{"RES_NAMES": ["NO SUCH LAKE"]}');
    expect(unknown.status).toBe(404);
    const long = await post('/metadata/reservoirs', 'application/json', JSON.stringify({ RES_NAMES: Array.from({ length: 400 }, (_, i) => `LAKE ${i}`) }));
    expect(long.status).toBe(413);
  });
});

describe('a body of parameters', () => {
  const limits = { maxUploadBytes: 50 * 2 ** 20, maxNames: 500, maxVariables: 50 };
  const read = (body: string) =>
    bodyQuery(fromFetchRequest(new Request('http://x/metadata/reservoirs', { method: 'POST', headers: { 'content-type': 'application/json' }, body })), limits);

  it('is bounded to what parameters need, far under the upload limit, and its shape is checked before it is parsed', async () => {
    const deep = `{"RES_NAMES": ${'['.repeat(2000)}${']'.repeat(2000)}}`;
    await expect(read(deep)).rejects.toThrow(/nests deeper than an object of lists/);
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, 'x'])));
    await expect(read(wide)).rejects.toThrow(/more than 64 parameters/);
    const huge = JSON.stringify({ RES_NAMES: Array.from({ length: 60_000 }, (_, i) => `LAKE ${i}`) }); // over 800 KB
    await expect(read(huge)).rejects.toMatchObject({ status: 413, message: expect.stringMatching(/at most 577536 bytes/) });
  });

  it('reads any object of strings, numbers and lists as JSON.parse does, whatever brackets, colons and escapes its strings hold', async () => {
    const text = fc.string({ unit: fc.constantFrom('a', '[', ']', '{', '}', ':', '"', '\\', ',', ' ', 'é') });
    const value = fc.oneof(text, fc.integer(), fc.array(fc.oneof(text, fc.integer()), { maxLength: 5 }));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 10 }), async (parameters) => {
        const query = await read(JSON.stringify(parameters));
        for (const [name, v] of Object.entries(parameters)) expect(query.one(name)).toBe(Array.isArray(v) ? v.join(',') : String(v));
      }),
    );
  });
});
