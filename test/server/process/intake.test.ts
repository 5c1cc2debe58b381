// Request bodies while they arrive, on real sockets: their own allowance, the minimum rate, the whole-body deadline, and
// a query slot taken only once a body is in.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHandler } from '../../../server/app.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { demoStore, startTestServer } from '../harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// An upload of `length` declared bytes that sends `bytes` every `everyMs` from `from` (a loopback address), until
// the server closes the connection: what came back and when, from its headers' sending.
function trickle(url: string, key: string, options: { length: number; bytes: number; everyMs: number; from?: string }) {
  const { port } = new URL(url);
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: options.from ?? '127.0.0.1' });
  socket.on('error', () => {});
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.write(
    `POST /info/list_RES_NAMES HTTP/1.1\r\nHost: x\r\napi-key: ${key}\r\ncontent-type: multipart/form-data; boundary=x\r\ncontent-length: ${options.length}\r\n\r\n`,
  );
  const timer = setInterval(() => socket.writable && socket.write('x'.repeat(options.bytes)), options.everyMs);
  const started = Date.now();
  const closed = new Promise<{ text: string; ms: number }>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, ms: Date.now() - started });
    }),
  );
  return { socket, closed, send: (bytes: string) => socket.write(bytes) };
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d+) /.exec(text)?.[1]);
const detailOf = (text: string) => (JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { detail: string }).detail;

