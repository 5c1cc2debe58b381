import { readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExclusive, resolveInside } from '../../../lib/store/disk.js';
import { openStore } from '../../../lib/store/store.js';
import { createStoreWriter } from '../../../lib/store/write.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

describe('createExclusive', () => {
  it('lets exactly one of many concurrent creators have a path, and the file is whole', async () => {
    const dir = await tempDir();
    const texts = Array.from({ length: 32 }, (_, i) => `writer ${i} `.repeat(10_000));
    const won = await Promise.all(texts.map((t) => createExclusive(dir, 'snapshots/0000000001.json', t)));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await readFile(join(dir, 'snapshots/0000000001.json'), 'utf8')).toBe(texts[won.indexOf(true)]);
  });
});

describe('resolveInside', () => {
  it('refuses paths that leave the store folder', () => {
    for (const path of ['../x', 'a/../../x', 'a/../..', '']) expect(() => resolveInside('/store', path)).toThrow(/outside the store/);
    expect(resolveInside('/store', 'a/b.parquet')).toBe('/store/a/b.parquet');
  });
});

describe('withLock', () => {
  it('takes over a lock older than a commit could ever hold it, even if its pid is alive again', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const lock = join(dir, 'manifest.json.lock');
    await writeFile(lock, String(process.pid)); // a live pid: as if the dead writer's pid had been reused
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const store = await openStore(dir);
    const writer = createStoreWriter(dir, { base: store.manifest });
    await expect(writer.commit()).resolves.toMatchObject({ snapshot: writer.snapshot });
  });
});
