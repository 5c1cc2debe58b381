// Hostile requests to every path over a real socket: never a 500, a hang or a crash, and normal answers unchanged after,
// while hostile clients pipeline and reset, ask for gzip and never read, and read slowly, from other addresses.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../server/routes.js';
import { startTestServer, type TestServer } from '../server/harness.js';
import { startHostileClients } from '../support/hostile.js';

interface Attempt {
  method: string;
  path: string;
  query: string; // already encoded, without '?'
  headers: Record<string, string>;
  body?: Buffer;
}

interface Answer {
  status: number;
  type: string | undefined;
  body: Buffer;
  ms: number;
}

const maxUploadBytes = 256 * 1024;
let server: TestServer;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
beforeAll(async () => {
  // headers up to 64 KiB, so that a 10,000-name list reaches the name limit (422) while 100 kB values still get 431
  // the hostile clients come from other addresses: a per-client bound and a stall timeout keep them to a few slots
  server = await startTestServer({ limits: { maxUploadBytes }, serve: { maxHeaderBytes: 64 * 1024, maxPerClient: 16, stallTimeoutMs: 30_000 } });
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

// One exchange on raw node:http, which (unlike fetch) sends a body on GET and any method.
function send(attempt: Attempt): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const target = `${server.url}${attempt.path}${attempt.query ? `?${attempt.query}` : ''}`;
    const req = httpRequest(target, { method: attempt.method, headers: attempt.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, type: res.headers['content-type'], body: Buffer.concat(chunks), ms: performance.now() - started }),
      );
      res.on('error', reject);
    });
    // a hang is no answer for 15 s (a bound on each answer's time failed on a machine shared with other heavy work)
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer in 15 s: ${attempt.method} ${target.slice(0, 200)}`)));
    req.on('error', reject);
    req.end(attempt.body);
  });
}

const shapefile = (ext: string) => readFileSync(new URL(`../fixtures/shapefiles/colorado_wgs84/colorado_wgs84.${ext}`, import.meta.url));
const parts = ['shp', 'dbf', 'prj', 'shx'] as const;

function multipart(boundary: string, files: [string, Buffer][]): Buffer {
  const pieces = files.flatMap(([name, bytes]) => [
    Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${name}.bin"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...pieces, Buffer.from(`--${boundary}--\r\n`)]);
}

const routePaths = [...new Set(routes.map((r) => r.path))];
const otherPaths = [
  '/docs',
  '/openapi.json',
  '/',
  '/nothing',
  '//info//list_datasets/',
  '/info/../../etc/passwd',
  '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/metadata/reservoirs/..%2F..%2Fmanifest.json',
];
const parameterNames = [...new Set(routes.flatMap((r) => r.parameters.map((p) => p.name))), 'api-key', 'token', 'foo', '', '__proto__', 'constructor'];
// biome-ignore-start lint/suspicious/noTemplateCurlyInString: '${jndi:…}' is one of the hostile values, not a forgotten template
const hostileValues = [
  '../../etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2Fmanifest.json',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  'LAKE ALICE\u0000../../etc/passwd',
  '\u0000',
  "'; DROP TABLE reservoirs; --",
  "1' OR '1'='1",
  '" OR ""="',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '2021-02-30',
  '0000-01-01',
  '99999-01-01',
  '2020-1-1',
  '-0001-01-01',
  '2020-01-01T00:00:00Z',
  '1e9',
  'NaN',
  '-1',
  '',
  ',',
  ',,,',
  ' , ',
  'ALL_STATIONS',
  'LAKE ALICE',
  'LAKE ALICE,LAKE ALICE',
  'lake alice',
  'LAKE MEAD_STATION',
  'rtma',
  'lem',
  'NetE',
  'ATemp',
  'qflag',
  'csv',
  'json',
  'CSV',
  'english',
  'metric',
  'imperial',
  '2020-01-05',
  '2019-12-31',
  'ÅSA SJÖ',
  '湖',
  '🌊💧',
  '\u202e\u0645',
  '\ud800',
  'A'.repeat(10_000),
  Array.from({ length: 10_000 }, (_, i) => `R${i}`).join(','), // 10,000 names
  Array.from({ length: 1_000 }, () => 'LAKE ALICE').join(','),
  'x'.repeat(100_000), // 100 kB: beyond the header limit
];
// biome-ignore-end lint/suspicious/noTemplateCurlyInString: the hostile values end here
const rawSuffixes = ['', '%', '%zz', '%00', '&&&', '=', '==', '%C0%AE%C0%AE%2F', '%FF%FE', '#frag', 'RES_NAMES', 'RES_NAMES=a&RES_NAMES=b'];

const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileValues) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);
const query = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...parameterNames), fc.string({ maxLength: 8 })), value), { maxLength: 6 }),
    fc.constantFrom(...rawSuffixes),
  )
  .map(([pairs, raw]) =>
    [...pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '\ufffd'))}`), raw]
      .filter((s) => s !== '')
      .join('&'),
  );

