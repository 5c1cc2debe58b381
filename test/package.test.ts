// package.json keeps its promises: exact versions, Node 20, the documented scripts, no unused dependency.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCommands } from '../scripts/checks.js';

const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

// the explorer page's sources are bundled at build time (dist/explorer): their packages are not imported at run time
const bundled = join(root, 'server', 'explorer');

async function sources(dir: string): Promise<string> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.parentPath.startsWith(bundled)).map((e) => join(e.parentPath, e.name));
  return (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
}

describe('package.json', () => {
  it('pins every dependency to an exact version', () => {
    for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      expect(version, name).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    }
  });

  it('runs on Node 20 and has the scripts the README documents', () => {
    expect(pkg.engines.node).toBe('>=20');
    for (const script of ['start', 'test', 'generate', 'bench', 'soak', 'typecheck', 'lint', 'format']) expect(pkg.scripts[script], script).toBeTruthy();
    // npm test runs the type checks and the lint (at once, by scripts/checks.ts), then the tests
    expect(pkg.scripts.test).toMatch(/^tsx scripts\/checks\.ts && TZ=UTC vitest run$/);
    expect(checkCommands(pkg.scripts)).toEqual(['tsc --noEmit', 'tsc --noEmit -p explorer', 'biome check .']);
  });

  it('uses every runtime dependency from lib, server, cli or a script', async () => {
    const code = (await Promise.all(['lib', 'server', 'cli'].map(sources))).join('\n');
    const scripts = Object.values(pkg.scripts).join('\n');
    for (const name of Object.keys(pkg.dependencies)) {
      const used = code.includes(`'${name}`) || new RegExp(`(^|[\\s&])${name} `, 'm').test(scripts);
      expect(used, `${name} is a dependency but nothing imports it`).toBe(true);
    }
  });

  it('imports nothing at run time that a consumer would not install', async () => {
    const code = (await Promise.all(['lib', 'server', 'cli'].map(sources))).join('\n');
    const imported = new Set(
      [...code.matchAll(/(?:from |import\()'([^'.][^']*)'/g)].map((m) =>
        m[1]!
          .split('/')
          .slice(0, m[1]!.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
    );
    const missing = [...imported].filter((name) => !name.startsWith('node:') && !Object.hasOwn(pkg.dependencies, name));
    expect(missing).toEqual([]);
    expect(pkg.dependencies.tsx).toBeUndefined();
  });
});
