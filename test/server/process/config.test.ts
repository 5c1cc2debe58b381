// The settings (server/process/config.ts): each from its flag, its environment variable or its default, the defaults written
// once (the documentation's table gives the same), and a server started without any limit enforcing the documented ones.
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, numericSettings, readConfig, usage } from '../../../server/process/config.js';
import { integerLike } from '../../helpers.js';
import { root, startTestServer, type TestServer } from '../harness.js';

const counts: [flag: string, env: string, field: keyof Config, fallback: number, min: number][] = [
  ['max-upload-bytes', 'EVAP_MAX_UPLOAD_BYTES', 'maxUploadBytes', 52_428_800, 1],
  ['max-names', 'EVAP_MAX_NAMES', 'maxNames', 500, 1],
  ['max-variables', 'EVAP_MAX_VARIABLES', 'maxVariables', 100, 1],
  ['max-concurrent', 'EVAP_MAX_CONCURRENT', 'maxConcurrent', 64, 1],
  ['max-per-client', 'EVAP_MAX_PER_CLIENT', 'maxPerClient', 16, 1],
  ['max-bodies', 'EVAP_MAX_BODIES', 'maxBodies', 16, 1],
  ['max-bodies-per-client', 'EVAP_MAX_BODIES_PER_CLIENT', 'maxBodiesPerClient', 4, 1],
  ['body-min-rate', 'EVAP_BODY_MIN_RATE', 'bodyMinRate', 1024, 1],
  ['body-grace-ms', 'EVAP_BODY_GRACE_MS', 'bodyGraceMs', 10_000, 1],
  ['body-timeout-ms', 'EVAP_BODY_TIMEOUT_MS', 'bodyTimeoutMs', 30_000, 1],
  ['stall-timeout-ms', 'EVAP_STALL_TIMEOUT_MS', 'stallTimeoutMs', 30_000, 1],
  ['headers-timeout-ms', 'EVAP_HEADERS_TIMEOUT_MS', 'headersTimeoutMs', 10_000, 1],
  ['request-timeout-ms', 'EVAP_REQUEST_TIMEOUT_MS', 'requestTimeoutMs', 60_000, 1],
  ['max-header-bytes', 'EVAP_MAX_HEADER_BYTES', 'maxHeaderBytes', 16_384, 1],
  ['rate-limit-per-minute', 'EVAP_RATE_LIMIT_PER_MINUTE', 'rateLimitPerMinute', 0, 0],
  ['refresh-ms', 'EVAP_REFRESH_MS', 'refreshMs', 5_000, 0],
  ['answer-cache-mib', 'EVAP_ANSWER_CACHE_MIB', 'answerCacheMib', 64, 0],
  ['port', 'PORT', 'port', 8080, 0],
  ['workers', 'EVAP_WORKERS', 'workers', 1, 1],
];

