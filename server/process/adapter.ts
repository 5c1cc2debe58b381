// node:http <-> the handler's request and a web Response (in the style of honojs/node-server), with a bound on
// concurrent requests and clean shutdown; an answer the handler has ready for a target (handler.again) is written
// without either (replays.ts), and stalled connections are closed (stall.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import type { HeaderReader } from '../answer-cache.js';
import { WholeResponse } from '../answers.js';
import type { Handler } from '../app.js';
import { detailResponse } from '../errors.js';
import type { IncomingRequest } from '../incoming.js';
import { settingDefault } from './config.js';
import { bodyComing, Intake, type IntakeOptions, intakeOptions } from './intake.js';
import { lingerOnClose } from './linger.js';
import { formatAccess, type Logger } from './log.js';
import { answerPlain, rawAnswer, refuse } from './refusals.js';
import { type Slots, writeAgain } from './replays.js';
import { sweepStalled } from './stall.js';

export interface ServeOptions extends Partial<IntakeOptions> {
  port: number; // 0 picks a free port
  host: string;
  maxConcurrent: number; // requests in flight (streams included) before new ones get 503 with Retry-After; a body still arriving holds none (intake.ts)
  maxPerClient?: number; // requests in flight from one client address (default: all of maxConcurrent)
  stallTimeoutMs?: number; // a connection with no read or write progress this long is closed (default: never)
  headersTimeoutMs: number; // time to receive the request headers
  requestTimeoutMs: number; // time to receive the whole request, body included
  maxHeaderBytes?: number; // request line and headers together (default: the setting's, 16 KiB as node's); beyond it 431
  logger: Logger;
}

/** A listening server: its base URL and a close() that finishes in-flight requests first. */
interface Serving {
  server: Server;
  url: string;
  close(graceMs?: number): Promise<void>;
}

