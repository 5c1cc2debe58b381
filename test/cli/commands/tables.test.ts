// evap tables, evap files, and evap verify bringing the tables level, run as a user runs them.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { readCurrentManifest } from '../../../lib/store/history.js';
import { writeTinyStore } from '../../helpers.js';
import { clickhouseRows, libraryTables, workDir } from '../../lib/tables/engine.js';
import { evap } from '../harness.js';

describe('evap tables and evap files', () => {
  it('publish the tables of a store that has none, and list the files engines without Iceberg should read', async () => {
    const dir = `${await workDir()}/store`;
    await writeTinyStore(dir);
    await rm(join(dir, 'tables'), { recursive: true });
    const tables = await evap(['tables', '--store', dir]);
    expect(tables.code, tables.stderr).toBe(0);
    expect(tables.stdout).toMatch(/^tables level with snapshot 1: reservoir_rtma, .*station_metadata, reservoir_forecasts, reservoir_forecast_totals updated/);
    const store = await openStore(dir);
    for (const [table, rows] of await libraryTables(store)) expect(clickhouseRows(dir, table), table).toEqual(rows);
    await store.close();

    const manifest = (await readCurrentManifest(dir))!;
    const files = await evap(['files', '--store', dir, '--table', 'station_timeseries']);
    expect(files.stdout).toBe(`${join(dir, manifest.stations.partitions.ALPHA_STATION!.path)}\n`);
    const json = await evap(['files', '--store', dir, '--json', '--as-of', manifest.created]);
    const listed = JSON.parse(json.stdout) as { table: string; rows: number }[];
    expect(listed.filter((f) => f.table === 'reservoir_nete_volume_calcs').reduce((n, f) => n + f.rows, 0)).toBe(8);
    const unknown = await evap(['files', '--store', dir, '--table', 'lakes']);
    expect(unknown.code).toBe(2); // a refused flag value
    expect(unknown.stderr).toMatch(/unknown table "lakes"; the tables are reservoir_rtma/);
  });

  it('evap verify brings tables left behind level', async () => {
    const dir = `${await workDir()}/store`;
    await writeTinyStore(dir);
    await rm(join(dir, 'tables'), { recursive: true });
    const run = await evap(['verify', '--store', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/tables brought level with snapshot 1/);
    expect(clickhouseRows(dir, 'station_timeseries').map((r) => r.ATemp)).toEqual([0, 1, 2, 3]);
  });
});
