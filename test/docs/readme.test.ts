// The README's promises: its unit table is the catalogue's, and its library example runs as written.
import { execFile, spawn } from 'node:child_process';
import { access, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { reservoirVariables, stationVariables, units } from '../../lib/catalogue.js';
import { evap as evapInProcess } from '../cli/harness.js';

const root = join(import.meta.dirname, '..', '..');
const readme = await readFile(join(root, 'README.md'), 'utf8');
const unitsPage = await readFile(join(root, 'docs', 'units.md'), 'utf8');

describe('README.md and docs/', () => {
  it('names only source, test and bench files that exist (README.md and every page of docs/)', async () => {
    const pages = [
      readme,
      ...(await Promise.all((await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => readFile(join(root, 'docs', f), 'utf8')))),
    ];
    const paths = new Set(
      pages.flatMap((page) => [...page.matchAll(/(?<![\w/.-])((?:lib|server|cli|test|bench|scripts)\/[\w/-]+\.(?:ts|md))/g)].map((m) => m[1]!)),
    );
    expect(paths.size).toBeGreaterThan(20);
    const missing = [];
    for (const path of paths)
      if (
        !(await access(join(root, path)).then(
          () => true,
          () => false,
        ))
      )
        missing.push(path);
    expect(missing).toEqual([]);
  });

  it('names in its layout table only files that exist, each in a folder of its row', async () => {
    const table = readme.split('| folder | what it holds |')[1]!.split('\n\n')[0]!;
    const rows = table
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('| `'));
    const exists = (path: string) =>
      access(join(root, path)).then(
        () => true,
        () => false,
      );
    let named = 0;
    for (const row of rows) {
      const [folders, holds] = row.split('|').slice(1, 3) as [string, string];
      const dirs = [...folders.matchAll(/`([a-z/]+)\/`/g)].map((m) => m[1]!);
      for (const [, file] of holds.matchAll(/`([a-z-]+\.ts)`/g)) {
        const found = await Promise.all(dirs.map((dir) => exists(join(dir, file!))));
        expect(found.some(Boolean), `${file} in ${dirs.join(' or ')}`).toBe(true);
        named++;
      }
    }
    expect(named).toBeGreaterThan(40);
  });

  it('shows the unit table of the catalogue (docs/units.md)', () => {
    const table = unitsPage.split('<!-- units:start -->')[1]!.split('<!-- units:end -->')[0]!;
    const rows = table
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| variable'))
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    const expected = [
      ...reservoirVariables.map((v) => [v.name, v.dataset, v.spec.description, units[v.spec.unit].metric, units[v.spec.unit].english]),
      ...Object.entries(stationVariables).map(([n, s]) => [n, 'stations', s.description, units[s.unit].metric, units[s.unit].english]),
    ];
    expect(rows).toEqual(expected);
  });

  it('shows the units of the metadata attributes (docs/units.md) as /openapi.json gives them', async () => {
    const table = unitsPage.split('<!-- attributes:start -->')[1]!.split('<!-- attributes:end -->')[0]!;
    const shown = Object.fromEntries(
      table
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| attribute'))
        .map((l) => l.split('|').map((c) => c.trim()))
        .map(([, name, , unit]) => [name!, unit!]),
    );
    expect(shown).toMatchObject({ Shape_Area: 'm2', ELEV_M: 'm', MAX_DEPTH_M: 'm', CAPACITY_M3: 'm3', STATE: '' });
    const { buildOpenApi } = await import('../../server/openapi.js');
    const { routes } = await import('../../server/routes.js');
    const schemas = (buildOpenApi(routes) as { components: { schemas: Record<string, { properties: Record<string, { 'x-unit'?: string }> }> } }).components
      .schemas;
    for (const schema of [schemas.ReservoirMetadata!, schemas.StationMetadata!])
      for (const [name, property] of Object.entries(schema.properties)) expect([name, property['x-unit'] ?? '']).toEqual([name, shown[name]]);
  });

  it('runs the library example as written, with the output it shows', async () => {
    const code = readme.split('```js\n')[1]!.split('```')[0]!;
    const shown = code.split('\n').find((l) => l.startsWith('// 366'))!;
    const script = join(root, `readme-example-${process.pid}.mjs`); // inside the package, so `import 'evap'` resolves to it
    await writeFile(script, code);
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: root });
      expect(`// ${stdout.trim()}`).toBe(shown);
    } finally {
      await rm(script, { force: true });
    }
  });
});

