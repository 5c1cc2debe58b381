// The package as a user gets it: packed, installed alone into an empty folder, then used through npx and import.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const root = join(import.meta.dirname, '..');
const run = promisify(execFile);
// what an npm script passes down (npm_config_*, npm_package_*) must not steer the consumer's npm
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

describe('the packed package', () => {
  it('installs alone, without a build, and works through npx and import', { timeout: 180_000 }, async () => {
    expect(existsSync(join(root, 'dist/cli/evap.js')), 'dist/ is built by npm ci (npm run build)').toBe(true);
    const dir = await tempDir('evap-consumer-');
    const env = { ...cleanEnv, XDG_CACHE_HOME: join(dir, 'cache'), EVAP_DEMO_DIR: '', SCARF_ANALYTICS: 'false' };
    // the package's own prepack step for the manifest (its build is checked above): the packed package.json without the
    // clone's prepare, which npm would list to the consumer as an install script to approve
    await run('npx', ['tsx', 'scripts/pack-manifest.ts', 'strip'], { cwd: root, env });
    const { stdout: packed } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: root, env }).finally(() =>
      run('npx', ['tsx', 'scripts/pack-manifest.ts', 'restore'], { cwd: root, env }),
    );
    const [{ filename, size, files }] = JSON.parse(packed) as [{ filename: string; size: number; files: { path: string }[] }];
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'dist/cli/evap.js',
        'dist/server/main.js',
        'dist/lib/index.js',
        'dist/lib/index.d.ts',
        'dist/docs/swagger-ui-bundle.js', // /docs's assets, copied at build time: no swagger-ui-dist to install
        'dist/docs/LICENSE',
        'docs/screenshots/explorer-1280.png', // the README's screenshot
        'README.md',
        'LICENSE',
        'package.json',
      ]),
    );
    expect(
      paths.filter((p) => /^(test|bench|data|cli|lib|server|\.ci)\//.test(p) || (p.endsWith('.ts') && !p.endsWith('.d.ts')) || p.endsWith('.map')),
    ).toEqual([]);
    expect(size).toBeLessThan(1_350_000); // 1.26 MB with the model and the catalog; about 450 KB of it the Swagger UI bundle /docs serves, 135 KB the screenshot

    const consumer = join(dir, 'consumer');
    await run('mkdir', [consumer]);
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const began = performance.now();
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, filename)], { cwd: consumer, env });
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/install-scripts|prepare/); // npm 11: "1 package has install scripts"
    const manifest = JSON.parse(await readFile(join(consumer, 'node_modules', 'evap', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => /prepare|pack/.test(name))).toEqual([]);
    console.log(`consumer install: ${((performance.now() - began) / 1000).toFixed(1)} s, package ${(size / 1024).toFixed(0)} KiB`);
    for (const dev of ['typescript', 'tsx', 'vitest', 'swagger-ui-dist', '@scarf/scarf'])
      expect(existsSync(join(consumer, 'node_modules', dev)), dev).toBe(false);
    // no installed package has an install script (npm records hasInstallScript in the lock of what it installed)
    const lock = JSON.parse(await readFile(join(consumer, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    expect(Object.keys(lock.packages).length).toBeGreaterThan(5);
    expect(
      Object.entries(lock.packages)
        .filter(([, p]) => p.hasInstallScript)
        .map(([path]) => path),
    ).toEqual([]);
    const readme = await readFile(join(consumer, 'node_modules', 'evap', 'README.md'), 'utf8');
    for (const [, image] of readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) {
      if (!/^https?:/.test(image!)) expect(existsSync(join(consumer, 'node_modules', 'evap', image!)), image).toBe(true);
    }
    const npx = (args: string[], extra: NodeJS.ProcessEnv = {}) => run('npx', ['--no', '--', 'evap', ...args], { cwd: consumer, env: { ...env, ...extra } });

    const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
    expect((await npx(['--version'])).stdout).toBe(`${version}\n`);
    // the README's quick start, line by line exactly as written, in this project that depends on the tarball; its first
    // line makes demo/, which the rest of the test uses (PORT=0: the server's own environment variable, so the line
    // stays as written and no fixed port is taken)
    const quickStart = (await readFile(join(root, 'README.md'), 'utf8')).split('## Quick start')[1]!.split('```sh\n')[1]!.split('```')[0]!;
    const lines = quickStart.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) {
      if (/^npx evap serve /.test(line)) {
        const shell = spawn('sh', ['-c', `exec ${line}`], { cwd: consumer, env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
        const ready = await new Promise<string>((ok, fail) => {
          let out = '';
          shell.stdout.on('data', (d) => {
            out += d;
            if (/api-key: \S+[\s\S]*listening on http:\/\/127\.0\.0\.1:\d+[\s\S]*explorer: http/.test(out)) ok(out); // the lines it promises
          });
          shell.on('exit', (code) => fail(new Error(`${line}: exited with ${code}: ${out}`)));
        });
        process.kill(-shell.pid!, 'SIGTERM');
        expect(ready).not.toMatch(/error/i);
        continue;
      }
      const done = await run('sh', ['-c', line], { cwd: consumer, env });
      if (line.startsWith('npx evap demo ')) expect(existsSync(join(consumer, 'demo', 'manifest.json'))).toBe(true);
      else expect(done.stdout.length, line).toBeGreaterThan(0);
      if (line.includes('--interval monthly')) expect(done.stdout.split('\n')[0]).toContain('E_volume (acre-ft)');
    }

    const server = spawn('npx', ['--no', '--', 'evap', 'serve', '--store', 'demo', '--port', '0'], {
      cwd: consumer,
      env: { ...env, EVAP_API_KEYS: 'consumer-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    try {
      const url = await new Promise<string>((ok, fail) => {
        let out = '';
        server.stdout.on('data', (d) => {
          out += d;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) ok(match[1]!);
        });
        server.on('exit', (code) => fail(new Error(`evap serve exited with ${code}: ${out}`)));
      });
      const params = new URLSearchParams({
        RES_NAMES: 'LAKE MEAD,LAKE POWELL',
        datasets: 'nete-volume-calcs',
        variables: 'NetE,E_volume',
        start_date: '2020-01-01',
        end_date: '2020-12-31',
        output_format: 'csv',
      });
      const api = await (await fetch(`${url}/timeseries/daily/reservoirs/daterange?${params}`, { headers: { 'api-key': 'consumer-key' } })).text();
      expect(api.split('\n')).toHaveLength(2 * 366 + 2);
      const swagger = await fetch(`${url}/docs/swagger-ui-bundle.js`);
      expect([swagger.status, (await swagger.text()).length > 100_000]).toEqual([200, true]);
      const flags = [
        '--names',
        'LAKE MEAD,LAKE POWELL',
        '--datasets',
        'nete-volume-calcs',
        '--variables',
        'NetE,E_volume',
        '--start',
        '2020-01-01',
        '--end',
        '2020-12-31',
      ];
      expect((await npx(['query', '--store', 'demo', ...flags])).stdout).toBe(api);
      expect((await npx(['query', '--from', url, '--api-key', 'consumer-key', ...flags])).stdout).toBe(api);
    } finally {
      process.kill(-server.pid!, 'SIGTERM'); // npx runs evap under a shell of its own: stop the whole group
    }

    // as a service runs it: `exec node_modules/.bin/evap serve`, stopped by SIGTERM to that one process, exits 0
    const service = spawn('sh', ['-c', 'exec node_modules/.bin/evap serve --store demo --port 0'], {
      cwd: consumer,
      env: { ...env, EVAP_API_KEYS: 'consumer-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stopped = new Promise<number | null>((done) => service.on('exit', (code) => done(code)));
    await new Promise<void>((ok) => {
      let out = '';
      service.stdout.on('data', (d) => {
        out += d;
        if (out.includes('listening on')) ok();
      });
    });
    service.kill('SIGTERM');
    expect(await stopped).toBe(0);

    // openStore() with no folder: the package has no data/, so the demo store is made in the cache on first use
    const script =
      "import { openStore } from 'evap'; const s = await openStore(); console.log(s.root, (await s.reservoirTimeseries({ names: ['LAKE MEAD'] })).length); await s.close();";
    const first = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, env });
    expect(first.stdout).toBe(`${join(dir, 'cache', 'evap', `demo-${version}`)} 31\n`);
    expect(first.stderr).toContain('making the demo store');
    const blocked = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: consumer,
      env: { ...env, EVAP_DEMO_DIR: join(consumer, 'package.json', 'demo') },
    }).catch((e: { stderr: string }) => e);
    expect(blocked.stderr).toContain('npx evap demo --out DIR');
    // the writer is its own entry: evap/write gives it, and evap no longer does (0.2.0)
    const entries = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const w = await import('evap/write'); const e = await import('evap'); console.log(typeof w.createStoreWriter, typeof w.tableToParquet, typeof e.createStoreWriter);",
      ],
      { cwd: consumer, env },
    );
    expect(entries.stdout).toBe('function function undefined\n');
  });
});
