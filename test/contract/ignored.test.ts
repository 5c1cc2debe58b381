// Misspelled options are not silently ignored: FastAPI ignores a query parameter a path does not take, and so does
// the server, but its answer names each one with the parameter it most likely meant; the library refuses an option
// it does not know, takes a single name as a list of one and a Date as its day; the client passes a server's
// complaint on to its warn callback.
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidParameterError } from '../../lib/errors.js';
import { openStore } from '../../lib/open/store.js';
import { createClient } from '../../lib/sync/client.js';
import { tempDir, writeTinyStore } from '../helpers.js';
import { type TestApp, testApp } from '../server/harness.js';

let app: TestApp; // over the tiny store
let demo: TestApp; // over the demo store, which holds the default names
beforeAll(async () => {
  const dir = await tempDir();
  await writeTinyStore(dir);
  app = await testApp({ store: await openStore(dir) });
  demo = await testApp();
});

const range = 'datasets=nete-volume-calcs&variables=NetE&start_date=2020-12-30&end_date=2021-01-02';

describe('a parameter the path does not take', () => {
  it('is named in x-evap-ignored-parameters with the one meant, and the answer is what the defaults give', async () => {
    const misspelled = await demo.get(`/timeseries/daily/reservoirs/daterange?RES_NAME=LAKE%20MEAD&${range}`);
    expect(misspelled.status).toBe(200);
    expect(misspelled.headers.get('x-evap-ignored-parameters')).toBe('RES_NAME (did you mean "RES_NAMES"?)');
    const plain = await demo.get(`/timeseries/daily/reservoirs/daterange?${range}`);
    expect(plain.headers.get('x-evap-ignored-parameters')).toBeNull();
    expect(await misspelled.text()).toBe(await plain.text());
  });

  it('names every ignored one once, a name that fits no header percent-encoded, and one with nothing near plainly', async () => {
    const response = await app.get(`/metadata/reservoirs?RES_NAMES=ALPHA%20LAKE&output_fromat=csv&%C3%A9t%C3%A9=1&zzz=1&zzz=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-evap-ignored-parameters')).toBe('output_fromat (did you mean "output_format"?), %C3%A9t%C3%A9, zzz');
  });

  it('is named on a POST twin whose JSON body holds it, on the error the defaults lead to, and on a listing path', async () => {
    const post = await app.get('/timeseries/stations/daterange', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ STA_NAME: ['ALPHA_STATION'] }),
    });
    expect(post.status).toBe(404); // the default stations, which the tiny store does not hold
    expect(post.headers.get('x-evap-ignored-parameters')).toBe('STA_NAME (did you mean "STA_NAMES"?)');
    const listing = await app.get('/info/list_variables?datset=res');
    expect(listing.headers.get('x-evap-ignored-parameters')).toBe('datset (did you mean "dataset"?)');
  });

  it('reaches the remote client, which tells its warn callback', async () => {
    const warnings: string[] = [];
    // a fetch that adds a misspelling, as a client of another version might send one the server does not take
    const fetch = (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      url.searchParams.set('outputformat', 'csv');
      return app.fetch(url, init);
    };
    const client = createClient({ baseUrl: 'http://localhost', apiKey: app.key, fetch, warn: (m) => warnings.push(m) });
    await client.listDatasets();
    expect(warnings).toEqual(['/info/list_datasets ignored the parameters outputformat (did you mean "output_format"?)']);
  });
});

describe('an option the library does not take', () => {
  it('is refused by the store and by the client, naming the option meant', async () => {
    const refusal = expect.objectContaining({
      name: 'InvalidParameterError',
      parameter: 'name',
      message: expect.stringMatching(/^unknown option "name" \(did you mean "names"\?\)/),
    });
    await expect(app.store.reservoirTimeseries({ name: ['BETA RESERVOIR'] } as never)).rejects.toEqual(refusal);
    expect(() => app.store.streamReservoirTimeseries({ name: ['BETA RESERVOIR'] } as never)).toThrow(InvalidParameterError);
    expect(() => app.store.streamStationAggregates({ interval: 'annual', statistc: 'sum' } as never)).toThrow(
      /unknown option "statistc" \(did you mean "statistic"\?\)/,
    );
    const client = createClient({ baseUrl: 'http://localhost', apiKey: app.key, fetch: app.fetch });
    await expect(client.reservoirTimeseries({ name: ['BETA RESERVOIR'] } as never)).rejects.toEqual(refusal);
    await expect(app.store.reservoirTimeseries('BETA RESERVOIR' as never)).rejects.toThrow(/must be an object/);
  });

  it('takes one name as a string, and Dates as their UTC days, on the store and the client alike', async () => {
    const asArrays = { names: ['BETA RESERVOIR'], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2020-12-30', end: '2021-01-02' };
    const expected = await app.store.reservoirTimeseries(asArrays);
    expect(expected.map((r) => r.start_date)).toEqual(['2020-12-30', '2020-12-31', '2021-01-01', '2021-01-02']);
    const loose = { ...asArrays, names: 'BETA RESERVOIR', start: new Date('2020-12-30'), end: new Date(Date.UTC(2021, 0, 2, 23, 59)) } as never;
    expect(await app.store.reservoirTimeseries(loose)).toEqual(expected);
    const client = createClient({ baseUrl: 'http://localhost', apiKey: app.key, fetch: app.fetch });
    expect(await client.reservoirTimeseries(loose)).toEqual(expected);
    await expect(app.store.reservoirTimeseries({ ...asArrays, start: new Date('not a date') } as never)).rejects.toThrow(/start is an invalid Date/);
  });
});
