// evap serve takes every flag of npm start; npm start is evap serve, and SIGTERM to npm stops the server.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeSmallStore } from '../../helpers.js';
import { spawnServer } from '../../server/harness.js';
import { evap, evapServe, root } from '../harness.js';

describe('evap serve', () => {
  it('serves a store with the flags of npm start', async () => {
    const store = await tempDir();
    await writeSmallStore(store);
    const server = await evapServe(['--store', store, '--max-names', '1'], { EVAP_API_KEYS: 'serve-key' });
    const get = (path: string) => fetch(`${server.url}${path}`, { headers: { 'api-key': 'serve-key' } });
    expect(await (await get('/info/list_datasets')).json()).toEqual(['rtma', 'res', 'lem', 'nete-volume-calcs']);
    expect((await get('/timeseries/daily/reservoirs/daterange?RES_NAMES=A,B')).status).toBe(422); // --max-names 1
    expect((await fetch(`${server.url}/info/list_datasets`)).status).toBe(401);
  });

  it('reports a bad flag with the usage, and a store it cannot open with the cause', async () => {
    const [flag, missing] = await Promise.all([
      evap(['serve', '--max-names', 'zero']),
      evap(['serve', '--port', '0', '--store', join(await tempDir(), 'none')]),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--max-names / EVAP_MAX_NAMES must be an integer');
    expect(flag.stderr).toContain('usage: evap serve [options]');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^evap serve: .*none/);
    expect(missing.stderr).not.toContain('usage');
  });
});

describe('npm start', () => {
  it.skipIf(!existsSync(join(root, 'dist/cli/evap.js')))('stops serving when npm itself gets SIGTERM', async () => {
    const { child: npm, url } = await spawnServer('npm', ['start', '--silent'], { PORT: '0', EVAP_API_KEYS: 'signal-key' });
    try {
      expect((await fetch(`${url}/info/list_datasets`, { headers: { 'api-key': 'signal-key' } })).status).toBe(200);
      const exited = new Promise<number | null>((done) => npm.on('exit', (code) => done(code)));
      npm.kill('SIGTERM');
      await exited;
      // the server was npm's child: it must be gone too, its port refusing connections
      let refused = false;
      for (let i = 0; i < 50 && !refused; i++) {
        refused = await fetch(`${url}/info/list_datasets`, { signal: AbortSignal.timeout(500) }).then(
          () => false,
          () => true,
        );
        if (!refused) await new Promise((r) => setTimeout(r, 100));
      }
      expect(refused).toBe(true);
    } finally {
      npm.kill('SIGKILL');
    }
  });
});
