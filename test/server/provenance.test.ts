// Where the numbers come from, through the app (the header is the handler's, no socket needed): every answer of a synthetic store says so in a header, /docs says it
// in a line, and GET /info/about gives the provenance; a store of other data carries no such header.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { tempDir, writeSmallStore, writeTinyStore } from '../helpers.js';
import { testApp } from './harness.js';

const syntheticDir = await tempDir();
await writeSmallStore(syntheticDir); // the seeded generator, as the demo store is made
const plainDir = await tempDir();
await writeTinyStore(plainDir); // a store written by hand: no provenance recorded
const synthetic = await testApp({ store: await openStore(syntheticDir) });
const plain = await testApp({ store: await openStore(plainDir) });

const paths = [
  '/timeseries/daily/reservoirs/daterange?output_format=csv',
  '/timeseries/monthly/reservoirs/daterange',
  '/info/list_datasets',
  '/info/about',
  '/metadata/reservoirs?RES_NAMES=NO%20SUCH%20LAKE', // a 404
  '/timeseries/daily/reservoirs/daterange?start_date=2021-02-30', // a 422
  '/no/such/path',
  '/openapi.json',
  '/docs',
  '/',
];

describe('X-Evap-Data', () => {
  it('marks every answer of a synthetic store, errors and pages included', async () => {
    for (const path of paths) {
      const response = await synthetic.get(path);
      await response.arrayBuffer();
      expect([path, response.headers.get('x-evap-data')]).toEqual([path, 'synthetic']);
    }
    const keyless = await synthetic.fetch('/info/list_datasets'); // a 401 too
    expect([keyless.status, keyless.headers.get('x-evap-data')]).toEqual([401, 'synthetic']);
  });

  it('is absent from the answers of a store that is not synthetic', async () => {
    for (const path of paths) {
      const response = await plain.get(path);
      await response.arrayBuffer();
      expect([path, response.headers.get('x-evap-data')]).toEqual([path, null]);
    }
  });
});

describe('GET /info/about', () => {
  it("gives a synthetic store's provenance, as JSON and CSV", async () => {
    const about = await (await synthetic.get('/info/about')).json();
    expect(about).toMatchObject({ data: 'synthetic', source: 'synthetic, seeded model', dayTimeZone: 'UTC' });
    expect(about.title).toMatch(/NOT OperEvap data/);
    expect(about.citation.length).toBeGreaterThan(20);
    const csv = await (await synthetic.get('/info/about?output_format=csv')).text();
    expect(csv.split('\n')[0]).toBe('field,value');
    expect(csv).toContain('data,synthetic\n');
  });

  it('says the provenance of a store written without it is unknown', async () => {
    expect(await (await plain.get('/info/about')).json()).toMatchObject({ data: 'unknown', source: 'unknown' });
  });
});

describe('/docs', () => {
  it('shows a line saying the data are synthetic, in the page and in the OpenAPI description', async () => {
    const page = await (await synthetic.get('/docs')).text();
    expect(page).toMatch(/<p role="note"[^>]*>This server answers from a SYNTHETIC store/);
    const openapi = await (await synthetic.get('/openapi.json')).json();
    expect(openapi.info.description).toMatch(/^\*\*This server answers from a SYNTHETIC store/);
    expect(Object.keys(openapi.paths)).toContain('/info/about');
    expect(await (await plain.get('/docs')).text()).not.toMatch(/SYNTHETIC/);
  });
});
