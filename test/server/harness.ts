// A real server on a loopback port for tests: the handler over a store, a fresh key, and captured log lines.
import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { openStore, type EvapStore } from '../../lib/store.js';
import { createHandler, type Handler } from '../../server/app.js';
import { KeyRing } from '../../server/auth.js';
import type { Logger } from '../../server/log.js';
import { serve, type ServeOptions } from '../../server/node.js';
import type { RequestLimits } from '../../server/params.js';

export interface TestServer {
  url: string;
  key: string;
  logs: string[]; // every access and error line
  store: EvapStore;
  get(path: string, init?: RequestInit): Promise<Response>; // with the key, unless init.headers says otherwise
  close(): Promise<void>;
}

let demo: Promise<EvapStore> | undefined;

/** The demo store, opened once per test file. */
export function demoStore(): Promise<EvapStore> {
  return (demo ??= openStore());
}

/** Starts a server on 127.0.0.1 and a free port. */
export async function startTestServer(options: { store?: EvapStore; limits?: Partial<RequestLimits>; serve?: Partial<ServeOptions>; handler?: Handler } = {}): Promise<TestServer> {
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
  return {
    url: serving.url,
    key,
    logs,
    store,
    get: (path, init = {}) => fetch(`${serving.url}${path}`, { ...init, headers: { 'api-key': key, ...(init.headers as Record<string, string>) } }),
    close: () => serving.close(1000),
  };
}

/** CSV text -> records: empty fields are null, numeric fields numbers, the rest strings (as in the JSON answer). */
export function parseCsv(text: string): Record<string, string | number | null>[] {
  return parse(text, {
    columns: true,
    cast: (value) => (value === '' ? null : /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value) ? Number(value) : value),
  }) as Record<string, string | number | null>[];
}
