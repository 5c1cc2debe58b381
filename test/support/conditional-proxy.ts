// TEST AID, not part of the product: a loopback proxy in front of s3rver that adds what s3rver lacks and S3 does.
// s3rver ignores If-Match and If-None-Match on PUT and writes an object in place (a GET during a PUT can see half of
// it). Here a PUT or DELETE holds its key exclusively (GETs and HEADs of the key wait, and share it among themselves),
// and a conditional PUT is checked against s3rver's own ETag under that hold: `If-None-Match: *` over an existing
// object and a wrong `If-Match` get 412 PreconditionFailed, `If-Match` on a missing object 404 NoSuchKey, as in S3.
// `fault` lets a test make requests fail or stall, to exercise the client's retries and timeouts.
import { createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 'stall' | 'error' | 'lose-answer' | undefined; // lose-answer: done upstream, then 503 to the client

export interface ConditionalProxy {
  url: string;
  requests: { method: string; key: string; status: number }[]; // every request answered, for tests to inspect
  close(): Promise<void>;
}

/** Starts the proxy on a loopback port in front of the s3rver at `target` (http://host:port). */
export async function startConditionalProxy(target: string, fault?: (method: string, key: string) => Fault): Promise<ConditionalProxy> {
  const upstream = new URL(target);
  const locks = new Map<string, KeyLock>();
  const requests: ConditionalProxy['requests'] = [];
  const lockOf = (key: string) => {
    let lock = locks.get(key);
    if (!lock) locks.set(key, (lock = new KeyLock()));
    return lock;
  };
  const forward = (req: IncomingMessage, method: string, headers: OutgoingHttpHeaders, body?: Buffer) =>
    new Promise<{ status: number; headers: OutgoingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const out = httpRequest({ host: upstream.hostname, port: upstream.port, method, path: req.url, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(body);
    });
  const reply = (res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Buffer | string) => {
    res.writeHead(status, headers);
    res.end(body);
  };

  const server = createServer(async (req, res) => {
    const method = req.method ?? 'GET';
    const key = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const injected = fault?.(method, key);
    if (injected === 'stall') return; // never answers; the client's timeout must end it
    if (injected === 'error') return reply(res, 503, { 'content-type': 'application/xml' }, s3Error('SlowDown', 'injected by the test'));
    const exclusive = method === 'PUT' || method === 'DELETE' || method === 'POST';
    const lock = lockOf(key);
    await (exclusive ? lock.write() : lock.read());
    try {
      const headers: OutgoingHttpHeaders = { ...req.headers };
      const ifMatch = req.headers['if-match'];
      const ifNoneMatch = req.headers['if-none-match'];
      if (method === 'PUT' && (ifMatch !== undefined || ifNoneMatch !== undefined)) {
        const probeHeaders = { ...headers };
        delete probeHeaders['content-length'];
        delete probeHeaders['if-match'];
        delete probeHeaders['if-none-match'];
        const head = await forward(req, 'HEAD', probeHeaders);
        const etag = head.status === 200 ? String(head.headers.etag) : undefined;
        if (ifNoneMatch !== undefined && etag !== undefined && (ifNoneMatch === '*' || ifNoneMatch === etag)) {
          return done(412, s3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold'));
        }
        if (ifMatch !== undefined && etag === undefined) return done(404, s3Error('NoSuchKey', 'The specified key does not exist.'));
        if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== etag) {
          return done(412, s3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold'));
        }
      }
      const answer = await forward(req, method, headers, body);
      requests.push({ method, key, status: answer.status });
      if (injected === 'lose-answer') reply(res, 503, { 'content-type': 'application/xml' }, s3Error('InternalError', 'answer lost, injected by the test'));
      else reply(res, answer.status, answer.headers, answer.body);
    } catch (error) {
      reply(res, 502, {}, String(error));
    } finally {
      lock.done(exclusive);
    }
    function done(status: number, text: string) {
      requests.push({ method, key, status });
      reply(res, status, { 'content-type': 'application/xml' }, text);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Shared holds for reads, one exclusive hold for a write, in arrival order. */
class KeyLock {
  private readers = 0;
  private writing = false;
  private readonly queue: { exclusive: boolean; go: () => void }[] = [];

  read(): Promise<void> {
    return this.enter(false);
  }

  write(): Promise<void> {
    return this.enter(true);
  }

  done(exclusive: boolean): void {
    if (exclusive) this.writing = false;
    else this.readers--;
    this.pump();
  }

  private enter(exclusive: boolean): Promise<void> {
    return new Promise((go) => {
      this.queue.push({ exclusive, go });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.writing) {
      const next = this.queue[0]!;
      if (next.exclusive && this.readers > 0) return;
      this.queue.shift();
      if (next.exclusive) this.writing = true;
      else this.readers++;
      next.go();
    }
  }
}

function s3Error(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}
