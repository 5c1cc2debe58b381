// Over real HTTP, every answer links to the provenance (RFC 8288 `Link`, rel="describedby"), under the database's own
// prefix when a server serves several; a saved CSV or JSON answer's headers say where to read that it is synthetic;
// an Arrow answer (read by apache-arrow) carries evap.synthetic in its schema metadata, forecasts included.
import { randomBytes } from 'node:crypto';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { createDatabasesHandler } from '../../server/databases.js';
import { KeyRing } from '../../server/keys/auth.js';
import { tempDir, writeTinyStore } from '../helpers.js';
import { demoStore, startTestServer } from './harness.js';

const plainDir = await tempDir();
await writeTinyStore(plainDir);
const key = randomBytes(16).toString('hex');
const demo = await demoStore();
const plain = await openStore(plainDir);
const handler = createDatabasesHandler({
  databases: [
    { name: 'usbr', store: demo },
    { name: 'plain', store: plain },
  ],
  keys: KeyRing.fromKeys([key]),
  logError: () => {},
});
const server = await startTestServer({ store: demo, handler });
afterAll(() => server.close());

const get = (path: string) => fetch(`${server.url}${path}`, { headers: { 'api-key': key } });

// the Link header's targets with rel="describedby" (RFC 8288: `<uri>; param=value, ...`)
function describedBy(header: string | null): string[] {
  return [...(header ?? '').matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)].filter((m) => /;\s*rel="?describedby"?/.test(m[2]!)).map((m) => m[1]!);
}

describe('Link: rel="describedby"', () => {
  it('points every JSON and CSV answer, errors too, at the provenance of its own database', async () => {
    const cases = [
      ['/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&output_format=csv', '/info/about', 200],
      ['/usbr/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD', '/usbr/info/about', 200],
      ['/plain/timeseries/daily/reservoirs/daterange?RES_NAMES=ALPHA%20LAKE&output_format=csv', '/plain/info/about', 200],
      ['/usbr/metadata/reservoirs?RES_NAMES=NO%20SUCH%20LAKE', '/usbr/info/about', 404],
    ] as const;
    for (const [path, about, status] of cases) {
      const response = await get(path);
      await response.arrayBuffer();
      expect([path, response.status, describedBy(response.headers.get('link'))]).toEqual([path, status, [about]]);
      // followed, the link gives the provenance, which says whether the numbers are synthetic
      const target = new URL(about, `${server.url}${path}`);
      const described = (await (await get(target.pathname)).json()) as { data: string };
      expect([path, described.data, response.headers.get('x-evap-data')]).toEqual(
        about.startsWith('/plain') ? [path, 'unknown', null] : [path, 'synthetic', 'synthetic'],
      );
    }
  });

  it('is sent on Arrow answers too, whose schema metadata says evap.synthetic', async () => {
    for (const path of [
      '/usbr/forecast/daily/reservoirs?RES_NAMES=LAKE%20MEAD&leads=1-2&output_format=arrow',
      '/usbr/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&output_format=arrow',
    ]) {
      const response = await get(path);
      expect([path, response.status, describedBy(response.headers.get('link'))]).toEqual([path, 200, ['/usbr/info/about']]);
      const table = tableFromIPC(new Uint8Array(await response.arrayBuffer()));
      expect(table.numRows).toBeGreaterThan(0);
      expect([path, table.schema.metadata.get('evap.synthetic'), table.schema.metadata.get('evap.data')]).toEqual([path, 'true', 'synthetic']);
    }
  });
});