const body = fc.oneof(
  fc.constant<{ type?: string; bytes?: Buffer }>({}),
  fc.uint8Array({ maxLength: 4096 }).map((b) => ({ type: 'multipart/form-data; boundary=xyz', bytes: Buffer.from(b) })),
  fc.record({ cut: fc.nat(), shuffle: fc.boolean() }).map(({ cut }) => {
    const whole = multipart(
      'b0und',
      parts.map((p) => [`shapefile_${p}`, shapefile(p)]),
    );
    return { type: 'multipart/form-data; boundary=b0und', bytes: whole.subarray(0, cut % whole.length) }; // truncated
  }),
  fc.tuple(fc.subarray([...parts], { minLength: 1 }), fc.uint8Array({ minLength: 0, maxLength: 512 }), fc.nat()).map(([chosen, noise, at]) => {
    // real parts with one replaced by noise, or with bytes flipped
    const files: [string, Buffer][] = chosen.map((p, i) => {
      const bytes = Buffer.from(shapefile(p));
      if (i === 0) return [`shapefile_${p}`, Buffer.from(noise)];
      if (bytes.length > 0) bytes[at % bytes.length] ^= 0xff;
      return [`shapefile_${p}`, bytes];
    });
    return { type: 'multipart/form-data; boundary=zz', bytes: multipart('zz', files) };
  }),
  fc.constantFrom(
    { type: 'multipart/form-data', bytes: Buffer.from('--x\r\n\r\n') }, // no boundary
    { type: 'multipart/form-data; boundary=', bytes: Buffer.from('----\r\n') },
    { type: 'application/json', bytes: Buffer.from('{"RES_NAMES": ["../../etc/passwd"]}') },
    { type: 'application/json', bytes: Buffer.from(`{"RES_NAMES": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`) }, // nested deep: refused unparsed
    { type: 'application/json', bytes: Buffer.from(JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])))) }, // wide
    { type: 'application/json', bytes: Buffer.from('{"RES_NAMES": ["LAKE MEAD\u2028", "\u202e", "=HYPERLINK(1)"], "as_of": "\u0000"}') },
    { type: 'text/plain', bytes: Buffer.from('hello') },
    { type: 'application/x-www-form-urlencoded', bytes: Buffer.from('shapefile_shp=abc&shapefile_prj=%ZZ') },
    {
      type: 'multipart/form-data; boundary=q',
      bytes: Buffer.from('--q\r\ncontent-disposition: form-data; name="shapefile_shp"\r\n\r\ntext, not a file\r\n--q--\r\n'),
    },
    { type: 'multipart/form-data; boundary=q', bytes: Buffer.alloc(maxUploadBytes + 1024, 0x41) }, // over the limit: 413
    { type: undefined, bytes: Buffer.from([0, 1, 2, 3]) },
  ),
);

const attempt: fc.Arbitrary<Attempt> = fc
  .record({
    path: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...routePaths) }, { weight: 1, arbitrary: fc.constantFrom(...otherPaths) }),
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD') },
    ),
    query,
    body,
    key: fc.oneof(
      { weight: 8, arbitrary: fc.constant<string | null>('right') },
      { weight: 1, arbitrary: fc.constantFrom<string | null>(null, '', 'wrong', 'RIGHT') },
    ),
    encoding: fc.constantFrom('gzip', 'identity', 'br', '*;q=0', undefined),
  })
  .map(({ path, method, query, body, key, encoding }) => {
    const route = routes.find((r) => r.path === path);
    const headers: Record<string, string> = {};
    if (key !== null) headers['api-key'] = key === 'right' ? server.key : key === 'RIGHT' ? server.key.toUpperCase() : key;
    if (body.type) headers['content-type'] = body.type;
    if (encoding) headers['accept-encoding'] = encoding;
    if (body.bytes) headers['content-length'] = String(body.bytes.length); // node:http would send a GET body unframed
    return { method: method ?? route?.method ?? 'GET', path, query, headers, ...(body.bytes ? { body: body.bytes } : {}) };
  });

