// Where the demo store is looked for, against the package folder as this test file finds it and the environment given.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/errors.js';
import { DEMO_COMMAND, defaultStoreDir, demoCacheDir, findDemoStore, packageRoot, packageVersion } from '../../../lib/synthetic/demo.js';
import { tempDir } from '../../helpers.js';

const root = resolve(import.meta.dirname, '../../..');
const saved = { EVAP_DEMO_DIR: process.env.EVAP_DEMO_DIR, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('packageRoot and packageVersion', () => {
  it("are the folder holding this package's package.json and its version", async () => {
    expect(packageRoot()).toBe(root);
    expect(packageVersion()).toBe(JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version);
  });
});

describe('demoCacheDir', () => {
  it('is EVAP_DEMO_DIR, else the XDG cache folder, else ~/.cache, with the version in the name', () => {
    process.env.EVAP_DEMO_DIR = '/somewhere/demo';
    expect(demoCacheDir()).toBe('/somewhere/demo');
    delete process.env.EVAP_DEMO_DIR;
    process.env.XDG_CACHE_HOME = '/cache';
    expect(demoCacheDir()).toBe(`/cache/evap/demo-${packageVersion()}`);
    process.env.XDG_CACHE_HOME = '';
    expect(demoCacheDir()).toBe(join(homedir(), '.cache', 'evap', `demo-${packageVersion()}`));
  });
});

describe('findDemoStore and defaultStoreDir', () => {
  it("take the package's data/ when it holds a store, else a cache folder that does, else refuse naming the command", async () => {
    const hasData = await readFile(join(root, 'data', 'manifest.json')).then(
      () => true,
      () => false,
    );
    const cache = join(await tempDir(), 'demo');
    process.env.EVAP_DEMO_DIR = cache;
    if (!hasData) {
      expect(findDemoStore()).toBeUndefined();
      expect(() => defaultStoreDir()).toThrow(StoreError);
      expect(() => defaultStoreDir()).toThrow(DEMO_COMMAND);
    }
    await mkdir(cache, { recursive: true });
    await writeFile(join(cache, 'manifest.json'), '{}');
    // a clone after npm ci has data/, which wins over the cache; a package installed without it uses the cache
    const expected = hasData ? join(root, 'data') : cache;
    expect([findDemoStore(), defaultStoreDir()]).toEqual([expected, expected]);
  });
});
