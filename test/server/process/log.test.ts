// Access lines: one line of space-separated fields whatever the client sends, and no key-like query value in them.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAccess, redactTarget } from '../../../server/process/log.js';
import { root, startTestServer, type TestServer } from '../harness.js';

// escaped characters back to themselves (the inverse of the line's escaping, written for the test)
const unescapeField = (text: string) => text.replace(/\\u\{([0-9a-f]+)\}/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
const anyText = fc.string({ unit: 'binary', maxLength: 40 }).filter((t) => !t.includes('\\u{'));
const secretLike = /key|token|secret|password|auth/i; // the documented rule, to check names against

describe('formatAccess', () => {
  it('writes time, method, target, status, time taken and bytes as single fields, whatever the client sent', () => {
    fc.assert(
      fc.property(
        anyText,
        anyText,
        fc.integer({ min: 100, max: 599 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.nat(),
        fc.boolean(),
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }),
        (method, path, status, ms, bytes, aborted, now) => {
          const target = `/${path}`;
          const line = formatAccess({ method, target, status, ms, bytes, aborted }, now);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: a control character in a log line is what this refuses
          expect(line).not.toMatch(/[\n\r\t\u2028\u2029\u0000]/u);
          expect(line).not.toMatch(/\p{Cs}/u); // no half surrogate pair, even where a field is clipped
          const fields = line.split(' ');
          expect(fields).toHaveLength(aborted ? 7 : 6);
          expect(fields[0]).toBe(now.toISOString());
          if (fields[1]!.length <= 16) expect(unescapeField(fields[1]!)).toBe(method);
          else expect(fields[1]).toMatch(/^[\s\S]{15,16}\.\.\.$/); // clipped after escaping, at 16 UTF-16 units
          if (!target.includes('?')) expect(unescapeField(fields[2]!)).toBe(target);
          expect(fields.slice(3)).toEqual([String(status), `${ms.toFixed(1)}ms`, `${bytes}B`, ...(aborted ? ['aborted'] : [])]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('clips a long target to 2000 characters', () => {
    const line = formatAccess({ method: 'GET', target: `/${'a'.repeat(5000)}`, status: 414, ms: 0, bytes: 0, aborted: false });
    expect(line.split(' ')[2]).toBe(`/${'a'.repeat(1999)}...`);
  });

  it('never clips between the halves of a surrogate pair', () => {
    const line = formatAccess({ method: `${'M'.repeat(15)}\u{1F600}`, target: `/${'a'.repeat(1998)}\u{1F600}b`, status: 200, ms: 0, bytes: 0, aborted: false });
    const [, method, target] = line.split(' ');
    expect(method).toBe(`${'M'.repeat(15)}...`);
    expect(target).toBe(`/${'a'.repeat(1998)}...`);
  });
});

describe('redactTarget', () => {
  it('hides key-like query values and escapes spaces', () => {
    expect(redactTarget('/info/list_datasets?api-key=abc&output_format=csv')).toBe('/info/list_datasets?api-key=***&output_format=csv');
    expect(redactTarget('/x?API_KEY=abc&token=t')).toBe('/x?API_KEY=***&token=***');
    expect(redactTarget('/x y')).toBe('/x\\u{20}y');
  });

  it('hides them when their names are percent-encoded, separated by semicolons, or carry the value', () => {
    for (const target of [
      '/x?a=1;api-key=s3cr3t',
      '/x?api%2Dkey=s3cr3t',
      '/x?api%252Dkey=s3cr3t',
      '/x?%61pi-key=s3cr3t',
      '/x?api-key%3Ds3cr3t',
      '/x?api-key%ZZ=s3cr3t&b=2',
      '/x?t%6Fken=s3cr3t',
    ]) {
      const line = redactTarget(target);
      expect(line, target).not.toContain('s3cr3t');
      expect(line).toMatch(/\*\*\*/);
    }
    expect(redactTarget('/x?a=1;b=2&c=3')).toBe('/x?a=1;b=2&c=3');
  });

  it('keeps every other parameter as sent and replaces each key-like value, as URLSearchParams reads the line', () => {
    const secretName = fc
      .tuple(
        fc.constantFrom('api-key', 'api_key', 'apikey', 'token', 'access_token', 'client_secret', 'password', 'authorization', 'X-Auth'),
        fc.constantFrom('plain', 'upper', 'encoded'),
      )
      .map(([name, how]) =>
        how === 'upper' ? name.toUpperCase() : how === 'encoded' ? [...name].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('') : name,
      );
    const plainName = fc.stringMatching(/^[a-z_]{1,10}$/).filter((n) => !secretLike.test(n));
    const value = fc.stringMatching(/^[A-Za-z0-9]{0,12}$/);
    const pair = fc.oneof(
      fc.tuple(
        secretName,
        fc.stringMatching(/^[A-Za-z0-9]{8,16}$/).map((v) => `S3cr3t${v}`),
        fc.constant(true),
      ),
      fc.tuple(plainName, value, fc.constant(false)),
    );
    fc.assert(
      fc.property(fc.array(pair, { minLength: 1, maxLength: 6 }), (pairs) => {
        const line = redactTarget(`/timeseries/daily/reservoirs/daterange?${pairs.map(([n, v]) => `${n}=${v}`).join('&')}`);
        expect(line).not.toContain('S3cr3t');
        const read = [...new URLSearchParams(line.slice(line.indexOf('?') + 1))];
        expect(read).toEqual(pairs.map(([n, v, secret]) => [decodeURIComponent(n), secret ? '***' : v]));
      }),
      { numRuns: 300 },
    );
  });
});

describe('access lines of a running server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('logs each request once with its status and the body bytes the client received, a key in the query hidden', async () => {
    const target = '/info/list_datasets?api-key=s3cr3t-in-query&output_format=csv';
    const response = await server.get(target, { headers: { 'accept-encoding': 'identity' } });
    const body = new Uint8Array(await response.arrayBuffer());
    const missing = await server.get('/no/such/path', { headers: { 'accept-encoding': 'identity' } });
    const missingBody = new Uint8Array(await missing.arrayBuffer());
    // a line is written when its response has finished, which the client may see first
    await expect.poll(() => server.logs.filter((l) => / GET /.test(l))).toHaveLength(2);
    const lines = server.logs.filter((l) => / GET /.test(l));
    expect(lines.join('\n')).not.toContain('s3cr3t');
    const [ok, notFound] = lines.map((l) => l.split(' '));
    expect(ok!.slice(1, 4)).toEqual(['GET', '/info/list_datasets?api-key=***&output_format=csv', String(response.status)]);
    expect(ok![5]).toBe(`${body.length}B`);
    expect(notFound!.slice(1, 4)).toEqual(['GET', '/no/such/path', '404']);
    expect(notFound![5]).toBe(`${missingBody.length}B`);
  });
});

describe('consoleLogger', () => {
  it('writes access lines to stdout and errors to stderr, a line each', () => {
    const script =
      "import { consoleLogger } from './server/process/log.ts'; consoleLogger.info('GET / 200'); consoleLogger.error('it broke'); consoleLogger.info('second');";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('it broke\n');
    expect(run.stdout).toBe('GET / 200\nsecond\n');
  });
});
