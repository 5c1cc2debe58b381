// No request parameter can make the server open a file outside the store: names that are paths, on every parameter of
// every path, answered 404/422, with every file the server process opens recorded by strace.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { routes } from '../../server/routes.js';
import { cleanUp, tempDir, writeTinyStore } from '../helpers.js';
import { entryArgs } from '../support/node-entry.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const strace = spawnSync('strace', ['-V']).status === 0;
if (!strace) console.warn('escape.test.ts: strace is not installed (apt-get install strace); the file-access check is skipped');

// Values that are paths, or try to become one after decoding, joining or truncation at a NUL.
const pathNames = (store: string) => [
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..\\..\\etc\\passwd',
  '....//....//etc/passwd',
  '/etc/passwd',
  '/etc/hostname',
  join(root, 'package.json'),
  `${store}/../outside`,
  'LAKE\u0000../../etc/passwd',
  '\u0000',
  'ALPHA LAKE/../../../etc/passwd',
  'reservoirs/metadata/../../manifest.json',
  '.',
  '..',
  '~/.ssh/id_rsa',
  'C:\\Windows\\win.ini',
  'file:///etc/passwd',
];

describe('the store folder', () => {
  it.skipIf(!strace)(
    'is the only data the server opens, whatever names the requests carry',
    async () => {
      const store = await tempDir();
      await writeTinyStore(store);
      const trace = join(tmpdir(), `evap-strace-${randomBytes(4).toString('hex')}.log`);
      const key = randomBytes(16).toString('hex');
      const child = spawn(
        'strace',
        [
          '-f',
          '--seccomp-bpf',
          '-qq',
          '-e',
          'trace=open,openat,openat2,creat,truncate,rename,unlink',
          '-o',
          trace,
          process.execPath,
          ...entryArgs('server/main.ts'),
        ],
        {
          cwd: root,
          env: { ...process.env, PORT: '0', HOST: '127.0.0.1', EVAP_STORE: store, EVAP_API_KEYS: key },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true, // its own process group: killing strace alone would leave the traced server running
        },
      );
      const kill = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      // cleanUp, not afterAll: vitest ignores an afterAll registered inside a test
      cleanUp(() => {
        kill();
        rmSync(trace, { force: true });
      });
      let output = '';
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => {
          output += c.toString();
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.on('exit', () => reject(new Error(`server exited: ${output}`)));
      });
      // raw node:http on a few kept-alive sockets: fetch cost the test 3 ms of CPU a request, over 5,000 requests
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      cleanUp(() => agent.destroy());
      const get = (path: string, method = 'GET') =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest(`${url}${path}`, { method, headers: { 'api-key': key }, agent }, (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
            res.on('error', reject);
          });
          req.on('error', reject);
          req.end();
        });
      await get('/info/list_datasets'); // every module a request needs is loaded now
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = readFileSync(trace, 'utf8').length;

      let sent = 0;
      const bad: string[] = [];
      for (const route of routes) {
        for (const parameter of route.parameters) {
          // one parameter's values at once, over the agent's four sockets
          await Promise.all(
            pathNames(store).map(async (value) => {
              const response = await get(`${route.path}?${parameter.name}=${encodeURIComponent(value)}`, route.method);
              sent++;
              if (![404, 422].includes(response.status))
                bad.push(`${route.method} ${route.path}?${parameter.name}=${value} -> ${response.status} ${response.body.slice(0, 100)}`);
            }),
          );
        }
      }
      for (const path of [
        '/../../etc/passwd',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/docs/..%2F..%2Fpackage.json',
        '/docs/../../../etc/passwd',
        '/docs/%2e%2e%2fswagger-ui.css',
        '/info/list_datasets/..%2F..%2F..%2Fetc%2Fpasswd',
      ]) {
        const response = await get(path);
        sent++;
        if (response.status !== 404) bad.push(`GET ${path} -> ${response.status}`);
      }
      // one real query, to show that the trace does see the store being read
      expect(
        (await get('/timeseries/daily/reservoirs/daterange?RES_NAMES=ALPHA%20LAKE&datasets=nete-volume-calcs&start_date=2020-12-30&end_date=2021-01-02'))
          .status,
      ).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      kill();

      const opened = readFileSync(trace, 'utf8')
        .slice(before)
        .split('\n')
        .flatMap((line) => {
          const match = /^\d+\s+\w+\((?:AT_FDCWD|\d+), "((?:[^"\\]|\\.)*)"/.exec(line) ?? /^\d+\s+\w+\("((?:[^"\\]|\\.)*)"/.exec(line);
          return match ? [match[1]!] : [];
        });
      console.log(`escape: ${sent} requests with path-like names; ${opened.length} files opened meanwhile: ${[...new Set(opened)].join(', ')}`);
      expect(bad).toEqual([]);
      expect(opened.some((p) => p.startsWith(`${store}/reservoirs/`))).toBe(true);
      // besides the store and the code (the packages, and the library's own modules, some loaded by their first call:
      // lib/open/deferred-stream.ts): the CPU count, which the runtime reads once zlib first inflates in its thread pool
      const runtime = new Set(['/sys/devices/system/cpu/online']);
      const code = (p: string) => p.includes('/node_modules/') || (/^(dist\/)?lib\/[\w/.-]+\.(js|ts)$/.test(p.slice(root.length)) && p.startsWith(root));
      const outside = opened.filter((p) => !p.startsWith(`${store}/`) && !code(p) && !runtime.has(p));
      expect(outside).toEqual([]);
    },
    60_000,
  );
});