/** Starts a node:http server answering with the handler. */
export async function serve(handler: Handler, options: ServeOptions): Promise<Serving> {
  let active = 0;
  let closing = false;
  const perClient = new Map<string, number>(); // requests in flight by client address
  const responding = new WeakMap<Socket, ServerResponse[]>(); // the responses each keep-alive socket owes, until each closes
  const { logger } = options;

  const maxPerClient = options.maxPerClient ?? options.maxConcurrent;
  const intake = new Intake(intakeOptions(options));
  const slots: Slots = {
    take(client) {
      active++;
      perClient.set(client, (perClient.get(client) ?? 0) + 1);
    },
    give(client) {
      active--;
      const left = perClient.get(client)! - 1;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    },
  };

  const listener = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const started = performance.now();
    let bytes = 0;
    const socket = incoming.socket;
    const client = socket.remoteAddress ?? '';
    // a response queued behind one that closed a pipelined connection never emits its own 'close', but its socket does:
    // either cancels the answer, so the send below always settles and the slot is given back once, in the finally
    const gone = new Departure();
    const cancel = () => outgoing.writableFinished || gone.abort();
    outgoing.once('close', cancel);
    socket.once('close', cancel);
    let holding = false; // a query slot: taken at once, or for a body once it has arrived
    const hold = () => {
      holding = true;
      slots.take(client);
      return active > options.maxConcurrent
        ? `server busy: more than ${options.maxConcurrent} requests in flight; retry later`
        : perClient.get(client)! > maxPerClient
          ? `too many requests in flight from this client: more than ${maxPerClient}; retry later`
          : undefined;
    };
    const arrival = bodyComing(incoming) ? intake.arrive(incoming, client, hold) : undefined;
    try {
      const refusal = arrival ? arrival.refusal : hold();
      let response: Response;
      if (refusal) {
        response = detailResponse(503, refusal, { 'retry-after': '1' });
        if (arrival) {
          lingerOnClose(incoming); // its body unread: dropped while the close lingers
          incoming.resume();
        }
      } else {
        try {
          response = await handler(toIncoming(incoming, gone, arrival?.body));
        } catch (error) {
          logger.error(`request failed before the handler: ${error instanceof Error ? error.message : String(error)}`);
          response = detailResponse(400, 'malformed request');
        }
      }
      await send(outgoing, incoming, response, closing || refusal !== undefined, gone, (n) => (bytes += n)).catch((error: NodeJS.ErrnoException) => {
        // a failure after the status line was sent: the connection is aborted so the client sees a truncated answer
        if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE' && error.code !== 'ABORT_ERR')
          logger.error(`response aborted: ${incoming.method} ${incoming.url?.split('?')[0]}: ${error.stack ?? error.message}`);
        outgoing.destroy();
      });
    } finally {
      // given back only when the work is over: freed at the socket's close, pipelined resets ran 100 handlers at once under a bound of 4
      if (holding) slots.give(client);
      arrival?.release();
      socket.removeListener('close', cancel); // keep-alive sockets serve many requests: no listener may pile up
      const status = outgoing.headersSent ? outgoing.statusCode : undefined;
      const entry = { method: incoming.method ?? '', target: incoming.url ?? '', status, ms: performance.now() - started, bytes };
      logger.info(formatAccess({ ...entry, aborted: !outgoing.writableFinished }));
    }
  };

  const server = createServer(
    {
      headersTimeout: Math.min(options.headersTimeoutMs, options.requestTimeoutMs),
      requestTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs), // how often the two timeouts are checked (node's default: 30 s)
      maxHeaderSize: options.maxHeaderBytes ?? settingDefault('max-header-bytes'),
      requireHostHeader: false, // answered below in JSON, as every other refusal (node's own 400 has an empty body)
    },
    (req, res) => {
      // the responses a socket owes, oldest first (pipelined requests queue theirs): a parse error (refuse) must not
      // write into the one being written
      const socket = req.socket; // kept: by the response's close, the request no longer holds its socket
      const owed = responding.get(socket);
      if (owed) owed.push(res);
      else responding.set(socket, [res]);
      res.once('close', () => {
        const list = responding.get(socket)!;
        const at = list.indexOf(res);
        if (at >= 0) list.splice(at, 1);
      });
      if (!hasHost(req) && req.httpVersionMinor >= 1) return void answerPlain(res, 400, 'the request has no Host header');
      // a kept answer, unless the bounds or a shutdown would refuse it (the listener answers those)
      if (!closing && req.method === 'GET' && active < options.maxConcurrent && (perClient.get(socket.remoteAddress ?? '') ?? 0) < maxPerClient) {
        const again = req.url === undefined ? undefined : handler.again?.(req.url, requestHeaders(req));
        if (again) return writeAgain(req, res, again, slots, logger);
      }
      void listener(req, res);
    },
  );
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    answerPlain(res, 417, `unsupported Expect header: ${JSON.stringify(String(req.headers.expect).slice(0, 40))}`),
  );
  server.on('connect', (_req: IncomingMessage, socket: Socket) => socket.end(rawAnswer(405, 'CONNECT is not supported: this is not a proxy')));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => refuse(error, socket, responding.get(socket)?.[0], logger));
  // no socket activity for this long while the client has the next move (it neither sends nor reads): the socket is
  // destroyed, freeing its slot
  const stopSweeping = options.stallTimeoutMs
    ? sweepStalled(
        server,
        options.stallTimeoutMs,
        (socket) => responding.get(socket)?.[0],
        (req) => intake.receiving(req),
      )
    : () => {};
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host; // as configured, with the actual port
  return {
    server,
    url: `http://${host}:${address.port}`,
    close: (graceMs = 30_000) => {
      closing = true;
      stopSweeping();
      intake.stop();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs).unref();
      return done.finally(() => clearTimeout(timer));
    },
  };
}

/**
 * The client's going away, as an AbortSignal made only when something asks for it (an answer waiting for its turn, a
 * streamed answer): a whole answer never does, and an AbortController per request was a cost of its own.
 */
class Departure {
  private controller: AbortController | undefined;
  private left = false;
  private readonly waiting: (() => void)[] = [];

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.left) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Whether the client has gone away. */
  get departed(): boolean {
    return this.left;
  }

  abort(): void {
    if (this.left) return;
    this.left = true;
    this.controller?.abort();
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Calls `wake` once when the client goes away (at once if it has). */
  whenGone(wake: () => void): void {
    if (this.left) wake();
    else this.waiting.push(wake);
  }
}

// Whether the request has a Host header (req.headers.host, without making node build every header's entry)
function hasHost(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') return true;
  return false;
}