describe('Intake', () => {
  it('keeps queries answered while slow uploads trickle, refuses uploads past their allowance, and cuts the slow ones off with 408', async () => {
    const server = await startTestServer({
      serve: { maxConcurrent: 4, maxPerClient: 4, maxBodies: 4, maxBodiesPerClient: 3, bodyMinRate: 1000, bodyGraceMs: 1500, bodyTimeoutMs: 10_000 },
    });
    expect((await server.get('/info/list_datasets')).status).toBe(200); // warm: the timings below are of answers alone
    // 16 bytes every 250 ms (64 bytes a second), as the report's 16 bytes every 5 s: 8 from one address, 2 from another
    const slow = { length: 100_000, bytes: 16, everyMs: 250 };
    const uploads = Array.from({ length: 8 }, () => trickle(server.url, server.key, slow));
    await sleep(200); // these are in first: three held, five refused for their address
    uploads.push(...Array.from({ length: 2 }, () => trickle(server.url, server.key, { ...slow, from: '127.0.0.2' })));
    await sleep(200); // one held, the allowance then full
    const queries: { status: number; ms: number }[] = [];
    for (const until = Date.now() + 1000; Date.now() < until; ) {
      const started = Date.now();
      const response = await server.get('/info/list_datasets');
      await response.arrayBuffer();
      queries.push({ status: response.status, ms: Date.now() - started });
    }
    // before: the first four uploads held every query slot, and every query was a 503 until they were cut off
    expect(queries.filter((q) => q.status !== 200)).toEqual([]);
    expect(Math.max(...queries.map((q) => q.ms))).toBeLessThan(2000); // tens of ms alone; a loaded 2-core machine took 551

    const answers = await Promise.all(uploads.map((u) => u.closed));
    const refused = answers.filter((a) => statusOf(a.text) === 503).map((a) => detailOf(a.text));
    expect(refused.filter((d) => /^too many request bodies arriving from this client: more than 3; retry later$/.test(d))).toHaveLength(5);
    expect(refused.filter((d) => /^server busy: more than 4 request bodies arriving; retry later$/.test(d))).toHaveLength(1);
    const cut = answers.filter((a) => statusOf(a.text) === 408);
    expect(cut).toHaveLength(4);
    for (const { text, ms } of cut) {
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(detailOf(text)).toMatch(/^the request body arrives slower than 1000 bytes a second \(\d+ bytes in \d+ ms\)$/);
      expect(ms).toBeGreaterThanOrEqual(1500); // its grace
      expect(ms).toBeLessThan(4000); // the grace, its bytes' worth (about 0.1 s), a sweep's lag and a loaded machine
    }
    await expect.poll(() => server.logs.filter((l) => / POST \/info\/list_RES_NAMES 408 [\d.]+ms \d+B$/.test(l)).length).toBe(4);

    // the allowance is free again: an upload at full speed is answered
    const whole = await server.get('/info/list_RES_NAMES', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      body: '--x--\r\n',
    });
    expect(whole.status).toBe(200);
    expect(((await whole.json()) as { RES_NAMES: string[] }).RES_NAMES.length).toBeGreaterThan(0);
    await server.close();
  });

  it('cuts off a body that keeps the rate but passes the whole-body deadline', async () => {
    const server = await startTestServer({ serve: { bodyMinRate: 100, bodyGraceMs: 200, bodyTimeoutMs: 1200 } });
    const upload = trickle(server.url, server.key, { length: 1_000_000, bytes: 64, everyMs: 100 }); // 640 bytes a second
    const cutOff = setTimeout(() => upload.socket.destroy(), 8000); // before: node's request timeout (60 s) came first
    const { text, ms } = await upload.closed;
    clearTimeout(cutOff);
    expect(statusOf(text)).toBe(408);
    expect(detailOf(text)).toBe('the request body was not received within 1200 ms');
    expect(ms).toBeGreaterThanOrEqual(1200);
    expect(ms).toBeLessThan(4000);
    await server.close();
  });

  // found by the soak: with gaps between a body's bytes longer than --stall-timeout-ms, the stall sweep closed the
  // connection with no answer at all before the body's own deadline gave its 408
  it('answers a body that pauses longer than the stall timeout with 408, not a silent close', async () => {
    const server = await startTestServer({ serve: { stallTimeoutMs: 300, bodyMinRate: 100, bodyGraceMs: 1000, bodyTimeoutMs: 5000 } });
    const upload = trickle(server.url, server.key, { length: 1_000_000, bytes: 16, everyMs: 600 });
    const cutOff = setTimeout(() => upload.socket.destroy(), 8000);
    const { text, ms } = await upload.closed;
    clearTimeout(cutOff);
    expect(statusOf(text)).toBe(408);
    expect(detailOf(text)).toMatch(/^the request body arrives slower than 100 bytes a second/);
    expect(ms).toBeGreaterThanOrEqual(1000);
    await server.close();
  });

  // an upload answered before its body is in keeps sending; closed at once, the server's kernel answers those bytes with
  // a reset, and a client that had not read the answer yet loses it (EPIPE, nothing read: 5 of 5 before the close lingered)
  it('lets a client still sending its body read the 408 or 503 it was answered with', async () => {
    const server = await startTestServer({ serve: { bodyMinRate: 100, bodyGraceMs: 100, bodyTimeoutMs: 5000, maxBodies: 1 } });
    const { port } = new URL(server.url);
    const late = async (then?: Promise<unknown>) => {
      const socket = connect({ port: Number(port), host: '127.0.0.1' });
      socket.pause(); // the answer stays unread, as in a client busy sending
      let failed = '';
      socket.on('error', (error) => (failed = String(error)));
      socket.write(
        `POST /info/list_RES_NAMES HTTP/1.1\r\nHost: x\r\napi-key: ${server.key}\r\ncontent-type: multipart/form-data; boundary=x\r\ncontent-length: 100000\r\n\r\n${'x'.repeat(16)}`,
      );
      await (then ?? sleep(800)); // answered and closed meanwhile
      for (let i = 0; i < 3; i++) {
        socket.write('y'.repeat(16));
        await sleep(100);
      }
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.resume();
      await sleep(300);
      socket.destroy();
      return { status: statusOf(text), failed };
    };
    const first = late(); // holds the one body allowed, until its 408
    expect(await late(sleep(200))).toEqual({ status: 503, failed: '' });
    expect(await first).toEqual({ status: 408, failed: '' });
    await server.close();
  });

  it('takes a query slot only once the body has arrived, and answers 503 then if none is free', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const inner = createHandler({ store: await demoStore(), keys: KeyRing.fromKeys(['k']) });
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
    const body = '--x--\r\n';
    const upload = trickle(server.url, 'k', { length: body.length, bytes: 0, everyMs: 60_000 });
    upload.send(body.slice(0, 3));
    await sleep(200); // the upload is in the handler, its body half sent
    const slow = fetch(`${server.url}/slow`); // before: refused with 503, the upload holding the one slot
    await inFlight;
    upload.send(body.slice(3));
    const { text } = await upload.closed;
    expect(statusOf(text)).toBe(503);
    expect(text).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(detailOf(text)).toMatch(/server busy: more than 1 requests in flight/);
    release();
    expect((await slow).status).toBe(404);
    await server.close();
  });
});
