// The store is plain Hive-partitioned Parquet: DuckDB, given the docs' own line (docs/store.md), reads the values the library serves.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/store/store.js';

describe('the store files', () => {
  it('are read by DuckDB with the line of docs/store.md, every dataset at once, with the same values', async () => {
    const readme = await readFile(join(import.meta.dirname, '../../../docs/store.md'), 'utf8');
    const line = readme.match(/`(select \* from read_parquet\('data\/reservoirs\/[^`]+)`/)![1]!;
    const store = await openStore();
    const root = store.root.replaceAll("'", "''");
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const reader = await connection.runAndReadAll(
      `select RES_NAME, strftime(date, '%Y-%m-%d') as day, NetE, E_volume, pr, depth_m
       from (${line.replace("'data/", `'${root}/`)})
       where RES_NAME = 'LAKE POWELL' and date between '2020-12-30' and '2021-01-02' and year in (2020, 2021)
       order by day, dataset`,
    );
    const ours = await store.reservoirTimeseries({
      names: ['LAKE POWELL'],
      variables: ['NetE', 'E_volume', 'pr', 'depth_m'],
      start: '2020-12-30',
      end: '2021-01-02',
    });
    // DuckDB gives one row per dataset and day (null where the dataset lacks the column); fold them into one per day
    const folded = new Map<string, Record<string, unknown>>();
    for (const row of reader.getRowObjectsJson()) {
      const day = folded.get(row.day as string) ?? { RES_NAME: row.RES_NAME, day: row.day };
      for (const key of ['NetE', 'E_volume', 'pr', 'depth_m']) if (row[key] !== null) day[key] = row[key];
      folded.set(row.day as string, day);
    }
    expect([...folded.values()]).toEqual(
      ours.map((r) => ({
        RES_NAME: r.RES_NAME,
        day: r.start_date,
        NetE: r['NetE (mm)'],
        E_volume: r['E_volume (m3)'],
        pr: r['pr (mm)'],
        depth_m: r['depth_m (m)'],
      })),
    );
    const stations = await connection.runAndReadAll(
      `select station, count(*) as n from read_parquet('${join(root, 'stations/station=*/*.parquet')}', hive_partitioning = true, union_by_name = true) group by station order by station`,
    );
    const expected = Object.entries(store.manifest.stations.partitions)
      .filter(([, p]) => p.rows > 0)
      .map(([name, p]) => ({ station: name, n: String(p.rows) }));
    expect(stations.getRowObjectsJson()).toEqual(expected);
    connection.closeSync();
  });
});
