import { link, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { createExclusive, folderStorage, resolveInside } from '../../../lib/store/disk.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
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

describe("a folder's write", () => {
  it('replaces a file already there by a new one, leaving a hard-linked copy of the old one as it was', async () => {
    const [dir, copy] = [await tempDir(), await tempDir()];
    const storage = folderStorage(dir);
    await storage.write('tables/snap-2.avro', 'the first publication');
    await link(join(dir, 'tables/snap-2.avro'), join(copy, 'snap-2.avro')); // a copy made with cp -al
    await storage.write('tables/snap-2.avro', 'the second, longer, publication');
    expect(await readFile(join(dir, 'tables/snap-2.avro'), 'utf8')).toBe('the second, longer, publication');
    expect(await readFile(join(copy, 'snap-2.avro'), 'utf8')).toBe('the first publication');
    expect(await readdir(join(dir, 'tables'))).toEqual(['snap-2.avro']); // no temporary left beside it
  });

  it('reads the new file after writing over one it had read', async () => {
    const storage = folderStorage(await tempDir());
    await storage.write('a.json', 'old');
    expect(new TextDecoder().decode(await storage.read('a.json', 0, 3))).toBe('old'); // its handle is now kept open
    await storage.write('a.json', 'new!');
    expect(new TextDecoder().decode(await storage.read('a.json', 0, 4))).toBe('new!');
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
