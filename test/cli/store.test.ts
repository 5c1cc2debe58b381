// evap demo, generate, vacuum and mirror's timeout, as a user runs them.
import { createServer } from 'node:http';
import { cp, readFile, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/store/store.js';
import { tempDir, writeSmallStore } from '../helpers.js';
import { evap } from './harness.js';

describe('evap demo and evap generate', () => {
  it('writes the demo store, and refuses to overwrite it without --force', async () => {
    const out = join(await tempDir(), 'demo');
    const made = await evap(['demo', '--out', out]);
    expect(made.code, made.stderr).toBe(0);
    const store = await openStore(out);
    expect(store.manifest.reservoirs.names).toHaveLength(67);
    expect(store.manifest.reservoirs.names).toEqual(expect.arrayContaining(['LAKE MEAD', 'LAKE POWELL', 'LAKE ALICE']));
    expect(store.listStationDates()).toEqual([{ start_date: expect.stringMatching(/^2010-/), end_date: '2021-12-31' }]);
    await store.close();
    const again = await evap(['demo', '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already holds a store; pass --force');
    expect((await evap(['demo', '--out', out, '--if-missing'])).code).toBe(0);
    expect((await evap(['demo'])).stderr).toContain('--out is required');
  });

  it('generates a store of the size asked', async () => {
    const out = join(await tempDir(), 'gen');
    const run = await evap(['generate', '--out', out, '--reservoirs', '3', '--stations', '2', '--start', '2020-01-01', '--end', '2020-01-10', '--seed', '5']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/wrote snapshot .*: 3 reservoirs, 2 stations/);
    const store = await openStore(out);
    expect(store.listDates('res', 'stage_m')).toEqual([{ start_date: '2020-01-01', end_date: '2020-01-10' }]);
    const bad = await evap(['generate', '--out', join(out, 'other'), '--reservoirs', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--reservoirs must be a non-negative integer, got "many"');
  });
});

describe('evap vacuum', () => {
  it('removes what no snapshot needs and says how many files it kept as too recent', async () => {
    const dir = await tempDir();
    await writeSmallStore(dir);
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

describe('evap mirror', () => {
  it('gives up on a server that stops answering after --timeout-ms, naming it', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const { port } = silent.address() as { port: number };
    try {
      const run = await evap(['mirror', '--from', `http://127.0.0.1:${port}`, '--api-key', 'k', '--store', join(await tempDir(), 'm'), '--timeout-ms', '300']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`evap mirror: mirror stopped: no answer within 300 ms from http://127.0.0.1:${port}/`);
      expect(run.stderr).not.toContain('usage');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('asks for what is missing', async () => {
    const run = await evap(['mirror', '--from', 'http://127.0.0.1:9', '--store', 'x'], { EVAP_API_KEY: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--api-key (or EVAP_API_KEY) is required');
  });
});
