// Request bodies while they arrive: held against an allowance of their own (in total and per client) rather than the
// query slots, and cut off with a 408 when they come too slowly. 200 uploads sending 16 bytes every 5 s held every query
// slot for 45 s, and could start again at once. The rate rule is Apache mod_reqtimeout's `body=G,MinRate=R`: a body
// has G seconds, and one more for every R bytes received, up to a whole-body deadline.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { HttpError } from '../errors.js';
import { settingDefault } from './config.js';
import { lingerOnClose } from './linger.js';

export interface IntakeOptions {
  maxBodies: number; // requests whose bodies are still arriving, in total; beyond it 503
  maxBodiesPerClient: number; // the same from one client address
  bodyMinRate: number; // bytes a second a body must keep up once its grace is over
  bodyGraceMs: number; // time a body has before the rate counts
  bodyTimeoutMs: number; // time to receive a whole body, however fast it comes
}

/** One body arriving: the stream the handler reads, and its release (at its end, or when the request is over). */
interface Arrival {
  refusal: string | undefined; // the allowance was full: answer 503 without reading
  body: ReadableStream<Uint8Array>;
  release(): void;
}

/** The allowance and rules, each the setting's default unless given; the allowance scales as --max-per-client does. */
export function intakeOptions(options: Partial<IntakeOptions> & { maxConcurrent: number }): IntakeOptions {
  const maxBodies = options.maxBodies ?? Math.max(1, Math.floor(options.maxConcurrent / 4));
  return {
    maxBodies,
    maxBodiesPerClient: options.maxBodiesPerClient ?? Math.max(1, Math.floor(maxBodies / 4)),
    bodyMinRate: options.bodyMinRate ?? settingDefault('body-min-rate'),
    bodyGraceMs: options.bodyGraceMs ?? settingDefault('body-grace-ms'),
    bodyTimeoutMs: options.bodyTimeoutMs ?? settingDefault('body-timeout-ms'),
  };
}

/** Whether a request has a body still to come (a length above 0, or chunked). */
export function bodyComing(incoming: IncomingMessage): boolean {
  if (incoming.method === 'GET' || incoming.method === 'HEAD') return false;
  const length = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The bodies in flight of one server, and the sweep that cuts the slow ones off. */
export class Intake {
  private readonly arriving = new Set<Watched>();
  private readonly perClient = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: IntakeOptions) {
    // checked four times a grace (at most once a second), so a body goes at most a quarter of a grace late
    const every = Math.max(10, Math.min(1000, options.bodyGraceMs / 4, options.bodyTimeoutMs / 4));
    this.timer = setInterval(() => this.sweep(), every).unref();
  }

  /**
   * Counts a body in (refused when the allowance is full) and gives the handler its bytes. `arrived` is called once
   * the last byte has been read, to take a query slot: the reason it could not, if any, reaches the handler as a 503.
   */
  arrive(incoming: IncomingMessage, client: string, arrived: () => string | undefined): Arrival {
    const { maxBodies, maxBodiesPerClient } = this.options;
    const held = this.perClient.get(client) ?? 0;
    const refusal =
      this.arriving.size >= maxBodies
        ? `server busy: more than ${maxBodies} request bodies arriving; retry later`
        : held >= maxBodiesPerClient
          ? `too many request bodies arriving from this client: more than ${maxBodiesPerClient}; retry later`
          : undefined;
    if (refusal) return { refusal, body: emptyBody(), release: () => {} };
    this.perClient.set(client, held + 1);
    const watched = new Watched(incoming, performance.now());
    this.arriving.add(watched);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      this.arriving.delete(watched);
      const left = this.perClient.get(client)! - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    };
    const body = watched.stream(() => {
      if (!counted) return undefined; // read after its request was answered: nothing to hold
      release();
      const busy = arrived();
      return busy === undefined ? undefined : new HttpError(503, busy, { 'retry-after': '1', connection: 'close' });
    });
    return { refusal, body, release };
  }

  /** Whether this request's body is still arriving under the intake's watch (its own deadlines will answer it). */
  receiving(incoming: IncomingMessage): boolean {
    for (const watched of this.arriving) if (watched.incoming === incoming) return true;
    return false;
  }

  /** Stops the sweep (at shutdown). */
  stop(): void {
    clearInterval(this.timer);
  }

  private sweep(): void {
    const { bodyMinRate, bodyGraceMs, bodyTimeoutMs } = this.options;
    const now = performance.now();
    for (const watched of this.arriving) {
      const elapsed = now - watched.started;
      if (elapsed >= bodyTimeoutMs) watched.fail(`the request body was not received within ${bodyTimeoutMs} ms`);
      else if (elapsed > bodyGraceMs + (watched.received * 1000) / bodyMinRate)
        watched.fail(`the request body arrives slower than ${bodyMinRate} bytes a second (${watched.received} bytes in ${Math.round(elapsed)} ms)`);
    }
  }
}

// A body's bytes as a web stream, read only as the handler asks, with what it has received so far.
class Watched {
  received = 0;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private source: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private over = false;

  constructor(
    readonly incoming: IncomingMessage,
    readonly started: number,
  ) {}

  stream(arrived: () => HttpError | undefined): ReadableStream<Uint8Array> {
    const source = (Readable.toWeb(this.incoming) as unknown as ReadableStream<Uint8Array>).getReader();
    this.source = source;
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.controller = controller),
        pull: async (controller) => {
          const { done, value } = await source.read().catch((error: unknown) => {
            this.end(error);
            return { done: true as const, value: undefined };
          });
          if (this.over) return; // cut off (or failed) while this read waited
          if (!done) {
            this.received += value.byteLength;
            return controller.enqueue(value);
          }
          this.over = true;
          const refusal = arrived();
          if (refusal) controller.error(refusal);
          else controller.close();
        },
        cancel: (reason) => {
          this.over = true;
          return source.cancel(reason);
        },
      },
      { highWaterMark: 0 }, // read only when the handler asks: the end is met by its read, so a slot is taken no sooner
    );
  }

  /**
   * Refuses the rest of the body with a 408; the socket is left open for the answer, which closes it lingering: what
   * the client still sends is read and dropped, so it reads the answer rather than meet a reset (linger.ts).
   */
  fail(detail: string): void {
    lingerOnClose(this.incoming);
    this.end(new HttpError(408, detail, { connection: 'close' }));
    void this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (!(await this.source!.read()).done);
    } catch {
      // the connection closed: nothing more to drop
    }
  }

  private end(error: unknown): void {
    if (this.over) return;
    this.over = true; // the handler reads no more of it: the answer says Connection: close
    this.controller?.error(error);
  }
}

function emptyBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.close() });
}
