// Keys on every data path: missing, empty, wrong and differently-cased keys are refused; keys never echoed or logged;
// the optional per-key rate limit.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler } from '../../server/app.js';
import { fromFetchRequest } from '../../server/incoming.js';
import { KeyRing } from '../../server/keys/auth.js';
import { readConfig } from '../../server/process/config.js';
import { routes } from '../../server/routes.js';
import { demoStore, startTestServer, type TestServer } from '../server/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('keys', () => {
  it('refuses a missing, empty, wrong or differently-cased key on every data path, without echoing it', async () => {
    const wrong = ['', 'not-the-key', server.key.toUpperCase(), server.key.slice(0, -1), `${server.key}0`, ` ${server.key}x`];
    let checked = 0;
    for (const route of routes) {
      const path = `${route.path}?RES_NAMES=LAKE%20ALICE&api-key=${server.key}`; // a key in the query does not count either
      const missing = await fetch(`${server.url}${path}`, { method: route.method });
      expect(missing.status, `${route.method} ${route.path}`).toBe(401);
      expect(((await missing.json()) as { detail: string }).detail).toMatch(/missing API key/);
      for (const key of wrong) {
        const response = await fetch(`${server.url}${path}`, { method: route.method, headers: { 'api-key': key } });
        expect(response.status, `${route.method} ${route.path} with ${JSON.stringify(key)}`).toBe(401);
        const text = await response.text();
        expect(text).toMatch(/API key/);
        if (key.trim() !== '') expect(text).not.toContain(key.trim());
        expect(text).not.toContain(server.key);
        checked++;
      }
      const right = await server.get(path, { method: route.method });
      expect(right.status, `${route.method} ${route.path} with the key`).toBe(200);
      await right.arrayBuffer();
    }
    expect(checked).toBe(routes.length * wrong.length);
    const log = server.logs.join('\n');
    expect(log).not.toContain(server.key);
    expect(log).not.toContain(server.key.toUpperCase());
    expect(log).toContain('api-key=***');
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past the per-key limit, counting each key on its own', async () => {
    const store = await demoStore();
    const handler = createHandler({ store, keys: KeyRing.fromKeys(['a', 'b']), rateLimitPerMinute: 3 });
    const ask = (key: string) => handler(fromFetchRequest(new Request('http://x/info/list_datasets', { headers: { 'api-key': key } })));
    // three in a burst pass; the fourth must wait about 20 s (one token at 3 a minute)
    for (let i = 0; i < 3; i++) expect((await ask('a')).status).toBe(200);
    const refused = await ask('a');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(20);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/at most 3 requests a minute per key/);
    expect((await ask('b')).status).toBe(200); // another key has its own bucket
    expect((await ask('wrong')).status).toBe(401); // bad keys are refused before counting
  });
});

describe('non-ASCII keys', () => {
  // a raw request, so that the key's bytes go out exactly as given
  function requestWithKey(url: string, key: Buffer): Promise<string> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.end(Buffer.concat([Buffer.from('GET /info/list_datasets HTTP/1.1\r\nhost: x\r\nconnection: close\r\napi-key: '), key, Buffer.from('\r\n\r\n')]));
      });
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('end', () => resolve(answer.split('\r\n')[0]!));
      socket.on('error', reject);
    });
  }

  it('accepts no encoding of a key outside printable ASCII, and refuses to be configured with one', async () => {
    const key = 'clé';
    const keyed = await startTestServer({ handler: createHandler({ store: await demoStore(), keys: KeyRing.fromKeys([key]) }) }); // as a keys file's digest could be
    try {
      expect(await requestWithKey(keyed.url, Buffer.from(key, 'utf8'))).toBe('HTTP/1.1 401 Unauthorized');
      expect(await requestWithKey(keyed.url, Buffer.from(key, 'latin1'))).toBe('HTTP/1.1 401 Unauthorized'); // was 200
      expect(await requestWithKey(keyed.url, Buffer.from('cle', 'latin1'))).toBe('HTTP/1.1 401 Unauthorized');
    } finally {
      await keyed.close();
    }
    expect(() => readConfig([], { EVAP_API_KEYS: `ascii-key, ${key}` })).toThrow(/EVAP_API_KEYS: key 2 has a character outside printable ASCII/);
    expect(readConfig([], { EVAP_API_KEYS: 'ascii-key, with space ~!' }).keys).toEqual(['ascii-key', 'with space ~!']);
  });
});
