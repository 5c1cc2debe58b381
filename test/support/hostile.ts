// Hostile clients on raw sockets, for the soak and the hostile-requests test: pipelined bursts left by a reset, a
// destroy or a half-close; clients that ask for a large gzip answer and never read; clients that read a few bytes at
// a time. Each kind comes from its own loopback address (127.0.0.2-4), as separate clients would.
import { get as httpGet } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface HostileOptions {
  url: string; // the server's base URL
  key: string;
  largePath: string; // a long answer (path and query)
  pipeliners?: number; // connections sending pipelined bursts (default 2)
  stallers?: number; // connections asking for gzip and never reading (default 4)
  slowReaders?: number; // connections reading one chunk every `slowReadMs` (default 4)
  slowReadMs?: number; // default 200
  burstPauseMs?: number; // between one pipeliner's bursts (default 20)
  stallMs?: number; // how long a non-reading client waits before it looks whether the server closed it (default 3000)
}

/** What the clients did, so that a caller can check each kind ran. */
export interface HostileStats {
  bursts: number; // pipelined bursts sent
  stalls: number; // non-reading connections
  stalledClosed: number; // of those, the ones the server had closed when the client looked
  slowBytes: number; // bytes the slow readers read
}

/** Starts the clients; stop() ends them and gives their stats. */
export function startHostileClients(options: HostileOptions): { stop(): Promise<HostileStats> } {
  const { hostname, port } = new URL(options.url);
  const stats: HostileStats = { bursts: 0, stalls: 0, stalledClosed: 0, slowBytes: 0 };
  const sockets = new Set<Socket>();
  let running = true;
  const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\napi-key: ${options.key}\r\n${extra}\r\n`;
  const open = (from: string, onConnect: (socket: Socket) => void) =>
    new Promise<void>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port), localAddress: from }, () => onConnect(socket));
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        resolve();
      });
    });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const pipeliner = async (n: number) => {
    for (let i = n; running; i++) {
      const leave = (['reset', 'destroy', 'end', 'server'] as const)[i % 4];
      const burst =
        leave === 'server'
          ? get('/info/list_datasets', 'Connection: close\r\n') + get('/info/list_datasets').repeat(4)
          : get(options.largePath).repeat(4) + get('/info/list_datasets').repeat(4);
      await open('127.0.0.2', (socket) => {
        socket.write(burst);
        stats.bursts++;
        socket.on('data', () => {});
        if (leave === 'end') socket.end();
        const at = 5 + (i % 20);
        if (leave === 'reset') setTimeout(() => socket.resetAndDestroy(), at);
        if (leave === 'destroy') setTimeout(() => socket.destroy(), at);
        setTimeout(() => socket.destroy(), 3000);
      });
      await pause(options.burstPauseMs ?? 20);
    }
  };
  const staller = async () => {
    while (running) {
      await open('127.0.0.3', (socket) => {
        socket.pause(); // never reads: the server must neither hold the answer nor the slot for ever
        socket.write(get(options.largePath, 'Accept-Encoding: gzip\r\n'));
        stats.stalls++;
        // a paused socket sees no end: after a while, read what is there and see whether the end comes with it
        const look = setTimeout(() => {
          socket.on('end', () => stats.stalledClosed++);
          socket.resume();
          setTimeout(() => socket.destroy(), 200);
        }, options.stallMs ?? 3000);
        const stop = setInterval(() => running || socket.destroy(), 100);
        socket.on('close', () => [clearTimeout(look), clearInterval(stop)]);
      });
    }
  };
  const slowReader = async () => {
    while (running) {
      await open('127.0.0.4', (socket) => {
        socket.pause();
        socket.write(get(options.largePath));
        const tick = setInterval(() => {
          if (!running) return socket.destroy();
          const chunk = socket.read() as Buffer | null; // what has arrived since: the server sends only as fast as this
          if (chunk) stats.slowBytes += chunk.length;
        }, options.slowReadMs ?? 200);
        socket.on('close', () => clearInterval(tick));
        socket.on('end', () => socket.destroy());
      });
    }
  };

  const loops = [
    ...Array.from({ length: options.pipeliners ?? 2 }, (_, i) => pipeliner(i)),
    ...Array.from({ length: options.stallers ?? 4 }, () => staller()),
    ...Array.from({ length: options.slowReaders ?? 4 }, () => slowReader()),
  ];
  return {
    async stop() {
      running = false;
      for (const socket of sockets) socket.destroy();
      await Promise.all(loops);
      return stats;
    },
  };
}

/** Asks a small query every `everyMs` from 127.0.0.5 (a client of its own) and keeps each status and latency, until stop(). */
export function probeSmallQuery(url: string, key: string, everyMs = 250): { stop(): Promise<{ statuses: number[]; latenciesMs: number[] }> } {
  const statuses: number[] = [];
  const latenciesMs: number[] = [];
  let running = true;
  const ask = () =>
    new Promise<number>((resolve) => {
      const req = httpGet(`${url}/info/list_datasets`, { headers: { 'api-key': key }, localAddress: '127.0.0.5', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      });
      req.setTimeout(60_000, () => req.destroy());
      req.on('error', () => resolve(0)); // no answer at all
    });
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      statuses.push(await ask());
      latenciesMs.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { statuses, latenciesMs };
    },
  };
}
