// Settings of `npm start`: command-line flags over environment variables over defaults.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { parseWholeNumber } from '../../lib/integer.js';
import { checkDatabaseNames } from '../database-names.js';
import { parseKeyList } from '../keys/auth.js';

/** A store to serve and the name of its paths (`/<name>/...`); a bare location alone has no name (served at the root). */
interface DatabaseSetting {
  name: string | undefined;
  location: string;
}

/** Everything main.ts needs to start a server. */
export interface Config {
  port: number;
  host: string;
  store: string | undefined; // undefined: the demo store in data/ (the first database's location)
  databases: DatabaseSetting[]; // every store to serve, by name (databases.ts); empty: the demo databases
  keys: string[]; // plain keys from EVAP_API_KEYS
  keysFile: string | undefined; // hex SHA-256 digests, one a line
  requestsFile: string | undefined; // where GET /auth/request_key appends requests (default: next to the keys file)
  maxUploadBytes: number;
  maxNames: number;
  maxVariables: number;
  maxConcurrent: number;
  maxPerClient: number; // requests in flight from one client address
  maxBodies: number; // requests whose bodies are still arriving (they hold no query slot until then)
  maxBodiesPerClient: number; // the same from one client address
  bodyMinRate: number; // bytes a second a body must keep up once its grace is over, else 408
  bodyGraceMs: number;
  bodyTimeoutMs: number; // a whole body, else 408
  maxHeavy: number; // answers decoding millions of rows built at once; the rest wait (admission.ts)
  stallTimeoutMs: number; // a connection making no progress this long is closed (a client that stops reading)
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxHeaderBytes: number;
  rateLimitPerMinute: number; // 0: no limit
  refreshMs: number; // how often to look for a newer snapshot of the store; 0: never
  workers: number; // processes serving the port (node:cluster); 1: this process alone
  answerCacheMib: number; // MiB of recent whole answers kept per process (server/answer-cache.ts); 0: none
  exitOnLogLoss: boolean; // stop (exit LOG_LOSS_EXIT) when stdout, the access log, cannot be written; default: serve on, counting the lines lost
  publicUrl: string | undefined; // the server's URL as clients reach it, for the links of OGC answers; undefined: the request's Host
  trustProxy: boolean; // take X-Forwarded-Proto and X-Forwarded-Host from the proxy in front
}

/** The exit status of a server stopped by --exit-on-log-loss: EX_IOERR of sysexits.h, a failure to systemd's Restart=on-failure. */
export const LOG_LOSS_EXIT = 74;

// flag name -> [environment variable, default, what it is, smallest value allowed (default 1)]
const numbers = {
  'max-upload-bytes': ['EVAP_MAX_UPLOAD_BYTES', 50 * 1024 * 1024, 'request body limit (the four shapefile parts together)'],
  'max-names': ['EVAP_MAX_NAMES', 500, 'names per RES_NAMES / STA_NAMES list'],
  'max-variables': ['EVAP_MAX_VARIABLES', 100, 'entries per variables / datasets / also_return list'],
  'max-concurrent': ['EVAP_MAX_CONCURRENT', 64, 'requests in flight before 503 with Retry-After'],
  'max-heavy': ['EVAP_MAX_HEAVY', 2, 'answers decoding over 2 million stored rows built at once (each process); the rest wait their turn'],
  'max-per-client': [
    'EVAP_MAX_PER_CLIENT',
    'a quarter of --max-concurrent, at least 1',
    'requests in flight from one client address before 503 with Retry-After',
  ],
  'max-bodies': [
    'EVAP_MAX_BODIES',
    'a quarter of --max-concurrent, at least 1',
    'requests whose bodies are still arriving, before 503; they take a query slot only once arrived',
  ],
  'max-bodies-per-client': ['EVAP_MAX_BODIES_PER_CLIENT', 'a quarter of --max-bodies, at least 1', 'the same from one client address'],
  'body-min-rate': ['EVAP_BODY_MIN_RATE', 1024, 'bytes a second a request body must keep up after its grace, else 408'],
  'body-grace-ms': ['EVAP_BODY_GRACE_MS', 10_000, 'time a request body has before --body-min-rate counts'],
  'body-timeout-ms': ['EVAP_BODY_TIMEOUT_MS', 30_000, 'time allowed to send a whole request body, else 408'],
  'stall-timeout-ms': ['EVAP_STALL_TIMEOUT_MS', 30_000, 'a connection with no progress this long is closed (a client that stops reading)'],
  'headers-timeout-ms': ['EVAP_HEADERS_TIMEOUT_MS', 10_000, 'time allowed to send the request headers'],
  'request-timeout-ms': ['EVAP_REQUEST_TIMEOUT_MS', 60_000, 'time allowed to send the whole request'],
  'max-header-bytes': ['EVAP_MAX_HEADER_BYTES', 16_384, 'request line and headers together, then 431'],
  'rate-limit-per-minute': ['EVAP_RATE_LIMIT_PER_MINUTE', 0, 'requests a minute per key, then 429 with Retry-After; 0 is off', 0],
  'refresh-ms': ['EVAP_REFRESH_MS', 5_000, 'how often to look for a snapshot published by ingest or mirror; 0 is never', 0],
  'answer-cache-mib': ['EVAP_ANSWER_CACHE_MIB', 64, 'MiB of recent whole answers kept per process, by snapshot and query; 0 keeps none', 0],
} as const satisfies Record<string, Setting>;
type Setting = readonly [string, number | string, string, number?]; // a text default is derived in readConfig