describe('readConfig', () => {
  it('has the documented default of every setting with no flags and no environment', () => {
    const config = readConfig([], {});
    for (const [flag, , field, fallback] of counts) expect(config[field], flag).toBe(fallback);
    expect(config).toMatchObject({ host: '127.0.0.1', store: undefined, keys: [], keysFile: undefined, requestsFile: undefined });
  });

  it('takes every number from its flag (both spellings), from its environment variable, and the flag over the variable', () => {
    for (const [flag, env, field] of counts) {
      expect(readConfig([`--${flag}`, '7'], {})[field], flag).toBe(7);
      expect(readConfig([`--${flag}=8`], {})[field], flag).toBe(8);
      expect(readConfig([], { [env]: '9' })[field], env).toBe(9);
      expect(readConfig([`--${flag}`, '3'], { [env]: '9' })[field], flag).toBe(3);
      expect(readConfig([], { [env]: '' })[field], `${env} empty`).toBe(readConfig([], {})[field]); // an empty variable is no variable
    }
  });

  it('stops on a lost access log only when asked: --exit-on-log-loss or EVAP_EXIT_ON_LOG_LOSS 1 / true, and no other text', () => {
    expect(readConfig([], {}).exitOnLogLoss).toBe(false);
    expect(readConfig(['--exit-on-log-loss'], {}).exitOnLogLoss).toBe(true);
    for (const text of ['1', 'true', 'TRUE']) expect(readConfig([], { EVAP_EXIT_ON_LOG_LOSS: text }).exitOnLogLoss, text).toBe(true);
    for (const text of ['', '0', 'false']) expect(readConfig([], { EVAP_EXIT_ON_LOG_LOSS: text }).exitOnLogLoss, text).toBe(false);
    expect(() => readConfig([], { EVAP_EXIT_ON_LOG_LOSS: 'yes' })).toThrow(/EVAP_EXIT_ON_LOG_LOSS must be 1, true, 0 or false; got "yes"/);
    expect(usage).toContain('--exit-on-log-loss');
  });

  it('round-trips any integer in range written as decimal, from flag or environment', () => {
    fc.assert(
      fc.property(fc.constantFrom(...counts), fc.nat({ max: Number.MAX_SAFE_INTEGER }), fc.boolean(), ([flag, env, field, , min], n, fromEnv) => {
        const value = flag === 'port' ? n % 65536 : flag === 'workers' ? 1 + (n % 1024) : Math.max(min, n);
        const config = fromEnv ? readConfig([], { [env]: String(value) }) : readConfig([`--${flag}`, String(value)], {});
        expect(config[field]).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  it('takes any text iff it is plain decimal digits in range, as BigInt reads them (not 0x10, 1e3, " 5 " or 5.0)', () => {
    const max: Record<string, bigint> = { port: 65535n, workers: 1024n };
    fc.assert(
      fc.property(fc.constantFrom(...counts), integerLike, fc.boolean(), ([flag, env, field, , min], text, fromEnv) => {
        fc.pre(text !== '' && !(flag === 'workers' && text.trim().toLowerCase() === 'auto')); // empty: the default; auto: a word workers takes
        const read = () => (fromEnv ? readConfig([], { [env]: text }) : readConfig([`--${flag}=${text}`], {}))[field];
        const accepted = /^\d+$/.test(text) && BigInt(text) >= BigInt(min) && BigInt(text) <= (max[flag] ?? BigInt(Number.MAX_SAFE_INTEGER));
        if (accepted) expect(read()).toBe(Number(BigInt(text)));
        else expect(read).toThrow(/ must be an integer from \d+ to \d+; got /);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses a value that is not a whole number in range with a message naming the flag and the variable', () => {
    const bad = fc.oneof(
      fc.constantFrom('x', '1.5', '-1', '1e400', 'NaN', 'Infinity', '12abc', '9007199254740993'),
      fc.double({ noInteger: true, noNaN: true }).map(String),
      fc.string().filter((s) => s.trim() !== '' && !Number.isInteger(Number(s))),
    );
    fc.assert(
      fc.property(fc.constantFrom(...counts), bad, ([flag, env], text) => {
        fc.pre(!(flag === 'workers' && text.trim().toLowerCase() === 'auto'));
        const message = new RegExp(`^--${flag} / ${env}( \\(or auto\\))? must be an integer from \\d+ to \\d+; got `);
        expect(() => readConfig([`--${flag}=${text}`], {})).toThrow(message);
        expect(() => readConfig([], { [env]: text })).toThrow(message);
      }),
      { numRuns: 300 },
    );
    for (const [flag, , , , min] of counts) if (min > 0) expect(() => readConfig([`--${flag}`, String(min - 1)], {}), flag).toThrow(`integer from ${min} to`);
    expect(() => readConfig(['--port', '65536'], {})).toThrow('--port / PORT must be an integer from 0 to 65535; got "65536"');
    expect(() => readConfig(['--workers', '1025'], {})).toThrow('--workers / EVAP_WORKERS (or auto) must be an integer from 1 to 1024; got "1025"');
  });

  it('refuses an unknown flag, a flag without its value, and a positional argument', () => {
    expect(() => readConfig(['--max-name', '3'], {})).toThrow(/Unknown option '--max-name'/);
    expect(() => readConfig(['--port'], {})).toThrow(/--port <value>' argument missing/);
    expect(() => readConfig(['serve'], {})).toThrow(/Unexpected argument 'serve'/);
  });

  it('bounds one client to a quarter of --max-concurrent (at least 1) unless --max-per-client says otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.boolean(), (total, fromEnv) => {
        const config = fromEnv ? readConfig([], { EVAP_MAX_CONCURRENT: String(total) }) : readConfig(['--max-concurrent', String(total)], {});
        expect(config.maxPerClient).toBe(total < 8 ? 1 : Math.floor(total / 4));
      }),
    );
    expect(readConfig(['--max-concurrent', '8', '--max-per-client', '5'], {}).maxPerClient).toBe(5);
    expect(readConfig(['--max-concurrent', '8'], { EVAP_MAX_PER_CLIENT: '3' }).maxPerClient).toBe(3);
  });

  it('allows bodies arriving a quarter of --max-concurrent, and one client a quarter of those (each at least 1)', () => {
    expect(readConfig(['--max-concurrent', '100'], {})).toMatchObject({ maxBodies: 25, maxBodiesPerClient: 6 });
    expect(readConfig(['--max-concurrent', '3'], {})).toMatchObject({ maxBodies: 1, maxBodiesPerClient: 1 });
    expect(readConfig(['--max-concurrent', '100', '--max-bodies', '8'], {})).toMatchObject({ maxBodies: 8, maxBodiesPerClient: 2 });
    expect(readConfig([], { EVAP_MAX_BODIES_PER_CLIENT: '5' }).maxBodiesPerClient).toBe(5);
  });

  it('takes auto workers as the cores this process may use', () => {
    for (const auto of ['auto', 'AUTO', ' Auto ']) expect(readConfig([], { EVAP_WORKERS: auto }).workers).toBe(availableParallelism());
    expect(readConfig(['--workers', '3'], { EVAP_WORKERS: 'auto' }).workers).toBe(3);
  });

  it('takes host, store and files from flags over the environment, the requests file beside the keys file by default', () => {
    const env = { HOST: '0.0.0.0', EVAP_STORE: 's3://b/p', EVAP_KEYS_FILE: 'env.keys', EVAP_REQUESTS_FILE: 'env.requests' };
    expect(readConfig([], env)).toMatchObject({ host: '0.0.0.0', store: 's3://b/p', keysFile: 'env.keys', requestsFile: 'env.requests' });
    expect(readConfig(['--host', '::1', '--store', 'dir', '--keys-file', 'a.keys', '--requests-file', 'a.req'], env)).toMatchObject({
      host: '::1',
      store: 'dir',
      keysFile: 'a.keys',
      requestsFile: 'a.req',
    });
    expect(readConfig(['--keys-file', 'a.keys'], {}).requestsFile).toBe('a.keys.requests');
    expect(readConfig([], { EVAP_KEYS_FILE: 'k' }).requestsFile).toBe('k.requests');
    expect(readConfig([], { HOST: '', EVAP_STORE: '', EVAP_KEYS_FILE: '' })).toMatchObject({
      host: '127.0.0.1',
      store: undefined,
      keysFile: undefined,
      requestsFile: undefined,
    });
  });

  it('reads plain keys from EVAP_API_KEYS only, trimmed, and refuses one outside printable ASCII', () => {
    expect(readConfig([], { EVAP_API_KEYS: ' one , two ~!,three' }).keys).toEqual(['one', 'two ~!', 'three']);
    expect(() => readConfig([], { EVAP_API_KEYS: 'ascii-key, kéy' })).toThrow(/EVAP_API_KEYS: key 2 has a character outside printable ASCII/);
  });

  it('documents every flag it reads in the usage text, with its variable and default', () => {
    for (const [flag, env] of counts) {
      expect(usage, flag).toContain(`--${flag} N`);
      expect(usage, flag).toContain(`env ${env}`);
    }
    for (const flag of ['--host H', '--store DIR', '--keys-file PATH', '--requests-file PATH', 'EVAP_API_KEYS']) expect(usage).toContain(flag);
  });
});

async function documentedSettings(): Promise<Map<string, { env: string; default: string }>> {
  const text = await readFile(join(root, 'docs', 'server.md'), 'utf8');
  const rows = new Map<string, { env: string; default: string }>();
  for (const [, flag, env, fallback] of text.matchAll(/^\| `--([a-z-]+) N` \| `([A-Z_]+)` \| ([^|]+) \|/gm))
    rows.set(flag!, { env: env!, default: fallback!.trim() });
  return rows;
}

describe('settings', () => {
  it('docs/server.md lists every numeric setting with its environment variable and default', async () => {
    const documented = await documentedSettings();
    expect([...documented.keys()]).toEqual(expect.arrayContaining(numericSettings.map((s) => s.flag))); // and --workers, N or auto
    const config = readConfig([], {}) as unknown as Record<string, number>;
    for (const setting of numericSettings) {
      const row = documented.get(setting.flag)!;
      expect(row.env, setting.flag).toBe(setting.env);
      if (typeof setting.default === 'number') {
        expect(Number(row.default.split(' ')[0]), `${setting.flag}: ${row.default}`).toBe(setting.default);
        const key = setting.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()); // max-names -> maxNames
        expect(config[key], key).toBe(setting.default);
      }
    }
  });
});

describe('a server with no limits configured', () => {
  let server: TestServer;
  let documented: Map<string, { env: string; default: string }>;
  const limit = (flag: string) => Number(documented.get(flag)!.default.split(' ')[0]);
  beforeAll(async () => {
    documented = await documentedSettings();
    server = await startTestServer(); // no limits, no header size: the defaults
  });
  afterAll(() => server.close());

  const typeOf = async (path: string) => {
    const response = await server.get(path);
    const body = (await response.json()) as { detail: { type: string; msg: string }[] | string };
    return { status: response.status, type: Array.isArray(body.detail) ? body.detail[0]!.type : undefined };
  };

  it('takes the documented number of names and variables, and refuses one more', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `R${i}`).join(',');
    expect(await typeOf(`/metadata/reservoirs?RES_NAMES=${names(limit('max-names'))}`)).toEqual({ status: 404, type: undefined });
    expect(await typeOf(`/metadata/reservoirs?RES_NAMES=${names(limit('max-names') + 1)}`)).toEqual({ status: 422, type: 'too_long' });
    expect((await typeOf(`/timeseries/daily/reservoirs/daterange?variables=${names(limit('max-variables'))}`)).type).toBe('enum'); // read, then found unknown
    expect(await typeOf(`/timeseries/daily/reservoirs/daterange?variables=${names(limit('max-variables') + 1)}`)).toEqual({ status: 422, type: 'too_long' });
  });

  it('refuses a body declared one byte over the documented upload limit, and headers over the documented size', async () => {
    const declared = (bytes: number) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${server.url}/info/list_RES_NAMES`);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { 'api-key': server.key, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(bytes) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        req.flushHeaders(); // the body is never sent: the limit is checked against the declared length
      });
    expect(await declared(limit('max-upload-bytes') + 1)).toBe(413);
    const header = (bytes: number) => server.get('/info/list_datasets', { headers: { 'x-padding': 'p'.repeat(bytes) } }).then((r) => r.status);
    expect(await header(limit('max-header-bytes') + 1)).toBe(431);
    expect(await header(limit('max-header-bytes') - 1024)).toBe(200);
  });
});