// Normal requests whose answers must not change, whatever came before.
const normal: Attempt[] = [
  {
    method: 'GET',
    path: '/timeseries/daily/reservoirs/daterange',
    query: 'RES_NAMES=LAKE%20ALICE,LAKE%20MEAD&start_date=2020-01-01&end_date=2020-01-20',
    headers: {},
  },
  { method: 'GET', path: '/timeseries/stations/daterange', query: 'STA_NAMES=LAKE%20MEAD_STATION&output_format=csv&units=english', headers: {} },
  { method: 'POST', path: '/info/list_RES_NAMES', query: '', headers: {} },
  { method: 'GET', path: '/metadata/stations', query: 'STA_NAMES=BLW_STATION', headers: {} },
];

describe('hostile requests', () => {
  it('never get a 500, a hang or a non-JSON error, and leave normal answers unchanged', async () => {
    const withKey = (a: Attempt): Attempt => ({ ...a, headers: { ...a.headers, 'api-key': server.key } });
    const expected = await Promise.all(normal.map(async (a) => (await send(withKey(a))).body.toString()));
    let tried = 0;
    let slowest = 0;
    const statuses = new Map<number, number>();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 250);
    // a few of each, on answers of a few MB: enough to hold slots and buffers, not to saturate a shared machine
    const large = `/timeseries/daily/reservoirs/daterange?RES_NAMES=${encodeURIComponent(server.store.manifest.reservoirs.names.slice(0, 12).join(','))}&start_date=2019-01-01&end_date=2021-12-31`;
    const hostile = startHostileClients({
      url: server.url,
      key: server.key,
      largePath: large,
      pipeliners: 1,
      burstPauseMs: 250,
      stallers: 2,
      slowReaders: 2,
      slowReadMs: 500,
    });
    await fc.assert(
      fc.asyncProperty(attempt, async (a) => {
        tried++;
        const answer = await send(a).catch((error: NodeJS.ErrnoException) => {
          // a request node:http cannot parse is answered with a JSON body: a HEAD client does not expect one
          if (a.method === 'HEAD' && error.code === 'HPE_CLOSED_CONNECTION')
            return { status: 400, type: 'application/json', body: Buffer.from('{"detail":""}'), ms: 0 };
          throw error;
        });
        slowest = Math.max(slowest, answer.ms);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const what = `${a.method} ${a.path}?${a.query.slice(0, 300)} -> ${answer.status} ${answer.body.toString().slice(0, 300)}`;
        expect(answer.status, what).toBeLessThan(500);
        if (answer.status >= 400 && a.method !== 'HEAD') {
          expect(answer.type, what).toBe('application/json');
          expect(Object.keys(JSON.parse(answer.body.toString())), what).toEqual(['detail']);
        }
        const check = tried % normal.length;
        tried++;
        expect((await send(withKey(normal[check]!))).body.toString(), `after ${what}`).toBe(expected[check]);
      }),
      { numRuns: 1500 },
    );
    const done = await hostile.stop();
    clearInterval(sampler);
    console.log(`hostile clients: ${JSON.stringify(done)}, RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> peak ${(rssPeak / 2 ** 20).toFixed(0)} MB`);
    // each kind ran (on the demo store a whole gzip answer fits in loopback's socket buffers: stalls end by the client)
    expect(done.bursts).toBeGreaterThan(10);
    expect(done.stalls).toBeGreaterThan(0);
    expect(done.slowBytes).toBeGreaterThan(0);
    expect((await send(withKey(normal[0]!))).body.toString()).toBe(expected[0]);
    // a server holding what the non-readers did not read grew by hundreds of MB (20 gzip clients: 800 MB); this
    // process also holds the test's own requests, so the bound is loose: the soak measures the server alone
    expect(rssPeak - rssBefore).toBeLessThan(512 * 2 ** 20);
    const log = server.logs.join('\n');
    expect(log).not.toMatch(/internal error|store error|request failed|response aborted/);
    expect(log).not.toContain(server.key);
    console.log(
      `hostile requests: ${tried} tried (half of them normal checks), slowest ${slowest.toFixed(0)} ms, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((x, y) => x[0] - y[0])))}`,
    );
  }, 120_000);
});
