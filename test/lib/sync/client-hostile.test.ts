// The client against hostile servers on loopback: redirects to another origin never carry the api-key, an endless or
// inflating answer is cut at the bound, and the timeout fires on every attempt, with the garbage collector run meanwhile.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/sync/client.js';

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1'): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, host, done));
  return `http://${host}:${(server.address() as { port: number }).port}`;
}

describe('the client against a redirecting server', () => {
  it('sends the api-key to the origin it was given for only, whatever the redirects', async () => {
    const seen: { origin: string; key: string | undefined }[] = [];
    const answer = (origin: string) => (req: IncomingMessage, res: ServerResponse) => {
      seen.push({ origin, key: req.headers['api-key'] as string | undefined });
      const hop = new URL(req.url!, 'http://x').searchParams.get('hop');
      if (req.url!.startsWith('/go')) return res.writeHead(302, { location: `${other}/info/list_datasets?hop=1` }).end();
      if (hop === '1') return res.writeHead(307, { location: `${home}/info/list_datasets?hop=2` }).end(); // and back home
      res.writeHead(200, { 'content-type': 'application/json' }).end('["rtma"]');
    };
    const home = await listen((req, res) => answer('home')(req, res));
    const other = await listen((req, res) => answer('other')(req, res)); // another port: another origin
    const client = createClient({ baseUrl: `${home}/go`, apiKey: 'secret', retries: 0 });
    expect(await client.listDatasets()).toEqual(['rtma']);
    expect(seen).toEqual([
      { origin: 'home', key: 'secret' },
      { origin: 'other', key: undefined },
      { origin: 'home', key: 'secret' },
    ]);
  });

  it('refuses a loop of redirects with a clear error', async () => {
    const loop = await listen((req, res) => res.writeHead(302, { location: req.url! }).end());
    await expect(createClient({ baseUrl: loop, apiKey: 'k', retries: 0 }).listDatasets()).rejects.toThrow(/more than 10 redirects/);
  });
});

describe('the client against an answer without end', () => {
  it('stops an endless JSON body at the bound, without retrying', async () => {
    let requests = 0;
    const endless = await listen((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const chunk = `${'1,'.repeat(32 * 1024)}`;
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const client = createClient({ baseUrl: endless, apiKey: 'k', maxAnswerBytes: 4 * 2 ** 20, retries: 2, backoffMs: 1 });
    await expect(client.listDatasets()).rejects.toThrow(/the answer is larger than 4194304 bytes \(maxAnswerBytes\)/);
    expect(requests).toBe(1);
  });

  it('counts an inflating gzip body once inflated, stopping it at the bound', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 2 ** 20, 0x20)); // 64 MiB of spaces, about 64 KiB sent
    const server = await listen((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb));
    const client = createClient({ baseUrl: server, apiKey: 'k', maxAnswerBytes: 2 ** 20, retries: 0 });
    await expect(client.listDatasets()).rejects.toThrow(/larger than 1048576 bytes/);
    expect(bomb.length).toBeLessThan(2 ** 20); // what came over the wire was under the bound: only inflating passed it
  });
});

describe('the client against a server that trickles', () => {
  it('times out every attempt, even with the garbage collector run while it waits', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void; // the collector that could take an unreferenced timeout signal
    let attempts = 0;
    const trickle = await listen((_req, res) => {
      attempts++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 50);
      res.on('close', () => clearInterval(drip));
    });
    const collecting = setInterval(gc, 20);
    try {
      const stop = new AbortController(); // a caller's signal, as evap mirror passes: the timeout is combined with it
      const client = createClient({ baseUrl: trickle, apiKey: 'k', timeoutMs: 300, retries: 3, backoffMs: 1, signal: stop.signal });
      await expect(client.listDatasets()).rejects.toThrow(/no answer within 300 ms/);
      expect(attempts).toBe(4);
    } finally {
      clearInterval(collecting);
    }
  }, 30_000);
});
