// Where OGC links point, over real sockets with hostile headers: a key never goes into a link, a configured public URL
// wins over every header, and forwarding headers count only when the server is told a proxy is in front.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../../server/app.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { demoStore, spawnMain, startTestServer } from '../harness.js';

const hostile = { host: 'attacker.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'forwarded.example' };

// GET over a socket with the headers given as they are (fetch would not send Host or keep it)
function links(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; hrefs: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, hrefs: [...text.matchAll(/"href":"([^"]*)"/g)].map((m) => m[1]!) }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function serverWith(links: { publicUrl?: string; trustProxy?: boolean }) {
  const key = 'k'.repeat(32);
  const handler = createHandler({ store: await demoStore(), keys: KeyRing.fromKeys([key]), links });
  return { server: await startTestServer({ handler }), key };
}

describe('OGC links', () => {
  it('never carry the key, and ignore forwarding headers unless told to trust them', async () => {
    const { server, key } = await serverWith({});
    for (const path of [`/ogc?api_key=${key}`, `/ogc/collections/lem/items?limit=2&api_key=${key}`]) {
      const { status, hrefs } = await links(server.url, path, hostile);
      expect(status).toBe(200);
      expect(hrefs.length).toBeGreaterThan(2);
      for (const href of hrefs) {
        expect(href).not.toContain(key);
        expect(href).not.toContain('api_key');
        expect(href).toMatch(/^http:\/\/attacker\.example\/ogc/); // the client's own Host, plain http: no forwarded scheme or host
      }
    }
  });

  it('point at the configured public URL whatever the headers say', async () => {
    const { server, key } = await serverWith({ publicUrl: 'https://evap.example.org/api', trustProxy: true });
    const { hrefs } = await links(server.url, `/ogc/collections?api_key=${key}`, hostile);
    expect(hrefs.length).toBeGreaterThan(2);
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/evap\.example\.org\/api\/ogc\/[^?]*(\?(f|profile)=[a-z]+)?$/);
  });

  it('take the forwarded scheme and host from a trusted proxy, and refuse a host that is not one', async () => {
    const { server, key } = await serverWith({ trustProxy: true });
    const { hrefs } = await links(server.url, '/ogc', { ...hostile, 'api-key': key });
    for (const href of hrefs) expect(href).toMatch(/^https:\/\/forwarded\.example\/ogc/);
    expect((await links(server.url, '/ogc', { ...hostile, 'x-forwarded-host': 'evil.example/x?y=', 'api-key': key })).status).toBe(400);
  });

  it('take --public-url in evap serve', async () => {
    const main = await spawnMain({ EVAP_API_KEYS: 'key-1' }, ['--public-url', 'https://evap.example.org/']);
    const { hrefs } = await links(main.url, '/ogc?api_key=key-1', hostile);
    expect(hrefs).toContain('https://evap.example.org/ogc/collections');
    for (const href of hrefs) expect(href).not.toContain('key-1');
  }, 60_000);
});
