// evap serve takes every flag of npm start; npm start is evap serve, and SIGTERM to npm stops the server.
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copySmallStore, tempDir } from '../../helpers.js';
import { spawnServer } from '../../server/harness.js';
import { evap, evapServe, root } from '../harness.js';

describe('evap serve', () => {
  it('serves a store with the flags of npm start', async () => {
    const store = await tempDir();
    await copySmallStore(store);
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

describe('evap serve with stdout a pipe whose reader goes away', () => {
  // a new connection each time (no keep-alive), so the requests of a cluster reach every worker
  const status = (url: string) =>
    new Promise<number>((resolve, reject) =>
      get(`${url}/info/list_datasets`, { agent: false, headers: { 'api-key': 'log-key' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      }).on('error', reject),
    );
  const pause = () => new Promise((resolve) => setTimeout(resolve, 100));

  it('serves on, says so once on stderr, and reports the access lines lost when it stops: one process and two workers', async () => {
    for (const workers of ['1', '2']) {
      const server = await evapServe(['--workers', workers], { EVAP_API_KEYS: 'log-key' });
      server.child.stdout!.destroy(); // the log's reader is gone: the next access line meets EPIPE
      for (let i = 0; i < 8; i++) {
        expect(await status(server.url), `request ${i}, ${workers} workers`).toBe(200);
        await pause();
      }
      expect(server.child.exitCode, `${workers} workers`).toBe(null);
      const output = server.output();
      expect(output).toMatch(/access log: stdout cannot be written \(EPIPE\); serving on, counting the lines lost/);
      expect(output).not.toMatch(/exited \(code/); // no worker was lost and forked again
      server.child.kill('SIGTERM');
      expect(await server.exited, `${workers} workers`).toBe(0);
      const lost = [...server.output().matchAll(/SIGTERM: (\d+) access log lines were lost/g)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(lost, `${workers} workers`).toBeGreaterThanOrEqual(8); // each worker counts its own
    }
  });

  it('stops with status 74 once stdout is gone under --exit-on-log-loss, so that Restart=on-failure restarts it', async () => {
    for (const workers of ['1', '2']) {
      const server = await evapServe(['--workers', workers, '--exit-on-log-loss'], { EVAP_API_KEYS: 'log-key' });
      server.child.stdout!.destroy();
      // an access line to lose (unless a start-up line already was lost, and the server is already stopping)
      await status(server.url).catch(() => 0);
      expect(await server.exited, `${workers} workers`).toBe(74);
      expect(server.output()).toContain('access log: stdout cannot be written (EPIPE)');
    }
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