/** The default of a numeric setting: the one place it is written (the request limits and node.ts read it here). */
export function settingDefault(flag: { [F in keyof typeof numbers]: (typeof numbers)[F][1] extends number ? F : never }[keyof typeof numbers]): number {
  return numbers[flag][1];
}

/** Each numeric setting: flag, environment variable and default (a text default is a rule worked out in readConfig). */
export const numericSettings: readonly { flag: string; env: string; default: number | string }[] = Object.entries(numbers).map(([flag, [env, value]]) => ({
  flag,
  env,
  default: value,
}));

export const usage = `usage: evap serve [options]   (in a clone: npm start -- [options])
  --port N, --host H      where to listen (env PORT, HOST; default 8080, 127.0.0.1)
  --store DIR|s3://B/P    store folder or bucket (env EVAP_STORE; default the demo stores in data/ and data/twdb;
                          a bucket with the AWS environment: AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, ...)
  --store NAME=LOCATION   several databases: repeat the flag (env EVAP_STORE=usbr=DIR,twdb=DIR2); each is served
                          under /NAME/..., the first also at the root; GET /databases lists them
  --keys-file PATH        accepted keys as hex SHA-256 digests, one a line, # comments (env EVAP_KEYS_FILE)
  --workers N|auto        processes serving the port; auto: one per core (env EVAP_WORKERS; default 1)
                          plain keys: env EVAP_API_KEYS=key1,key2; none at all: a random key is printed
  --requests-file PATH    where GET /auth/request_key appends key requests (env EVAP_REQUESTS_FILE;
                          default <keys-file>.requests; without either, key requests are refused)
  --exit-on-log-loss      stop (exit 74) when stdout, the access log, can no longer be written (env
                          EVAP_EXIT_ON_LOG_LOSS=1); default: serve on, say so once on stderr and count the lines lost
  --public-url URL        the server's URL as clients reach it, written in the links of OGC answers
                          (env EVAP_PUBLIC_URL; default: the Host header of each request)
  --trust-proxy           without --public-url, links take X-Forwarded-Proto and X-Forwarded-Host
                          from the proxy in front (env EVAP_TRUST_PROXY=1; default: ignored)
${Object.entries(numbers)
  .map(([flag, [env, value, what]]) => `  --${flag} N`.padEnd(28) + `${what} (env ${env}; default ${value})`)
  .join('\n')}`;

