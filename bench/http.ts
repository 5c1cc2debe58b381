// Over HTTP: the server in a child process on the bench store, driven by autocannon; its peak RSS from /proc.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serverCommand } from './built.js';
import { MismatchError } from './compare.js';
import { type BenchQuery, httpTarget } from './queries.js';
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

/**
 * Starts `server/main.ts` on a free port with a fresh key (and extra flags, e.g. --workers 2) and waits for its
 * `listening on` line; `root`: the checkout whose server runs (another one's, to compare before and after).
 */
export async function startServer(store: string, args: readonly string[] = [], root = repoRoot): Promise<ServerProcess> {
  const key = randomBytes(16).toString('hex');
  // the load generator is one client address with 16 connections: the per-client bound is for many clients
  const env = { ...process.env, EVAP_STORE: store, EVAP_API_KEYS: key, PORT: '0', HOST: '127.0.0.1', EVAP_MAX_PER_CLIENT: '64' };
  return startListening([...serverCommand(root), ...args], env, key, root); // the build, when current (built.ts)
}

/**
 * Starts bare-server.ts sending `body` with `headers` to every request: the limit of node:http and the socket for an
 * answer of those bytes.
 */
export async function startBareServer(body: string, headers: AnswerHeaders): Promise<ServerProcess> {
  const file = join(tmpdir(), `evap-bench-bare-${process.pid}.json`);
  writeFileSync(file, body);
  writeFileSync(`${file}.headers`, JSON.stringify(headers));
  return startListening(['--import', 'tsx', join(repoRoot, 'bench', 'bare-server.ts'), file, `${file}.headers`], process.env, '', repoRoot);
}

/** The headers of an answer as its server set them (node:http adds the others to every response itself). */
export type AnswerHeaders = Record<string, string>;
const addedByNode = new Set(['date', 'connection', 'keep-alive']);

/**
 * The headers the server sends with a query's answer to a client that asks no compression (as autocannon asks): what
 * the bare server must send too, for its bytes to be the same (five headers more cost a bare server a fifth of its
 * requests a second on this machine).
 */
export async function answerHeaders(server: ServerProcess, query: BenchQuery): Promise<AnswerHeaders> {
  const response = await fetch(server.url + httpTarget(query.spec, query.format), { headers: { 'api-key': server.key, 'accept-encoding': 'identity' } });
  await response.arrayBuffer();
  if (response.status !== 200 || response.headers.has('content-encoding'))
    throw new MismatchError(`${query.id} over HTTP: status ${response.status}, not a plain 200`);
  return Object.fromEntries([...response.headers].filter(([name]) => !addedByNode.has(name)));
}

// runs a server script (node's arguments) and waits for its `listening on <url>` line
let started = 0;
async function startListening(args: readonly string[], env: NodeJS.ProcessEnv, key: string, cwd: string): Promise<ServerProcess> {
  // access lines go to a file, so that no process of this machine spends CPU draining them during the measurement
  const logPath = join(tmpdir(), `evap-bench-server-${process.pid}-${++started}.log`); // one each: servers may run side by side
  const log = openSync(logPath, 'w');
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', log, 'pipe'] });
  closeSync(log);
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4096)));
  const listening = new Promise<string>((done, fail) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(readFileSync(logPath, 'utf8'));
      if (match) done(match[1]!.replace(/\/$/, ''));
      else if (Date.now() - started > 60_000) fail(new Error(`the server did not start within 60 s: ${errors.trim()}`));
      else return;
      clearInterval(poll);
    }, 50);
    child.on('exit', (code) => {
      clearInterval(poll);
      fail(new Error(`the server exited with code ${code} before listening: ${errors.trim()}`));
    });
  });
  const url = await listening.catch(async (error: Error) => {
    await stop(child); // one that never said it listens is not left running
    await rm(logPath, { force: true });
    throw error;
  });
  // the access lines are deleted with the server: one HTTP run of the bench wrote 300 MB of them
  return { url, pid: child.pid!, key, peakRssBytes: () => peakRss(child.pid!), stop: () => stop(child).then(() => rm(logPath, { force: true })) };
}

/** CPU seconds (user and system) a process has used so far, from /proc (Linux); null elsewhere. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime, in clock ticks of 1/100 s
  } catch {
    return null;
  }
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
  if (body !== expected)
    throw new MismatchError(`${query.id} over HTTP: the body (${body.length} characters) differs from the in-process answer (${expected.length})`);
}

/** The socket's limit for a query: a bare node:http server sending its answer's bytes and headers, driven as `drive` drives the server (row id `<id> bare`). */
export async function driveBare(
  body: string,
  headers: AnswerHeaders,
  query: BenchQuery,
  connections: number,
  durationS: number,
  log: (line: string) => void,
): Promise<HttpRow> {
  const bare = await startBareServer(body, headers);
  try {
    await drive(bare, query, connections, 1); // warm-up, not counted
    const row = { ...(await drive(bare, query, connections, durationS)), id: `${query.id} bare` };
    log(
      `${row.id} http: ${row.requestsPerSecond.toFixed(0)} req/s (bare node:http sending the same ${body.length} bytes and ${Object.keys(headers).length} headers)`,
    );
    return row;
  } finally {
    await bare.stop();
  }
}

/**
 * autocannon on one query at the given concurrency for a bounded time, in a process of its own (as a real client
 * is), after a 2-second warm-up that lets the server's JIT settle.
 */
export async function drive(
  server: ServerProcess,
  query: BenchQuery,
  connections: number,
  durationS: number,
  measuring?: () => void, // called after the warm-up, as the measured run starts
): Promise<HttpRow> {
  const cli = join(repoRoot, 'node_modules', 'autocannon', 'autocannon.js');
  const url = server.url + httpTarget(query.spec, query.format);
  const run = (seconds: number) =>
    promisify(execFile)(process.execPath, [cli, '--json', '-c', String(connections), '-d', String(seconds), '-t', '30', '-H', `api-key: ${server.key}`, url], {
      maxBuffer: 1 << 24,
    });
  await run(2);
  measuring?.();
  const result = JSON.parse((await run(durationS)).stdout) as {
    requests: { total: number };
    latency: { p50: number; p99: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
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
