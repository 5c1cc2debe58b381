// The S3 client against a real S3-compatible server (s3rver on loopback behind the test proxy, which can fail, stall
// or lose answers on cue): objects read back as written, listings against the keys written (plain filter and sort),
// retries and timeouts with the messages they give, and S3 error bodies decoded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/errors.js';
import { errorCode, S3Client, s3OptionsFromEnv } from '../../../lib/store/s3.js';
import { startTestBucket } from '../../support/bucket.js';
import type { Fault } from '../../support/conditional-proxy.js';

const seen = new Map<string, number>();
const faults = (method: string, key: string): Fault => {
  const n = (seen.get(`${method} ${key}`) ?? 0) + 1; // by method: the writes before the reads do not use the faults up
  seen.set(`${method} ${key}`, n);
  if (key.includes('/flaky') && n <= 2) return 'error';
  if (key.includes('/stalls') && n <= 1) return 'stall';
  if (key.includes('/down')) return method === 'GET' ? 'error' : undefined;
  return undefined;
};
const bucket = await startTestBucket({ fault: faults });
const options = { ...s3OptionsFromEnv(bucket.env), attempts: 3, timeoutMs: 5_000, backoffMs: 10 };
const client = new S3Client(bucket.bucket, options);
const quick = new S3Client(bucket.bucket, { ...options, timeoutMs: 400 }); // for the stalls
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('S3Client.send', () => {
  it('writes and reads back objects whose keys hold spaces, percent signs, plus signs and any text', async () => {
    const segment = fc
      .string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '%', '+', '=', '&', '~', 'é', '湖', '-', '_', '.'), minLength: 1, maxLength: 8 })
      .filter((s) => s !== '.' && s !== '..');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.string({ maxLength: 40 }), async (segments, body) => {
        const key = `send/${segments.join('/')}`;
        expect((await client.send('PUT', key, { body: bytes(body) })).status).toBe(200);
        const got = await client.send('GET', key);
        expect([got.status, text(got.body), got.retried]).toEqual([200, body, false]);
      }),
      { numRuns: 25 },
    );
    const missing = await client.send('GET', 'send/none');
    expect([missing.status, errorCode(missing.body)]).toEqual([404, 'NoSuchKey']);
    expect(Math.abs(client.skewMs)).toBeLessThan(5_000); // the same machine's clock, read from the Date headers
  });

  it('retries a failing request with backoff, gives up on a stall after its timeout, and names what failed', async () => {
    for (const name of ['flaky', 'stalls', 'down']) await quick.send('PUT', `faults/${name}/x.json`, { body: bytes(`"${name}"`) });
    const flaky = await quick.send('GET', 'faults/flaky/x.json'); // two 503s, then the answer
    expect([text(flaky.body), flaky.retried]).toEqual(['"flaky"', true]);
    expect(text((await quick.send('GET', 'faults/stalls/x.json')).body)).toBe('"stalls"'); // one stall cut at 400 ms, then the answer
    await expect(quick.send('GET', 'faults/down/x.json')).rejects.toThrow(/GET evap-test\/faults\/down\/x\.json failed after 3 attempts: 503 SlowDown/);
    const once = new S3Client(bucket.bucket, { ...options, timeoutMs: 400, attempts: 1 });
    const stalled = await once.send('PUT', 'faults/stalls/y.json', { body: bytes('1') }).catch((e: unknown) => e);
    expect(stalled).toBeInstanceOf(StoreError);
    expect((stalled as Error).message).toMatch(/PUT evap-test\/faults\/stalls\/y\.json failed after 1 attempts: no answer within 400 ms/);
  });
});

describe('S3Client.list', () => {
  it('lists every key under a prefix, page by page, in byte order; with a delimiter only those directly under it', async () => {
    // s3rver lists in the order it walks its folders, S3 in byte order: they agree when no character sorts before '/'
    const name = fc.string({ unit: fc.constantFrom('a', 'b', 'B', '1', 'é'), minLength: 1, maxLength: 3 });
    const folder = fc.string({ unit: fc.constantFrom('D', 'E'), minLength: 1, maxLength: 2 });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.option(folder, { nil: undefined }), name), { maxLength: 8, selector: ([d, n]) => `${d}/${n}` }),
        fc.integer({ min: 1, max: 4 }),
        async (entries, pageSize) => {
          const prefix = `list/${run++}/`;
          const keys = entries.map(([under, file]) => `${prefix}${under === undefined ? '' : `${under}/`}${file}`);
          for (const key of keys) await client.send('PUT', key, { body: bytes(key) });
          const paged = new S3Client(bucket.bucket, { ...options, listPageSize: pageSize });
          const all = await paged.list(prefix);
          expect(all.map((o) => o.key)).toEqual([...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
          expect(all.map((o) => o.bytes)).toEqual(all.map((o) => bytes(o.key).byteLength));
          const top = await paged.list(prefix, '/');
          expect(top.map((o) => o.key).sort()).toEqual(keys.filter((k) => !k.slice(prefix.length).includes('/')).sort());
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('errorCode', () => {
  it('reads the Code of an S3 error body, XML entities decoded', () => {
    const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    fc.assert(
      fc.property(
        fc.string({ maxLength: 20 }),
        (code) => errorCode(bytes(`<?xml version="1.0"?><Error><Code>${xmlEscape(code)}</Code><Message>m</Message></Error>`)) === code,
      ),
    );
    expect(errorCode(bytes('<Error><Code>A&#x3C;B&#60;C</Code></Error>'))).toBe('A<B<C');
    expect(errorCode(bytes('not xml'))).toBe('');
  });
});

describe('s3OptionsFromEnv', () => {
  it('takes the S3 endpoint before the general one, and treats empty variables as unset', () => {
    expect(
      s3OptionsFromEnv({ AWS_ENDPOINT_URL_S3: 'http://s3', AWS_ENDPOINT_URL: 'http://any', AWS_DEFAULT_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: '' }),
    ).toEqual({
      endpoint: 'http://s3',
      region: 'eu-west-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      sessionToken: undefined,
    });
    expect(
      s3OptionsFromEnv({ AWS_ENDPOINT_URL_S3: '', AWS_ENDPOINT_URL: 'http://any', AWS_REGION: 'us-west-2', AWS_DEFAULT_REGION: 'eu-west-1' }),
    ).toMatchObject({ endpoint: 'http://any', region: 'us-west-2' });
  });
});
