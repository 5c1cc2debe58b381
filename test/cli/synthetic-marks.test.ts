// Synthetic numbers say so wherever they go from the CLI: a note on stderr after the answer of any synthetic store
// (not only the default demo store) or server (read from its X-Evap-Data header), none for other data; a Parquet file
// carries the provenance in its key-value metadata, read back here by DuckDB, an independent reader.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { copySmallStore, tempDir, writeTinyStore } from '../helpers.js';
import { startTestServer } from '../server/harness.js';
import { evap, evapProcess, root } from './harness.js';

const syntheticDir = await tempDir();
await copySmallStore(syntheticDir); // the seeded generator, as the demo store is made
const plainDir = await tempDir();
await writeTinyStore(plainDir); // written by hand: no provenance, not synthetic
const syntheticServer = await startTestServer({ store: await openStore(syntheticDir) });
const plainServer = await startTestServer({ store: await openStore(plainDir) });
afterAll(async () => {
  await syntheticServer.close();
  await plainServer.close();
});

const range = ['--start', '2020-12-30', '--end', '2021-01-02'];
const note = /SYNTHETIC values \(real names, made-up numbers\), not OperEvap data/;

describe('the synthetic note on stderr', () => {
  it('follows the answer of a synthetic --store written to a file, and of a synthetic --from server; not of other data', async () => {
    const folder = await tempDir();
    const [store, server, plain, plainServed] = await Promise.all([
      evap(['query', '--store', syntheticDir, ...range, '--names', 'ALL', '--out', join(folder, 'a.csv')]),
      evap(['query', '--from', syntheticServer.url, '--api-key', syntheticServer.key, ...range, '--names', 'ALL', '--out', join(folder, 'b.json')]),
      evap(['query', '--store', plainDir, ...range, '--names', 'ALPHA LAKE', '--out', join(folder, 'c.csv')]),
      evap(['query', '--from', plainServer.url, '--api-key', plainServer.key, ...range, '--names', 'ALPHA LAKE', '--format', 'json']),
    ]);
    expect([store.code, server.code, plain.code, plainServed.code]).toEqual([0, 0, 0, 0]);
    expect(store.stderr).toMatch(note);
    expect(store.stderr).toContain(`--store ${syntheticDir}`); // names the store, and the command that says more
    expect(server.stderr).toMatch(note);
    expect(server.stderr).toContain(`the server at ${syntheticServer.url}`);
    expect((await readFile(join(folder, 'b.json'), 'utf8')).startsWith('[{')).toBe(true); // the file is the wire's JSON, unmarked
    expect(plain.stderr).toBe('');
    expect(plainServed.stderr).toBe('');
  });

  it('is said once by evap info, whose summary names the data itself, and after an info topic', async () => {
    const [summary, topic] = await Promise.all([evap(['info', '--store', syntheticDir]), evap(['info', 'datasets', '--store', syntheticDir])]);
    expect([summary.code, topic.code]).toEqual([0, 0]);
    expect(summary.stderr.match(/SYNTHETIC/g)).toHaveLength(1);
    expect(summary.stderr).toMatch(/^data: SYNTHETIC DATA/m);
    expect(topic.stderr).toMatch(note);
  });

  it('is said by the real CLI on a saved CSV of the demo store named with --store', async () => {
    const out = join(await tempDir(), 'mead.csv');
    const run = await evapProcess(['query', '--store', join(root, 'data'), '--names', 'LAKE MEAD', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(note);
    expect((await readFile(out, 'utf8')).split('\n')[0]).toMatch(/^RES_NAME,start_date,end_date,/); // the CSV itself stays the wire's
  });
});

describe('Parquet files written by the CLI', () => {
  it('carry evap.synthetic and the provenance in their key-value metadata, forecasts included', async () => {
    const folder = await tempDir();
    const files = { forecast: join(folder, 'forecast.parquet'), list: join(folder, 'list.parquet'), plain: join(folder, 'plain.parquet') };
    const runs = await Promise.all([
      evap(['forecast', '--store', join(root, 'data'), '--names', 'LAKE MEAD', '--leads', '1-3', '--out', files.forecast]),
      evap(['forecast', '--store', join(root, 'data'), '--list', '--out', files.list]),
      evap(['query', '--store', plainDir, ...range, '--names', 'ALPHA LAKE', '--out', files.plain]),
    ]);
    expect(runs.map((r) => [r.code, r.stderr.includes('evap query:') || r.stderr.includes('evap forecast:')])).toEqual([
      [0, false],
      [0, false],
      [0, false],
    ]);
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const kv = async (file: string) =>
      Object.fromEntries(
        (await duck.runAndReadAll(`select decode(key) as k, decode(value) as v from parquet_kv_metadata('${file}')`))
          .getRowObjectsJson()
          .map((r) => [r.k, r.v]),
      );
    for (const file of [files.forecast, files.list]) {
      const meta = await kv(file);
      expect([file, meta['evap.synthetic'], meta['evap.data'], meta['evap.source']]).toEqual([file, 'true', 'synthetic', 'synthetic, seeded model']);
    }
    const plain = await kv(files.plain);
    expect([plain['evap.synthetic'], plain['evap.data']]).toEqual(['false', 'unknown']);
    duck.closeSync();
  });
});
