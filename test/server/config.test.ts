// The settings' defaults are written once (config.ts): the documentation's table gives the same, and a server started
// without any limit configured enforces the documented ones over real HTTP.
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numericSettings, readConfig } from '../../server/config.js';
import { root, startTestServer, type TestServer } from './harness.js';

// `| `--max-names N` | `EVAP_MAX_NAMES` | 500 | ...` -> flag, environment variable, the default's cell
async function documentedSettings(): Promise<Map<string, { env: string; default: string }>> {
  const text = await readFile(join(root, 'docs', 'server.md'), 'utf8');
  const rows = new Map<string, { env: string; default: string }>();
  for (const [, flag, env, fallback] of text.matchAll(/^\| `--([a-z-]+) N` \| `([A-Z_]+)` \| ([^|]+) \|/gm)) rows.set(flag!, { env: env!, default: fallback!.trim() });
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
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'api-key': server.key, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(bytes) } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.flushHeaders(); // the body is never sent: the limit is checked against the declared length
      });
    expect(await declared(limit('max-upload-bytes') + 1)).toBe(413);
    const header = (bytes: number) => server.get('/info/list_datasets', { headers: { 'x-padding': 'p'.repeat(bytes) } }).then((r) => r.status);
    expect(await header(limit('max-header-bytes') + 1)).toBe(431);
    expect(await header(limit('max-header-bytes') - 1024)).toBe(200);
  });
});