describe('README.md set-up', () => {
  it('answers its curl example from npm start', async () => {
    const setup = readme.split('## Set-up')[1]!.split('```sh\n')[1]!.split('```')[0]!;
    const url = /curl -H "api-key: \$KEY" "(http:\/\/127\.0\.0\.1:8080[^"]+)"/.exec(setup)![1]!;
    const start = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).scripts.start as string;
    const [exec, command, ...args] = start.split(' ');
    expect([exec, command]).toEqual(['exec', 'node']); // npm start runs the build, with no loader, as npm's child (exec: signals reach it)
    const server = spawn(process.execPath, args, { cwd: root, env: { ...process.env, PORT: '0', EVAP_API_KEYS: 'readme-key' } });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        server.on('exit', (code) => reject(new Error(`npm start exited with ${code}`)));
      });
      const response = await fetch(url.replace('http://127.0.0.1:8080', base), { headers: { 'api-key': 'readme-key' } });
      expect(response.status).toBe(200);
      const records = (await response.json()) as Record<string, unknown>[];
      expect(records).toHaveLength(31);
      expect(Object.keys(records[0]!)).toEqual(['RES_NAME', 'start_date', 'end_date', 'NetE (mm)', 'E_volume (m3)']);
    } finally {
      server.kill('SIGTERM');
    }
  });
});

describe('README.md quick start', () => {
  it('runs its query and info lines on the demo store, as written but for the store folder', async () => {
    const block = readme.split('## Quick start')[1]!.split('```sh\n')[1]!.split('```')[0]!;
    const line = (command: string) =>
      block
        .split('\n')
        .find((l) => l.startsWith(`npx evap ${command} `))!
        .replace(/\s+#.*$/, '');
    const argv = (text: string) =>
      [...text.matchAll(/"([^"]*)"|(\S+)/g)]
        .map((m) => m[1] ?? m[2]!)
        .slice(2)
        .map((a) => (a === 'demo' ? 'data' : a));
    const evap = async (args: string[]) => {
      const run = await evapInProcess(args);
      expect(run.code, run.stderr).toBe(0);
      return run;
    };
    const query = await evap(argv(line('query')));
    const rows = query.stdout.trimEnd().split('\n');
    expect(rows[0]).toBe('RES_NAME,start_date,end_date,NetE (mm),E_volume (m3)');
    expect(rows).toHaveLength(1 + 2 * 366);
    const monthlyLine = block.split('\n').find((l) => l.startsWith('npx evap query ') && l.includes('--interval monthly'))!;
    const monthly = (await evap(argv(monthlyLine))).stdout.trimEnd().split('\n');
    expect(monthly[0]).toBe('RES_NAME,start_date,end_date,n_days,n_qflag_M,n_qflag_S,n_qflag_R,E_volume (acre-ft),E_volume (acre-ft) n');
    expect(monthly.slice(1).map((r) => r.split(',').slice(0, 4).join(','))).toEqual(
      Array.from(
        { length: 12 },
        (_, m) =>
          `LAKE MEAD,2020-${String(m + 1).padStart(2, '0')}-01,2020-${String(m + 1).padStart(2, '0')}-${new Date(Date.UTC(2020, m + 1, 0)).getUTCDate()},${new Date(Date.UTC(2020, m + 1, 0)).getUTCDate()}`,
      ),
    );
    const info = await evap(argv(line('info')));
    expect(info.stdout).toMatch(/^nete-volume-calcs,67,2019-01-01,2021-12-31,NetE E_volume NetE_volume$/m);
  });
});
