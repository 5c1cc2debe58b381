// Every core: N worker processes on one port (node:cluster). The primary serves nothing itself: it starts the workers,
// prints the key and the ready line once, holds the rate-limit counters, replaces a worker that dies, forwards SIGHUP,
// and on SIGTERM/SIGINT has every worker drain before it exits.
import cluster, { type Worker } from 'node:cluster';
import { digestKey, generateKey, readKeysFile } from '../keys/auth.js';
import { createRateLimiter } from '../keys/rate.js';
import { KEY_REQUESTS_PER_MINUTE } from '../keys/requests.js';
import { type Config, LOG_LOSS_EXIT } from './config.js';
import { announce, consoleLogger, keepServingWithoutLog } from './log.js';

// The one key made by the primary when none is configured, as its digest, for the workers (never the key itself).
const keyDigestVariable = 'EVAP_CLUSTER_KEY_SHA256';
// The port the first workers were given for --port 0, for the workers that replace them: once every worker has died
// the primary closes the listening socket, and port 0 again would move the server to a port nobody was told of.
const portVariable = 'EVAP_CLUSTER_PORT';

// `bucket`: a key's requests (the --rate-limit-per-minute counters), or GET /auth/request_key's one counter for all
type Bucket = 'key' | 'request';
type RateAsk = { evap: 'rate'; id: number; digest: string; bucket: Bucket };
type RateAnswer = { evap: 'rate'; id: number; wait: number };

/** Serves with `config.workers` processes (one: this process, as before) until SIGTERM or SIGINT. */
export async function runServer(config: Config): Promise<void> {
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  // the app, and what it loads (Arrow, Parquet: about 0.2 s of CPU), is loaded only by a process that serves: not by
  // a cluster's primary
  const { startProcess } = await import('./start.js');
  if (config.workers <= 1) {
    await startProcess(config);
    return;
  }
  const given = process.env[keyDigestVariable];
  const port = process.env[portVariable];
  const ask = askPrimary();
  await startProcess(port ? { ...config, port: Number(port) } : config, {
    keyDigests: given ? [Buffer.from(given, 'hex')] : [],
    rateLimiter: config.rateLimitPerMinute > 0 ? (digest) => ask(digest, 'key') : undefined,
    keyRequestLimiter: (id) => ask(id, 'request'),
    announce: false,
  });
}

// The rate limit is one token bucket per key for the whole cluster, kept here: a worker asks over IPC before each
// keyed request. Splitting the limit N ways instead would be wrong: a keep-alive client stays on one worker.
async function runPrimary(config: Config): Promise<void> {
  const env: Record<string, string> = {};
  const configured = config.keys.length + (config.keysFile ? (await readKeysFile(config.keysFile)).digests.length : 0);
  if (configured === 0) {
    const key = generateKey();
    env[keyDigestVariable] = digestKey(key).toString('hex');
    console.log(`api-key: ${key}`); // the only place a key is ever written: the operator needs it once
  }
  const take = {
    key: config.rateLimitPerMinute > 0 ? createRateLimiter(config.rateLimitPerMinute) : undefined,
    request: createRateLimiter(KEY_REQUESTS_PER_MINUTE),
  };
  let stopping = false;
  let failed = false; // a worker that did not drain cleanly makes the cluster's exit status 1
  let logLost = false; // a worker stopped by --exit-on-log-loss: the cluster stops with its status
  let ready = false;
  let crashes: number[] = []; // times of recent deaths, to slow down a worker that dies at once every time
  const listening = new Set<Worker>();

  const fork = () => {
    const worker = cluster.fork(env);
    worker.on('message', (message: RateAsk) => {
      const limiter = message?.evap === 'rate' ? take[message.bucket] : undefined;
      if (!limiter) return;
      const answer: RateAnswer = { evap: 'rate', id: message.id, wait: limiter(message.digest) };
      // the worker may have died with asks still queued here: its answer has nobody to go to, and its 'exit' replaces it
      if (worker.isConnected()) worker.send(answer, () => undefined);
    });
    // a send that fails on a channel closing under it (EPIPE) is reported here; without a listener it would kill the primary
    worker.on('error', (error) => consoleLogger.error(`worker ${worker.process.pid}: ${error.message}`));
    return worker;
  };
  cluster.on('listening', (worker, address) => {
    listening.add(worker);
    env[portVariable] = String(address.port);
    if (ready || listening.size < config.workers) return;
    ready = true;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    announce(`http://${host}:${address.port}`, config.workers);
  });
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker);
    if (stopping) {
      failed ||= signal ? signal !== 'SIGTERM' : code !== 0; // killed by our SIGTERM before it could drain: it had nothing to drain
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(logLost ? LOG_LOSS_EXIT : failed ? 1 : 0);
      return;
    }
    // the workers share stdout: one that lost the log stops the cluster, which exits as it did (a new one would too)
    if (code === LOG_LOSS_EXIT) {
      logLost = true;
      return stop(`worker ${worker.process.pid} lost the access log (--exit-on-log-loss)`);
    }
    // a worker that never listened at start-up (a bad store, a port in use) would fail the same way again
    if (!ready) {
      consoleLogger.error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}) before listening; stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    const now = Date.now();
    crashes = [...crashes.filter((t) => now - t < 60_000), now];
    const delay = Math.min(30_000, 100 * 2 ** Math.max(0, crashes.length - 3)); // at once, unless it keeps dying
    setTimeout(() => {
      if (stopping) return;
      const next = fork();
      consoleLogger.error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); started worker ${next.process.pid} in its place`);
    }, delay);
  });

  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${why}: every worker finishes its in-flight requests`);
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(logLost ? LOG_LOSS_EXIT : 0);
    for (const worker of workers) worker?.process.kill('SIGTERM'); // each drains as a single server does, then exits
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // the primary writes to stdout too (its ready and stop lines): its loss is the cluster's, as a worker's is
  keepServingWithoutLog(() => {
    logLost = config.exitOnLogLoss;
    if (logLost) stop('--exit-on-log-loss');
  });
  process.on('SIGHUP', () => Object.values(cluster.workers ?? {}).forEach((worker) => worker?.process.kill('SIGHUP')));
  for (let i = 0; i < config.workers; i++) fork();
}

// Limiters whose buckets are in the primary: one IPC round trip per keyed request.
function askPrimary(): (digest: string, bucket: Bucket) => Promise<number> {
  let next = 0;
  const waiting = new Map<number, (wait: number) => void>();
  process.on('message', (message: RateAnswer) => {
    if (message?.evap !== 'rate') return;
    waiting.get(message.id)?.(message.wait);
    waiting.delete(message.id);
  });
  return (digest, bucket) =>
    new Promise<number>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      const ask: RateAsk = { evap: 'rate', id, digest, bucket };
      process.send!(ask);
    });
}
