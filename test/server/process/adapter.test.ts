// The node:http adapter on real sockets: early 413, mid-stream failures, the 503 bound, gzip.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { EvapStore } from '../../../lib/open/store.js';
import { createHandler } from '../../../server/app.js';
import type { IncomingRequest } from '../../../server/incoming.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { demoStore, startTestServer } from '../harness.js';

// A raw HTTP exchange, to control the body and read the bytes on the wire.
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string | number>; body?: Buffer },
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${options.path}`, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

describe('serve', () => {
  it('answers 413 from Content-Length before the body is sent, and closes the connection', async () => {
    const server = await startTestServer({ limits: { maxUploadBytes: 1024 } });
    const { port, hostname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.write(
      `POST /info/list_RES_NAMES HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\ncontent-type: multipart/form-data; boundary=x\r\ncontent-length: ${200 * 1024 * 1024}\r\n\r\n--x`,
    );
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await new Promise((resolve) => socket.on('close', resolve)); // the server closes it: the 200 MB are never read
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/connection: close/i);
    expect(text).toContain('"detail":"the request body exceeds the limit of 1024 bytes');
    await server.close();
  });

  it('cuts off a client that dribbles its headers past the headers timeout', async () => {
    const server = await startTestServer({ serve: { headersTimeoutMs: 300, requestTimeoutMs: 1000 } });
    const { port, hostname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.write('GET /info/list_datasets HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const started = Date.now();
    await new Promise((resolve) => socket.on('close', resolve));
    clearInterval(timer);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(3000);
    await server.close();
  });

  it('refuses a 200 MB chunked upload after the limit without reading or buffering the rest', async () => {
    const server = await startTestServer({ limits: { maxUploadBytes: 1024 * 1024 } });
    const { port, hostname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    let text = '';
    let closed = false;
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => {}); // EPIPE / ECONNRESET once the server has closed: expected
    socket.on('close', () => (closed = true));
    socket.write(
      `POST /info/list_RES_NAMES HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\ncontent-type: multipart/form-data; boundary=x\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    const framed = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let sent = 0;
    while (!closed && sent < 200 * chunk.length) {
      if (!socket.write(framed))
        await new Promise((resolve) => {
          socket.once('drain', resolve);
          socket.once('close', resolve);
        });
      sent += chunk.length;
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    if (!closed) await new Promise((resolve) => socket.once('close', resolve));
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(32 * chunk.length); // the server stopped reading: the client could not push 200 MB
    expect(rssPeak - rssBefore).toBeLessThan(100 * 1024 * 1024);
    await server.close();
  });

  it('cuts off headers dribbled one byte a second, and a body dribbled past the request timeout', async () => {
    const server = await startTestServer({ serve: { headersTimeoutMs: 1500, requestTimeoutMs: 2000 } });
    const { port, hostname } = new URL(server.url);
    const dribble = (head: string, then = '') => {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {});
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.write(head);
      let i = 0;
      const timer = setInterval(() => socket.writable && socket.write(then.charAt(i++ % then.length)), 1000);
      const started = Date.now();
      return new Promise<{ text: string; ms: number }>((resolve) =>
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ text, ms: Date.now() - started });
        }),
      );
    };
    const [headers, body] = await Promise.all([
      dribble('G', 'ET /info/list_datasets HTTP/1.1\r\nHost: x\r\n\r\n'),
      dribble(
        `POST /info/list_RES_NAMES HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\ncontent-type: multipart/form-data; boundary=x\r\ncontent-length: 1000\r\n\r\n`,
        'x',
      ),
    ]);
    expect(headers.text).toMatch(/^HTTP\/1\.1 408 [\s\S]*"detail":"the request was not received in time"/);
    expect(headers.ms).toBeLessThan(4000);
    expect(body.text).toMatch(/^HTTP\/1\.1 (408|400) /);
    expect(body.ms).toBeLessThan(5000);
    await server.close();
  });

  it('answers 413 to a chunked upload once it passes the limit', async () => {
    const server = await startTestServer({ limits: { maxUploadBytes: 1024 } });
    const answer = await raw(server.url, {
      method: 'POST',
      path: '/info/list_STA_NAMES',
      headers: { 'api-key': server.key, 'content-type': 'multipart/form-data; boundary=x', 'transfer-encoding': 'chunked' },
      body: Buffer.alloc(4096, 1),
    });
    expect(answer.status).toBe(413);
    await server.close();
  });

  it('parses the request target once on its way from the socket to the route, and still answers it', async () => {
    const server = await startTestServer();
    const target =
      '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE&datasets=nete-volume-calcs&variables=NetE&start_date=2020-01-01&end_date=2020-01-03';
    const parsed: string[] = [];
    const RealURL = globalThis.URL;
    // every URL made while the request is answered (fetch's Request makes its own with the global URL too)
    globalThis.URL = class extends RealURL {
      constructor(input: string | URL, base?: string | URL) {
        super(input, base);
        if (this.pathname.endsWith('/reservoirs/daterange')) parsed.push(this.href);
      }
    } as typeof URL;
    try {
      // node:http's client with options: it makes no URL of its own
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: Number(new RealURL(server.url).port), path: target, headers: { 'api-key': server.key } }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as unknown[]).length).toBe(3);
    } finally {
      globalThis.URL = RealURL;
    }
    expect(parsed).toEqual([`http://localhost${target}`]);
    await server.close();
  });
  it('gzips when asked and collapses repeated slashes', async () => {
    const server = await startTestServer();
    const path = '//timeseries/daily/reservoirs/daterange/?RES_NAMES=LAKE%20ALICE&start_date=2020-01-01&end_date=2020-03-31';
    const zipped = await raw(server.url, { path, headers: { 'api-key': server.key, 'accept-encoding': 'gzip' } });
    const plain = await raw(server.url, { path, headers: { 'api-key': server.key, 'accept-encoding': 'gzip;q=0, identity' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
    expect(JSON.parse(plain.body.toString())).toHaveLength(91);
    await server.close();
  });

  it('sends a short answer whole with a Content-Length and streams a long one in chunks', async () => {
    const server = await startTestServer();
    const headers = { 'api-key': server.key };
    const short = await raw(server.url, { path: '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE', headers });
    expect(short.headers['content-length']).toBe(String(short.body.length));
    expect(short.headers['transfer-encoding']).toBeUndefined();
    const path = '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE,LAKE%20MEAD,LAKE%20POWELL&start_date=2019-01-01&end_date=2021-12-31';
    const long = await raw(server.url, { path, headers });
    expect(long.headers['transfer-encoding']).toBe('chunked');
    expect(long.body.length).toBeGreaterThan(1 << 20);
    expect(JSON.parse(long.body.toString())).toHaveLength(3 * 1096);
    await server.close();
  });

  it('aborts the connection and logs when a stream fails mid-way', async () => {
    const real = await demoStore();
    const failing = Object.create(real) as EvapStore;
    failing.streamReservoirTimeseries = (query) => {
      const stream = real.streamReservoirTimeseries(query);
      async function* thenFail<T>(chunks: AsyncIterable<T>): AsyncGenerator<T> {
        for await (const chunk of chunks) yield chunk;
        throw new Error('disk went away');
      }
      return { ...stream, batches: thenFail(stream.batches), json: () => thenFail(stream.json()), csv: () => thenFail(stream.csv()) };
    };
    const server = await startTestServer({ store: failing });
    // an answer longer than what is built whole (WHOLE_ANSWER_CHARS) is streamed: the failure comes after the status line
    const long = '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE,LAKE%20MEAD,LAKE%20POWELL&start_date=2019-01-01&end_date=2021-12-31';
    const response = await server.get(long, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    // the lines are written once the server has given the answer up, which the client may see first
    await expect.poll(() => server.logs.join('\n')).toMatch(/response aborted: GET \/timeseries\/daily\/reservoirs\/daterange: Error: disk went away/);
    await expect.poll(() => server.logs.join('\n')).toMatch(/ 200 [\d.]+ms \d+B aborted/);
    // a short answer is built whole before the status line, so the same failure is a clean 500
    const short = await server.get('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20ALICE');
    expect(short.status).toBe(500);
    expect(await short.json()).toEqual({ detail: 'Internal Server Error' });
    await server.close();
  });

  it('answers 503 with Retry-After beyond the concurrency bound', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const store = await demoStore();
    const inner = createHandler({ store, keys: KeyRing.fromKeys(['k']) });
    const server = await startTestServer({
      handler: async (request) => {
        if (request.url.pathname === '/slow') {
          entered();
          await gate;
        }
        return inner(request);
      },
      serve: { maxConcurrent: 1 },
    });
    const slow = fetch(`${server.url}/slow`);
    await inFlight; // the slow request holds the one slot
    const busy = await fetch(`${server.url}/info/list_datasets`, { headers: { 'api-key': 'k' } });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect((await busy.json()).detail).toMatch(/more than 1 requests in flight/);
    release();
    expect((await slow).status).toBe(404);
    expect((await fetch(`${server.url}/info/list_datasets`, { headers: { 'api-key': 'k' } })).status).toBe(200);
    await server.close();
  });
  it('keeps answering after pipelined requests, a connection closed under them, resets and early closes', async () => {
    const server = await startTestServer({ serve: { maxConcurrent: 4 } });
    const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\n${extra}\r\n`;
    // how the client leaves: the server closes (Connection: close), a reset, a destroy, or a half-close right after sending
    const burst = (text: string, leave: 'server' | 'reset' | 'destroy' | 'end') =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => {
          socket.write(text);
          if (leave === 'end') socket.end();
          if (leave === 'reset') setTimeout(() => socket.resetAndDestroy(), 5);
          if (leave === 'destroy') setTimeout(() => socket.destroy(), 5);
        });
        socket.on('data', () => {});
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
        setTimeout(() => socket.destroy(), 2000);
      });
    const long = get('/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&start_date=2019-01-01&end_date=2021-12-31');
    for (let i = 0; i < 6; i++) {
      // a request that closes the connection, with more queued behind it on the same socket
      await burst(get('/info/list_datasets', 'Connection: close\r\n') + get('/info/list_datasets').repeat(5), 'server');
      for (const leave of ['reset', 'destroy', 'end'] as const) await burst(long.repeat(6), leave);
    }
    for (let i = 0; i < 8; i++) expect((await server.get('/info/list_datasets')).status).toBe(200);
    await server.close();
  });
  it('cancels the answers of pipelined requests queued behind a connection that is gone', async () => {
    let started = 0;
    let cancelled = 0;
    const chunk = new Uint8Array(64 * 1024);
    const handler = async () => {
      started++;
      return new Response(new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(chunk), cancel: () => void cancelled++ })); // endless
    };
    const server = await startTestServer({ handler });
    await new Promise<void>((resolve) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3)));
      socket.once('data', () => socket.destroy());
      socket.on('close', () => resolve());
    });
    for (const until = Date.now() + 5000; cancelled < 3 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 50));
    expect([started, cancelled]).toEqual([3, 3]); // the two queued answers were never cancelled: their generators waited forever
    await server.close();
  });
  it('holds a slot until the handler is done, even when its client reset the connection', async () => {
    let running = 0;
    let peak = 0;
    const handler = async () => {
      peak = Math.max(peak, ++running);
      await new Promise((resolve) => setTimeout(resolve, 30)); // the work a query does, whether or not anyone waits for it
      running--;
      return new Response('{}');
    };
    const server = await startTestServer({ handler, serve: { maxConcurrent: 4 } });
    for (let i = 0; i < 10; i++)
      await new Promise<void>((resolve) => {
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => {
          socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(4));
          setTimeout(() => socket.resetAndDestroy(), 5);
        });
        socket.on('error', () => resolve());
        socket.on('close', () => resolve());
      });
    for (const until = Date.now() + 5000; running > 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(peak).toBeLessThanOrEqual(4); // slots given back at the reset let every burst in: 40 handlers ran at once
    expect((await server.get('/a')).status).toBe(200);
    await server.close();
  });
  it('pulls a gzip answer only as fast as a client reads it', async () => {
    const { compress } = await import('../../../server/answers.js');
    const { randomBytes } = await import('node:crypto');
    let pulled = 0;
    const handler = async (request: IncomingRequest) =>
      compress(
        request,
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled >= 256 * 2 ** 20) return controller.close();
              const chunk = new TextEncoder().encode(randomBytes(48 * 1024).toString('base64')); // hardly compressible
              pulled += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        ),
      );
    const server = await startTestServer({ handler });
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    socket.pause(); // a client that never reads
    socket.write('GET /big HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(pulled).toBeLessThan(32 * 2 ** 20); // socket buffers and a few chunks, not the whole 256 MiB answer
    socket.destroy();
    await server.close();
  });
  it('bounds the slots one client holds, and frees the slots of clients that stop reading', async () => {
    const server = await startTestServer({ serve: { maxConcurrent: 8, maxPerClient: 2, stallTimeoutMs: 500 } });
    const big = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(server.store.manifest.reservoirs.names.slice(0, 60).join(','))}&start_date=2019-01-01&end_date=2021-12-31`;
    const sockets = [0, 1].map(() => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () =>
        socket.write(`GET ${big} HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\n\r\n`),
      );
      socket.pause(); // never reads
      socket.on('error', () => {});
      return socket;
    });
    // once both stalled answers hold their slots, a third request from the same client is refused
    let refused = await server.get('/info/list_datasets');
    while (refused.status === 200) {
      await refused.arrayBuffer();
      refused = await server.get('/info/list_datasets');
    }
    expect(refused.status).toBe(503);
    expect((await refused.json()).detail).toMatch(/too many requests in flight from this client: more than 2/);
    // past the stall timeout both stalled connections are closed, their answers cut and logged, their slots given back
    const cut = () => server.logs.filter((l) => / 200 .* aborted$/.test(l)).length;
    await expect.poll(cut, { timeout: 10_000, interval: 50 }).toBe(2);
    expect((await server.get('/info/list_datasets')).status).toBe(200);
    sockets.forEach((s) => s.destroy());
    await server.close();
  });
  it('answers a request without Host, an unknown Expect and CONNECT with a JSON detail', async () => {
    const server = await startTestServer();
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        let out = '';
        const socket = connect(Number(new URL(server.url).port), '127.0.0.1', () => socket.write(text));
        socket.on('data', (d) => (out += d.toString()));
        socket.on('close', () => resolve(out));
        socket.on('error', () => resolve(out));
        setTimeout(() => socket.destroy(), 2000);
      });
    const cases: [string, number, RegExp][] = [
      [`GET /info/list_datasets HTTP/1.1\r\napi-key: ${server.key}\r\n\r\n`, 400, /no Host header/],
      [`GET /info/list_datasets HTTP/1.1\r\nHost: x\r\nExpect: foo\r\napi-key: ${server.key}\r\n\r\n`, 417, /unsupported Expect header: "foo"/],
      ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405, /CONNECT is not supported/],
      // refused as fetch's Request refused them before the adapter parsed the target itself
      [`TRACE /info/list_datasets HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\n\r\n`, 400, /malformed request/],
      [`GET http://user:secret@x/info/list_datasets HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\n\r\n`, 400, /malformed request/],
    ];
    for (const [request, status, detail] of cases) {
      const answer = await raw(request);
      expect(answer.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(answer).toMatch(/content-type: application\/json/i);
      expect((JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { detail: string }).detail).toMatch(detail);
    }
    expect((await server.get('/info/list_datasets')).status).toBe(200);
    await server.close();
  });
});
