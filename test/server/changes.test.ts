// GET /changes through the handler, and through the remote client over a real socket: the library's answer, in JSON
// and CSV, `as_of` answered from the store as it was then, and the errors of a bad `since`.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { createClient } from '../../lib/sync/client.js';
import { cleanUp, tempDir, writeTinyStore } from '../helpers.js';
import { revise } from '../lib/tables/revise.js';
import { parseCsv, startTestServer, testApp } from './harness.js';

async function revisedStore() {
  const dir = await tempDir();
  await writeTinyStore(dir);
  await revise(dir, { kind: 'station', values: [5, 6] }, 0);
  await revise(dir, { kind: 'values', dataset: 'lem', year: 2021, edits: [{ row: 1, value: 3, flag: 1 }] }, 1);
  const store = await openStore(dir);
  cleanUp(() => store.close());
  return store;
}

describe('GET /changes', () => {
  it("answers the library's changes, as JSON and as CSV with the current snapshot in a header", async () => {
    const store = await revisedStore();
    const app = await testApp({ store });
    const expected = await store.changes({ since: '1' });
    expect(expected.changes.map((c) => c.table)).toEqual(expect.arrayContaining(['station_timeseries', 'reservoir_lem']));
    expect(await (await app.get('/changes?since=1')).json()).toEqual(expected);
    const csv = await app.get('/changes?since=1&output_format=csv');
    expect(csv.headers.get('x-evap-snapshot')).toBe('3');
    expect(parseCsv(await csv.text())).toEqual(expected.changes);
  });

  it('answers as of an earlier snapshot when as_of is given', async () => {
    const store = await revisedStore();
    const app = await testApp({ store });
    const second = (await store.listSnapshots())[1]!;
    const answer = (await (await app.get(`/changes?since=1&as_of=${encodeURIComponent(second.time)}`)).json()) as {
      current: number;
      changes: { table: string }[];
    };
    expect(answer.current).toBe(2);
    expect(new Set(answer.changes.map((c) => c.table))).toEqual(new Set(['station_timeseries']));
  });

  it('refuses an unpublished or malformed since with 422 naming since', async () => {
    const app = await testApp({ store: await revisedStore() });
    for (const query of ['?since=99', '?since=yesterday']) {
      const response = await app.get(`/changes${query}`);
      expect([response.status, ((await response.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc], query).toEqual([422, ['query', 'since']]);
    }
  });

  it('is what the remote client gets over HTTP', async () => {
    const store = await revisedStore();
    const server = await startTestServer({ store });
    const client = createClient(server.url, { apiKey: server.key });
    expect(await client.changes({ since: '2' })).toEqual(await store.changes({ since: '2' }));
  });
});