/** Reads flags and environment; throws an Error with a message for the user on bad input. */
export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      store: { type: 'string', multiple: true },
      'keys-file': { type: 'string' },
      'requests-file': { type: 'string' },
      workers: { type: 'string' },
      'exit-on-log-loss': { type: 'boolean' },
      'public-url': { type: 'string' },
      'trust-proxy': { type: 'boolean' },
      ...Object.fromEntries(Object.keys(numbers).map((flag) => [flag, { type: 'string' as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
  const flags = values as Record<string, string | undefined>;
  const databases = parseDatabaseSettings((values as { store?: string[] }).store, env.EVAP_STORE || undefined);
  const number = (flag: keyof typeof numbers, derived = 0) => {
    const [name, fallback, , min = 1]: Setting = numbers[flag];
    return parseCount(`--${flag} / ${name}`, flags[flag] ?? env[name], typeof fallback === 'number' ? fallback : derived, min);
  };
  const maxConcurrent = number('max-concurrent');
  const maxBodies = number('max-bodies', Math.max(1, Math.floor(maxConcurrent / 4)));
  const keysFile = flags['keys-file'] ?? (env.EVAP_KEYS_FILE || undefined);
  return {
    port: parseCount('--port / PORT', flags.port ?? env.PORT, 8080, 0, 65535),
    host: flags.host ?? (env.HOST || '127.0.0.1'),
    store: databases[0]?.location,
    databases,
    keys: parseKeyList(env.EVAP_API_KEYS),
    keysFile,
    requestsFile: flags['requests-file'] ?? (env.EVAP_REQUESTS_FILE || (keysFile === undefined ? undefined : `${keysFile}.requests`)),
    maxUploadBytes: number('max-upload-bytes'),
    maxNames: number('max-names'),
    maxVariables: number('max-variables'),
    maxConcurrent,
    maxHeavy: number('max-heavy'),
    maxPerClient: number('max-per-client', Math.max(1, Math.floor(maxConcurrent / 4))), // scales with the total: a fixed 16 was no bound at all under --max-concurrent 16 or less
    maxBodies,
    maxBodiesPerClient: number('max-bodies-per-client', Math.max(1, Math.floor(maxBodies / 4))),
    bodyMinRate: number('body-min-rate'),
    bodyGraceMs: number('body-grace-ms'),
    bodyTimeoutMs: number('body-timeout-ms'),
    stallTimeoutMs: number('stall-timeout-ms'),
    headersTimeoutMs: number('headers-timeout-ms'),
    requestTimeoutMs: number('request-timeout-ms'),
    maxHeaderBytes: number('max-header-bytes'),
    rateLimitPerMinute: number('rate-limit-per-minute'),
    refreshMs: number('refresh-ms'),
    workers: parseWorkers(flags.workers ?? env.EVAP_WORKERS),
    answerCacheMib: number('answer-cache-mib'),
    exitOnLogLoss: values['exit-on-log-loss'] === true || parseSwitch('EVAP_EXIT_ON_LOG_LOSS', env.EVAP_EXIT_ON_LOG_LOSS),
    publicUrl: parsePublicUrl(flags['public-url'] ?? (env.EVAP_PUBLIC_URL || undefined)),
    trustProxy: (values as { 'trust-proxy'?: boolean })['trust-proxy'] === true || env.EVAP_TRUST_PROXY === '1',
  };
}

// an http(s) URL with at most a path: links append /ogc/... to it
function parsePublicUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new Error(`--public-url / EVAP_PUBLIC_URL must be an http or https URL with no query, fragment or credentials; got ${JSON.stringify(text)}`);
  return url.href.replace(/\/+$/, '');
}

/**
 * The databases of --store (repeated) or EVAP_STORE (comma-separated): `name=location` entries, or one bare location as
 * before (an EVAP_STORE without `=` is one location, commas and all). Names are checked here, so a bad one stops the start.
 */
export function parseDatabaseSettings(flags: readonly string[] | undefined, env: string | undefined): DatabaseSetting[] {
  const entries = flags ?? (env === undefined ? [] : env.includes('=') ? env.split(',').map((e) => e.trim()) : [env]);
  const settings = entries.map((entry): DatabaseSetting => {
    const named = /^([^=/\\:]+)=(.*)$/.exec(entry);
    if (!named) return { name: undefined, location: entry };
    if (named[2]!.trim() === '') throw new Error(`--store / EVAP_STORE: ${JSON.stringify(entry)} names no location after '='`);
    return { name: named[1]!.trim(), location: named[2]!.trim() };
  });
  if (settings.length > 1 && settings.some((s) => s.name === undefined))
    throw new Error(
      `--store / EVAP_STORE: with several stores every one needs a name (name=location); ${JSON.stringify(settings.find((s) => s.name === undefined)!.location)} has none`,
    );
  if (settings.some((s) => s.location === '')) throw new Error('--store / EVAP_STORE: an entry is empty');
  const names = settings.flatMap((s) => (s.name === undefined ? [] : [s.name]));
  if (names.length > 0) checkDatabaseNames(names);
  return settings;
}

// an on/off variable: 1 or true is on, 0, false or empty off; anything else is a mistake, not a silent off
function parseSwitch(name: string, text: string | undefined): boolean {
  const value = text?.trim().toLowerCase() ?? '';
  if (value === '1' || value === 'true') return true;
  if (value === '' || value === '0' || value === 'false') return false;
  throw new Error(`${name} must be 1, true, 0 or false; got ${JSON.stringify(text)}`);
}

// `auto` is one process per core this process may use
function parseWorkers(text: string | undefined): number {
  if (text?.trim().toLowerCase() === 'auto') return availableParallelism();
  return parseCount('--workers / EVAP_WORKERS (or auto)', text, 1, 1, 1024);
}

// plain decimal digits only: Number() would take 0x10, 1e3, ' 5 ' and 5.0 too
function parseCount(name: string, text: string | undefined, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || text === '') return fallback;
  const value = parseWholeNumber(text);
  if (value === undefined || value < min || value > max) throw new Error(`${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(text)}`);
  return value;
}
