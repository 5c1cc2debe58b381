// server/main.ts as a script: settings from flags and environment, exit 2 with the usage for a bad flag, exit 1 with
// the cause when the server cannot start, a server when run (through a symlink too), nothing when imported.
import { spawnSync } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { entryModule } from '../support/node-entry.js';
import { root, spawnMain, spawnServer } from './harness.js';

describe('server/main.ts', () => {
  it('refuses a bad flag or variable with exit status 2, the reason and the usage', async () => {
    await expect(spawnMain({}, ['--max-names', 'lots'])).rejects.toThrow(
      /exited with 2: --max-names \/ EVAP_MAX_NAMES must be an integer from 1 to \d+; got "lots"\nusage: evap serve \[options\]/,
    );
    await expect(spawnMain({ EVAP_WORKERS: 'many' })).rejects.toThrow(/exited with 2: --workers \/ EVAP_WORKERS \(or auto\) must be an integer[\s\S]*usage/);
  });

  it('exits 1 with the cause when the store cannot be opened', async () => {
    const missing = join(await tempDir(), 'no-store-here');
    await expect(spawnMain({ EVAP_STORE: missing, EVAP_API_KEYS: 'k' })).rejects.toThrow(/exited with 1: evap server failed to start: .*no-store-here/);
  });

  it('serves when run through a symlink, with host, port and keys from the environment', async () => {
    const main = entryModule('server/main.ts');
    const link = join(await tempDir(), `main-link${extname(main.path)}`);
    await symlink(main.path, link);
    const server = await spawnServer(process.execPath, [...main.nodeArgs, link], { PORT: '0', HOST: '127.0.0.1', EVAP_API_KEYS: 'linked-key' });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.url}/info/list_datasets`, { headers: { 'api-key': 'linked-key' } })).status).toBe(200);
    expect(server.output()).not.toContain('api-key:'); // a key was configured: none made
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('does nothing but define startServer when imported', async () => {
    const main = entryModule('server/main.ts');
    const script = join(await tempDir(), 'imports-main.mjs');
    await writeFile(script, `const main = await import(${JSON.stringify(pathToFileURL(main.path).href)});\nconsole.log(Object.keys(main).sort().join(','));\n`);
    const run = spawnSync(process.execPath, [...main.nodeArgs, script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, PORT: '0', EVAP_API_KEYS: 'k' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('startServer\n'); // no ready line: it did not serve
    expect(run.status).toBe(0);
  });
});
