// The app for tests: called as fetch is, with no socket (testApp, hono's `app.request()` way), for routes, errors and
// formats; real servers on loopback ports (startTestServer, in this process, or a child process: npm start, evap serve)
// where the socket or the process is the subject. Every server is closed or killed after the test that started it
// (or its file, when started outside a test).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { type EvapStore, openStore } from '../../lib/open/store.js';
import { createHandler, fetchFrom, type Handler, type HandlerOptions } from '../../server/app.js';
import { KeyRing } from '../../server/keys/auth.js';
import { type ServeOptions, serve } from '../../server/process/adapter.js';
import type { Logger } from '../../server/process/log.js';
import type { RequestLimits } from '../../server/route.js';
import { cleanUp } from '../helpers.js';
import { entryArgs } from '../support/node-entry.js';

export interface TestServer {
  url: string;
  key: string;
  logs: string[]; // every access and error line
  store: EvapStore;
  get(path: string, init?: RequestInit): Promise<Response>; // with the key, unless init.headers says otherwise
  close(): Promise<void>;
}

/** The repository's root, where child servers run. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

let demo: Promise<EvapStore> | undefined;

/** The demo store, opened once per test file. */
export function demoStore(): Promise<EvapStore> {
  return (demo ??= openStore());
}

/** The app over a store with a fresh key, called without a socket. */
export interface TestApp {
  key: string;
  logs: string[]; // every error line
  store: EvapStore;
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>; // a path or a Request, as sent (no key added)
  get(path: string, init?: RequestInit): Promise<Response>; // with the key, unless init.headers says otherwise
}

/** The handler over a store (the demo store unless given) with a fresh key, called as fetch is: no socket, no port. */
export async function testApp(
  options: { store?: EvapStore; limits?: Partial<RequestLimits> } & Partial<Omit<HandlerOptions, 'store' | 'keys'>> = {},
): Promise<TestApp> {
  const store = options.store ?? (await demoStore());
  const key = randomBytes(16).toString('hex');
  const logs: string[] = [];
  const handler = createHandler({ logError: (line) => logs.push(line), ...options, store, keys: KeyRing.fromKeys([key]) });
  const fetch = fetchFrom(handler);
  return {
    key,
    logs,
    store,
    fetch,
    get: (path, init = {}) => fetch(path, { ...init, headers: { 'api-key': key, ...(init.headers as Record<string, string>) } }),
  };
}

/** Starts a server on 127.0.0.1 and a free port. */
export async function startTestServer(
  options: { store?: EvapStore; limits?: Partial<RequestLimits>; serve?: Partial<ServeOptions>; handler?: Handler } = {},
): Promise<TestServer> {
  const store = options.store ?? (await demoStore());
  const key = randomBytes(16).toString('hex');
  const logs: string[] = [];
  const logger: Logger = { info: (line) => logs.push(line), error: (line) => logs.push(line) };
  const handler = options.handler ?? createHandler({ store, keys: KeyRing.fromKeys([key]), limits: options.limits, logError: logger.error });
  const serving = await serve(handler, {
    port: 0,
    host: '127.0.0.1',
    maxConcurrent: 64,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 60_000,
    logger,
    ...options.serve,
  });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= serving.close(1000));
  cleanUp(close); // after the test that started it, or the file when started outside a test
  return {
    url: serving.url,
    key,
    logs,
    store,
    get: (path, init = {}) => fetch(`${serving.url}${path}`, { ...init, headers: { 'api-key': key, ...(init.headers as Record<string, string>) } }),
    close,
  };
}

/** A server in a child process. */
export interface SpawnedServer {
  child: ChildProcess;
  url: string; // from its `listening on <url>` line
  output(): string; // stdout and stderr so far
  exited: Promise<number | null>;
}

/** Runs `command args` in the repository's root and resolves once it prints `listening on <url>`; rejects with its output if it exits first. */
export async function spawnServer(command: string, args: string[], env: NodeJS.ProcessEnv = {}, readyMs = 60_000): Promise<SpawnedServer> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanUp(() => child.kill('SIGKILL')); // a leaked child would run forever
  let text = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line: ${text}`)), readyMs);
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${text}`));
    });
  });
  return { child, url, output: () => text, exited };
}

/** npm start from source (server/main.ts through tsx, no build) on 127.0.0.1 and a free port, with no keys unless `env` gives some. */
export function spawnMain(env: Record<string, string>, args: string[] = []): Promise<SpawnedServer> {
  return spawnServer(process.execPath, [...entryArgs('server/main.ts'), ...args], { PORT: '0', HOST: '127.0.0.1', EVAP_API_KEYS: '', ...env });
}

/** CSV text -> records: empty fields are null, numeric fields numbers, the rest strings (as in the JSON answer). */
export function parseCsv(text: string): Record<string, string | number | null>[] {
  return parse(text, {
    columns: true,
    cast: (value) => (value === '' ? null : /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value) ? Number(value) : value),
  }) as Record<string, string | number | null>[];
}
