// evap vacuum: what no snapshot needs is removed (or listed with --dry-run), a killed writer's recent files are kept.
import { cp, readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { copySmallStore, tempDir } from '../../helpers.js';
import { evap } from '../harness.js';

describe('evap vacuum', () => {
  it('removes what no snapshot needs and says how many files it kept as too recent', async () => {
    const dir = await tempDir();
    await copySmallStore(dir);
    const store = await openStore(dir);
    const [file] = store.manifest.stations.names.map((n) => store.manifest.stations.partitions[n]!.path);
    await store.close();
    // two leftovers no snapshot names, as a killed writer leaves them: one old, one just written
    const old = file!.replace(/part-[^/]*\.parquet$/, 'part-killed-old.parquet');
    const young = file!.replace(/part-[^/]*\.parquet$/, 'part-killed-young.parquet');
    await cp(join(dir, file!), join(dir, old));
    await cp(join(dir, file!), join(dir, young));
    const hourAgo = new Date(Date.now() - 3600_000);
    await utimes(join(dir, old), hourAgo, hourAgo);
    const dry = await evap(['vacuum', '--store', dir, '--dry-run']);
    expect(dry.stdout).toContain(`would remove ${old}\n`);
    expect(dry.stdout).toMatch(/1 files, .* MiB to free; 0 earlier snapshots kept .*; 1 unpublished files kept as too recent/);
    const run = await evap(['vacuum', '--store', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`removed ${old}\n`);
    await expect(readFile(join(dir, old))).rejects.toThrow(/ENOENT/);
    expect((await readFile(join(dir, young))).length).toBeGreaterThan(0);
    const none = await evap(['vacuum', '--store', join(dir, 'nowhere')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^evap vacuum: no store at .*nowhere: manifest.json is missing\n$/);
  });
});
