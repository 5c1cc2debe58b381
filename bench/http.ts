// Over HTTP: the server in a child process on the bench store, driven by autocannon; its peak RSS from /proc.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MismatchError } from './compare.js';
import { httpTarget, type BenchQuery } from './queries.js';
import { repoRoot } from './store.js';

/** The server under test. */
export interface ServerProcess {
  url: string;
  pid: number;
  key: string;
  peakRssBytes(): number | null; // VmHWM: the most resident memory the process ever had
  stop(): Promise<void>;
}

export interface HttpRow {
  id: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number; // connection errors, timeouts and non-2xx answers
  durationS: number;
}

/** Starts `server/main.ts` on a free port with a fresh key and waits for its `listening on` line. */
export async function startServer(store: string): Promise<ServerProcess> {
  const key = randomBytes(16).toString('hex');
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'server', 'main.ts')], {
    cwd: repoRoot,
    env: { ...process.env, EVAP_STORE: store, EVAP_API_KEYS: key, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((done, fail) => {
    let seen = '';
    let errors = '';
    const timer = setTimeout(() => fail(new Error(`the server did not start within 60 s: ${errors.trim()}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        seen = '';
        done(match[1]!.replace(/\/$/, ''));
      } else if (seen.length > 1 << 16) seen = seen.slice(-4096);
    });
    child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4096)));
    child.on('exit', (code) => fail(new Error(`the server exited with code ${code} before listening: ${errors.trim()}`)));
  });
  child.stdout!.removeAllListeners('data');
  child.stdout!.resume(); // access lines: drained, not kept
  return { url, pid: child.pid!, key, peakRssBytes: () => peakRss(child.pid!), stop: () => stop(child) };
}

function peakRss(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null; // not Linux
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

/** Fetches a query once and checks the body is exactly the in-process answer's text. */
export async function checkOverHttp(server: ServerProcess, query: BenchQuery, expected: string): Promise<void> {
  const response = await fetch(server.url + httpTarget(query.spec, query.format), { headers: { 'api-key': server.key } });
  const body = await response.text();
  if (response.status !== 200) throw new MismatchError(`${query.id} over HTTP: status ${response.status}: ${body.slice(0, 300)}`);
  if (body !== expected) throw new MismatchError(`${query.id} over HTTP: the body (${body.length} characters) differs from the in-process answer (${expected.length})`);
}

/** autocannon on one query at the given concurrency for a bounded time. */
export async function drive(server: ServerProcess, query: BenchQuery, connections: number, durationS: number): Promise<HttpRow> {
  const result = await autocannon({ url: server.url + httpTarget(query.spec, query.format), connections, duration: durationS, headers: { 'api-key': server.key }, timeout: 30 });
  return {
    id: query.id,
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    durationS: result.duration,
  };
}
