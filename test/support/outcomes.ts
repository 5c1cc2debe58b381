// Clients for the soak that count what became of every request they send: heavy answers asked by ordinary clients
// (which wait at the server's gate), readers that take an answer at a slow steady pace, and uploaders whose bodies
// trickle in. Each request ends counted once: answered, 503 with Retry-After, another 4xx/5xx, cut after its status
// (an answer that stopped before its end), or unanswered (the connection closed before any status came). Each kind
// comes from its own loopback address, as separate clients would.
import { request as httpRequest, type IncomingMessage } from 'node:http';

export interface Outcomes {
  answered: number; // 2xx or 304, read to the end (or, for a slow reader, read until the run ended)
  retryLater: number; // 503 with Retry-After
  refused: Record<number, number>; // every other status, by status (408 for a body too slow, 503 without Retry-After)
  cut: number; // a status came, then the connection closed before the answer's end
  unanswered: number; // the connection closed before any status came
}

export interface SlowClientOptions {
  url: string;
  key: string;
  heavyPath: string; // an answer the server admits as heavy (path and query)
  uploadPath: string; // a POST that takes a body
  upload: Buffer; // its body
  uploadType: string; // its content-type
  heavyAskers?: number; // ordinary clients asking heavyPath again and again (default 6)
  slowReaders?: number; // clients reading heavyPath at `readBytesPerSecond` (default 2)
  readBytesPerSecond?: number; // default 250 KB/s
  slowUploaders?: number; // clients sending `upload` 16 bytes every `trickleMs` (default 8)
  trickleMs?: number; // default 5000
}

type Kind = 'heavy' | 'slowReader' | 'slowUploader';
const from: Record<Kind, string> = { heavy: '127.0.0.7', slowReader: '127.0.0.8', slowUploader: '127.0.0.6' };

const none = (): Outcomes => ({ answered: 0, retryLater: 0, refused: {}, cut: 0, unanswered: 0 });

/** Starts the clients; stop() ends them (a request ended by stop() is not counted) and gives each kind's outcomes. */
export function startSlowClients(options: SlowClientOptions): { stop(): Promise<Record<Kind, Outcomes>> } {
  const outcomes: Record<Kind, Outcomes> = { heavy: none(), slowReader: none(), slowUploader: none() };
  const open = new Set<() => void>();
  let running = true;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  // One request to its end: `send` writes the body (if any), `read` consumes the answer; resolves once counted.
  const ask = (
    kind: Kind,
    method: string,
    path: string,
    headers: Record<string, string>,
    send: (write: (b: Buffer) => boolean, over: () => boolean) => Promise<void>,
    read: (res: IncomingMessage) => void,
  ) =>
    new Promise<void>((resolve) => {
      const count = outcomes[kind];
      let status = 0;
      let settled = false;
      const settle = (outcome: (o: Outcomes) => void) => {
        if (settled) return;
        settled = true;
        open.delete(abandon);
        if (running) outcome(count);
        resolve();
      };
      const req = httpRequest(`${options.url}${path}`, { method, headers: { 'api-key': options.key, ...headers }, localAddress: from[kind], agent: false });
      const abandon = () => {
        settle(() => {});
        req.destroy();
      };
      open.add(abandon);
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        if (status >= 300 && status !== 304) {
          res.resume();
          return settle((o) => {
            if (status === 503 && res.headers['retry-after'] !== undefined) o.retryLater++;
            else o.refused[status] = (o.refused[status] ?? 0) + 1;
          });
        }
        res.on('end', () => settle((o) => o.answered++));
        res.on('aborted', () => settle((o) => o.cut++));
        res.on('error', () => settle((o) => o.cut++));
        read(res);
      });
      req.on('error', () => settle((o) => (status === 0 ? o.unanswered++ : o.cut++)));
      send(
        (b) => req.write(b),
        () => settled,
      ).then(
        () => settled || req.end(),
        () => {},
      );
    });

  const heavy = async () => {
    while (running)
      await ask(
        'heavy',
        'GET',
        options.heavyPath,
        {},
        async () => {},
        (res) => res.resume(),
      );
  };
  const slowReader = async () => {
    const perTick = Math.ceil(((options.readBytesPerSecond ?? 250_000) * 200) / 1000);
    while (running)
      await ask(
        'slowReader',
        'GET',
        options.heavyPath,
        {},
        async () => {},
        (res) => {
          // a budget of bytes every 200 ms: paused once it is spent, so the server sends only as fast as this
          let budget = perTick;
          const tick = setInterval(() => {
            budget = perTick;
            if (!running) return clearInterval(tick);
            res.resume();
          }, 200);
          res.on('data', (chunk: Buffer) => {
            budget -= chunk.length;
            if (budget <= 0) res.pause();
          });
          res.on('close', () => clearInterval(tick));
        },
      );
  };
  const slowUploader = async () => {
    const every = options.trickleMs ?? 5000;
    const headers = { 'content-type': options.uploadType, 'content-length': String(options.upload.length) };
    while (running) {
      await ask(
        'slowUploader',
        'POST',
        options.uploadPath,
        headers,
        async (write, over) => {
          // the answer (a 408 once the body is too slow) ends the trickle
          for (let at = 0; at < options.upload.length && !over(); at += 16) {
            write(options.upload.subarray(at, at + 16));
            await pause(every);
          }
        },
        (res) => res.resume(),
      );
      await pause(100);
    }
  };

  const loops = [
    ...Array.from({ length: options.heavyAskers ?? 6 }, heavy),
    ...Array.from({ length: options.slowReaders ?? 2 }, slowReader),
    ...Array.from({ length: options.slowUploaders ?? 8 }, slowUploader),
  ];
  return {
    async stop() {
      running = false;
      for (const abandon of [...open]) abandon();
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** One line per kind: what became of its requests. */
export function describeOutcomes(o: Outcomes): string {
  const refused = Object.entries(o.refused).map(([status, n]) => `${n} × ${status}`);
  return [`${o.answered} answered`, `${o.retryLater} × 503 with Retry-After`, ...refused, `${o.cut} cut`, `${o.unanswered} unanswered`].join(', ');
}
