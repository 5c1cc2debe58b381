// The store's files are plain Parquet: DuckDB, given the files `evap files` lists (the route for readers without
// Iceberg), reads the values the library serves, every dataset at once, one row per day.
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { listTableFiles } from '../../../lib/tables/files.js';

describe('the store files', () => {
  it('listed by listTableFiles are read by DuckDB with the same values as the library', async () => {
    const store = await openStore();
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const list = async (table: string) => `[${(await listTableFiles(store.root, { table })).map((f) => `'${f.path.replaceAll("'", "''")}'`).join(', ')}]`;
    const reader = await connection.runAndReadAll(
      `select n.RES_NAME, strftime(n.date, '%Y-%m-%d') as day, NetE, E_volume, pr, depth_m
       from read_parquet(${await list('reservoir_nete_volume_calcs')}) n
       join read_parquet(${await list('reservoir_rtma')}) r using (RES_NAME, date)
       join read_parquet(${await list('reservoir_res')}) s using (RES_NAME, date)
       where n.RES_NAME = 'LAKE POWELL' and n.date between '2020-12-30' and '2021-01-02'
       order by day`,
    );
    const ours = await store.reservoirTimeseries({
      names: ['LAKE POWELL'],
      variables: ['NetE', 'E_volume', 'pr', 'depth_m'],
      start: '2020-12-30',
      end: '2021-01-02',
    });
    expect(reader.getRowObjectsJson()).toEqual(
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
      `select parse_path(filename, 'system')[-2] as folder, count(*) as n from read_parquet(${await list('station_timeseries')}, filename = true, union_by_name = true) group by folder order by folder`,
    );
    const expected = Object.values(store.manifest.stations.partitions)
      .filter((p) => p.rows > 0)
      .map((p) => ({ folder: p.path.split('/').at(-2), n: String(p.rows) }))
      .sort((a, b) => (a.folder! < b.folder! ? -1 : 1));
    expect(stations.getRowObjectsJson()).toEqual(expected);
    connection.closeSync();
    await store.close();
  });
});