// The request target as it came (`//info/...` stays a path, never a host), parsed here once; the handler reads only
// path, query and headers. What fetch's Request refuses (TRACE, TRACK, a URL with credentials) stays refused (400).
function toIncoming(incoming: IncomingMessage, gone: Departure, arriving?: ReadableStream<Uint8Array>): IncomingRequest {
  const target = incoming.url ?? '/';
  const url = target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target);
  const method = incoming.method ?? 'GET';
  if (/^(TRACE|TRACK)$/i.test(method)) throw new Error(`method ${method} is forbidden`);
  if (url.username !== '' || url.password !== '') throw new Error('the request target holds credentials');
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? (arriving ?? (Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>)) : null;
  return {
    method,
    url,
    headers,
    body,
    get signal() {
      return gone.signal;
    },
  };
}

// Settles when the answer is out or cancelled (signal): never later, so the caller's slot cannot leak.
async function send(
  outgoing: ServerResponse,
  incoming: IncomingMessage,
  response: Response,
  close: boolean,
  gone: Departure,
  count?: (n: number) => void,
): Promise<void> {
  if (gone.departed) return void outgoing.destroy(); // gone before its answer began (waiting for a turn): nothing is sent, none logged as sent
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  // an unread request body (an early 401/413/503) is not drained: the connection closes after the answer
  if (close || (!incoming.complete && incoming.method !== 'GET' && incoming.method !== 'HEAD')) headers.connection = 'close';
  if (response instanceof WholeResponse) {
    const bytes = typeof response.whole === 'string' ? Buffer.from(response.whole) : response.whole;
    headers['content-length'] = String(bytes.byteLength);
    outgoing.writeHead(response.status, headers);
    outgoing.end(incoming.method === 'HEAD' ? undefined : bytes);
    count?.(incoming.method === 'HEAD' ? 0 : bytes.byteLength);
    // a kept answer: its head, with its target, so that the same request again is written this (handler.again)
    if (response.replay && incoming.method === 'GET' && headers.connection === undefined && incoming.url !== undefined) response.replay(incoming.url, headers);
    return written(outgoing, gone);
  }
  const signal = gone.signal;
  outgoing.writeHead(response.status, headers);
  if (!response.body || incoming.method === 'HEAD') {
    await response.body?.cancel();
    outgoing.end();
    return finished(outgoing, { signal });
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  if (count) body.on('data', (chunk: Uint8Array) => count(chunk.byteLength));
  await pipeline(body, outgoing, { signal }); // aborted: the body is destroyed, which cancels the answer's generator
}

// Settles when a response that has been ended is out (its 'finish') or will never be (its close or its socket's before
// that: the connection is then destroyed, as when finished() rejects): finished() with a signal, without the
// listeners and the promise machinery it costs every whole answer.
function written(outgoing: ServerResponse, gone: Departure): Promise<void> {
  if (outgoing.writableFinished) return Promise.resolve();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (out: boolean) => {
      if (settled) return;
      settled = true;
      outgoing.removeListener('finish', done);
      outgoing.removeListener('close', cut);
      if (!out) outgoing.destroy();
      resolve();
    };
    const done = () => settle(true);
    const cut = () => settle(outgoing.writableFinished);
    outgoing.once('finish', done);
    outgoing.once('close', cut);
    gone.whenGone(cut);
  });
}

/**
 * A request's headers read as the handler's Headers reads them (toIncoming appends every raw header): the values of
 * a name, compared without case, in order, joined by ', ', each without leading or trailing HTTP whitespace.
 */
export function requestHeaders(incoming: Pick<IncomingMessage, 'rawHeaders'>): HeaderReader {
  const raw = incoming.rawHeaders;
  return {
    get(name) {
      const wanted = name.toLowerCase();
      let value: string | null = null;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const field = raw[i]!;
        if (field.length !== wanted.length || field.toLowerCase() !== wanted) continue;
        const one = withoutEdgeWhitespace(raw[i + 1]!);
        value = value === null ? one : `${value}, ${one}`;
      }
      return value;
    },
  };
}

// HTTP whitespace (tab, line feed, carriage return, space) at either end, as the Headers class drops it
const edgeWhitespace = /^[\t\n\r ]+|[\t\n\r ]+$/g;
function withoutEdgeWhitespace(value: string): string {
  if (value === '') return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  const edge = (c: number) => c === 9 || c === 10 || c === 13 || c === 32;
  return edge(first) || edge(last) ? value.replace(edgeWhitespace, '') : value;
}
