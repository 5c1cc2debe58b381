// readConfig: every setting of `npm start` / `evap serve` from its flag, from its environment variable, or its default.
import { availableParallelism } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfig, usage, type Config } from '../../server/config.js';

// Written out by hand from docs/ and the usage text: flag, environment variable, Config field, default, least value.
const counts: [flag: string, env: string, field: keyof Config, fallback: number, min: number][] = [
  ['max-upload-bytes', 'EVAP_MAX_UPLOAD_BYTES', 'maxUploadBytes', 52_428_800, 1],
  ['max-names', 'EVAP_MAX_NAMES', 'maxNames', 500, 1],
  ['max-variables', 'EVAP_MAX_VARIABLES', 'maxVariables', 100, 1],
  ['max-concurrent', 'EVAP_MAX_CONCURRENT', 'maxConcurrent', 64, 1],
  ['max-per-client', 'EVAP_MAX_PER_CLIENT', 'maxPerClient', 16, 1],
  ['stall-timeout-ms', 'EVAP_STALL_TIMEOUT_MS', 'stallTimeoutMs', 30_000, 1],
  ['headers-timeout-ms', 'EVAP_HEADERS_TIMEOUT_MS', 'headersTimeoutMs', 10_000, 1],
  ['request-timeout-ms', 'EVAP_REQUEST_TIMEOUT_MS', 'requestTimeoutMs', 60_000, 1],
  ['max-header-bytes', 'EVAP_MAX_HEADER_BYTES', 'maxHeaderBytes', 16_384, 1],
  ['rate-limit-per-minute', 'EVAP_RATE_LIMIT_PER_MINUTE', 'rateLimitPerMinute', 0, 0],
  ['refresh-ms', 'EVAP_REFRESH_MS', 'refreshMs', 5_000, 0],
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

  it('takes auto workers as the cores this process may use', () => {
    for (const auto of ['auto', 'AUTO', ' Auto ']) expect(readConfig([], { EVAP_WORKERS: auto }).workers).toBe(availableParallelism());
    expect(readConfig(['--workers', '3'], { EVAP_WORKERS: 'auto' }).workers).toBe(3);
  });

  it('takes host, store and files from flags over the environment, the requests file beside the keys file by default', () => {
    const env = { HOST: '0.0.0.0', EVAP_STORE: 's3://b/p', EVAP_KEYS_FILE: 'env.keys', EVAP_REQUESTS_FILE: 'env.requests' };
    expect(readConfig([], env)).toMatchObject({ host: '0.0.0.0', store: 's3://b/p', keysFile: 'env.keys', requestsFile: 'env.requests' });
    expect(readConfig(['--host', '::1', '--store', 'dir', '--keys-file', 'a.keys', '--requests-file', 'a.req'], env)).toMatchObject({ host: '::1', store: 'dir', keysFile: 'a.keys', requestsFile: 'a.req' });
    expect(readConfig(['--keys-file', 'a.keys'], {}).requestsFile).toBe('a.keys.requests');
    expect(readConfig([], { EVAP_KEYS_FILE: 'k' }).requestsFile).toBe('k.requests');
    expect(readConfig([], { HOST: '', EVAP_STORE: '', EVAP_KEYS_FILE: '' })).toMatchObject({ host: '127.0.0.1', store: undefined, keysFile: undefined, requestsFile: undefined });
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
