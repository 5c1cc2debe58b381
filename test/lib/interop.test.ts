// The store is plain Hive-partitioned Parquet: another engine (DuckDB) reads the same values the library serves.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/store.js';

describe('the store files', () => {
  it('are read by DuckDB as Hive-partitioned Parquet with the same values', async () => {
    const store = await openStore();
    const root = store.root.replaceAll("'", "''");
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const reader = await connection.runAndReadAll(
      `select RES_NAME, strftime(date, '%Y-%m-%d') as day, NetE, E_volume
       from read_parquet('${join(root, 'reservoirs/dataset=nete-volume-calcs/year=*/*.parquet')}', hive_partitioning = true)
       where RES_NAME = 'LAKE POWELL' and date between '2020-12-30' and '2021-01-02' and year in (2020, 2021) order by day`,
    );
    const ours = await store.reservoirTimeseries({ names: ['LAKE POWELL'], datasets: ['nete-volume-calcs'], variables: ['NetE', 'E_volume'], start: '2020-12-30', end: '2021-01-02' });
    expect(reader.getRowObjectsJson()).toEqual(ours.map((r) => ({ RES_NAME: r.RES_NAME, day: r.start_date, NetE: r['NetE (mm)'], E_volume: r['E_volume (m3)'] })));
    const stations = await connection.runAndReadAll(
      `select station, count(*) as n from read_parquet('${join(root, 'stations/station=*/*.parquet')}', hive_partitioning = true, union_by_name = true) group by station order by station`,
    );
    const expected = Object.entries(store.manifest.stations.partitions).filter(([, p]) => p.rows > 0).map(([name, p]) => ({ station: name, n: String(p.rows) }));
    expect(stations.getRowObjectsJson()).toEqual(expected);
    connection.closeSync();
  });
});
