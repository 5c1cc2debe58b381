// Kept answers written again from the socket (server/process/replays.ts, server/answer-cache.ts again): the same status, headers and bytes the handler
// gives, an access line for each request, and never past what would change the answer: a revoked key, a key never
// accepted, If-None-Match, gzip, a revision (a new snapshot, written here).
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest, textSource } from '../../../lib/ingest/ingest.js';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { createHandler, type Handler } from '../../../server/app.js';
import { createDatabasesHandler } from '../../../server/databases.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { requestHeaders } from '../../../server/process/adapter.js';
import { tempDir } from '../../helpers.js';
import { startTestServer, type TestServer } from '../harness.js';

describe('requestHeaders', () => {
  it('reads a header as the Headers the handler is given does (every raw header appended)', () => {
    const name = fc.constantFrom('api-key', 'API-Key', 'Accept-Encoding', 'accept-encoding', 'If-None-Match', 'x-other');
    const value = fc
      .tuple(fc.constantFrom('', ' ', '\t', '  \t'), fc.stringMatching(/^[!-~]([ -~]{0,10}[!-~])?$/), fc.constantFrom('', ' ', '\t '))
      .map(([before, text, after]) => `${before}${text}${after}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 6 }), name, (pairs, asked) => {
        const headers = new Headers();
        for (const [n, v] of pairs) headers.append(n, v);
        expect(requestHeaders({ rawHeaders: pairs.flat() }).get(asked)).toBe(headers.get(asked));
      }),
      { numRuns: 300 },
    );
  });
});

describe('kept answers sent again', () => {
  let store: EvapStore;
  let reservoir: string;
  let revise: (value: number) => Promise<void>;
  let server: TestServer;
  let keys: KeyRing;
  let handled = 0; // requests that reached the handler
  const key = 'replay-test-key';

  beforeAll(async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 2, stations: 1, start: '2021-01-01', end: '2021-03-31', seed: 11 });
    store = await openStore(dir);
    [reservoir] = store.manifest.reservoirs.names as [string];
    const [day] = await store.reservoirTimeseries({ names: [reservoir], datasets: ['lem'], variables: ['E_hs'], start: '2021-03-15', end: '2021-03-15' });
    revise = async (value) => {
      await ingest(dir, [textSource(`revision-${value}.json`, JSON.stringify([{ ...day, 'E_hs (mm)': value }]))]);
      expect(await store.refresh()).toBe(true);
    };
    keys = KeyRing.fromKeys([key]);
    const inner = createHandler({ store, keys });
    const handler: Handler = (request) => {
      handled++;
      return inner(request);
    };
    handler.again = inner.again; // the answers the handler has ready, written again by the adapter
    server = await startTestServer({ store, handler });
  });
  afterAll(async () => {
    await server.close();
    await store.close();
  });

  const target = () =>
    `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(reservoir)}&datasets=lem&variables=E_hs&start_date=2021-03-01&end_date=2021-03-31`;
  // node:http, not fetch: fetch asks for gzip on its own
  const get = (headers: Record<string, string> = { 'api-key': key }) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}${target()}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  const withoutDate = ({ date, ...headers }: Record<string, unknown>) => headers;
  const accessLines = () => server.logs.filter((line) => line.includes(' GET /timeseries/'));

  it('sends the same status, headers and bytes without the handler, and logs every request', async () => {
    const before = accessLines().length;
    const first = await get(); // made and kept
    const again = [await get(), await get(), await get()];
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"/);
    for (const answer of again) {
      expect(answer.status).toBe(200);
      expect(withoutDate(answer.headers)).toEqual(withoutDate(first.headers));
      expect(answer.body).toBe(first.body);
    }
    expect(handled).toBe(1); // the handler made the first answer; the socket sent the others again
    await expect.poll(() => accessLines().length).toBe(before + 4);
    for (const line of accessLines().slice(before)) expect(line.split(' ').slice(3, 6)).toEqual(['200', expect.stringMatching(/ms$/), `${first.body.length}B`]);
  });

  it('refuses a key revoked after its answer was kept, and a key never accepted', async () => {
    await get();
    const calls = handled;
    keys.replace([]);
    try {
      const revoked = await get();
      expect(revoked.status).toBe(401);
      expect(JSON.parse(revoked.body)).toEqual({ detail: 'invalid API key in the api-key header' });
    } finally {
      keys.replace(KeyRing.fromKeys([key]).digestList());
    }
    expect((await get({ 'api-key': `${key}-not` })).status).toBe(401);
    expect((await get({})).status).toBe(401);
    expect(handled).toBe(calls + 3);
    expect((await get()).status).toBe(200);
  });

  it('answers If-None-Match and a client taking gzip through the handler', async () => {
    const kept = await get();
    const calls = handled;
    expect((await get({ 'api-key': key, 'if-none-match': String(kept.headers.etag) })).status).toBe(304);
    const gzipped = await get({ 'api-key': key, 'accept-encoding': 'gzip' });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.etag).toBe(`W/${kept.headers.etag}`);
    expect(handled).toBe(calls + 2);
  });

  it('answers a revision anew, never with the bytes kept before it', async () => {
    const kept = await get();
    await get();
    await revise(987.5);
    const revised = await get();
    expect(revised.status).toBe(200);
    expect(revised.headers.etag).not.toBe(kept.headers.etag);
    const day = (JSON.parse(revised.body) as Record<string, unknown>[]).find((r) => r.start_date === '2021-03-15')!;
    expect(day['E_hs (mm)']).toBe(987.5);
  });

  it('sends again the answers of a server of several databases, by the target as sent', async () => {
    const inner = createDatabasesHandler({ databases: [{ name: 'one', store }], keys: KeyRing.fromKeys([key]) });
    let reached = 0;
    const handler: Handler = (request) => {
      reached++;
      return inner(request);
    };
    handler.again = inner.again;
    const several = await startTestServer({ store, handler });
    const get = (path: string) => fetch(`${several.url}${path}`, { headers: { 'api-key': key, 'accept-encoding': 'identity' } });
    for (const path of [`/one${target()}`, target()]) {
      const first = await get(path);
      const body = await first.text();
      const calls = reached;
      const again = await get(path);
      expect([again.status, await again.text(), again.headers.get('x-evap-databases')]).toEqual([200, body, '1']);
      expect(reached).toBe(calls); // written again by the adapter
    }
    await several.close();
  });
});
