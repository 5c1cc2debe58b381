// docs/deploying.md's DuckDB query, run as written but for the bucket's URL (httpfs cannot be downloaded here): over a
// store holding replaced files not yet vacuumed, it reads exactly the served snapshot's values.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../lib/format/csv.js';
import { ingest, textSource } from '../../lib/ingest/ingest.js';
import { openStore } from '../../lib/open/store.js';
import { copyStore } from '../../lib/sync/copy.js';
import { defaultStoreDir } from '../../lib/synthetic/demo.js';
import { tempDir } from '../helpers.js';

const doc = await readFile(join(import.meta.dirname, '../../docs/deploying.md'), 'utf8');
const sql = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).find((s) => s.includes('SET VARIABLE'))!;

describe('docs/deploying.md', () => {
  it('reads exactly the served snapshot with the DuckDB query, where a glob would count replaced rows twice', async () => {
    const dir = join(await tempDir(), 'store');
    await copyStore(defaultStoreDir(), dir);
    const before = await openStore(dir);
    const ask = { names: ['LAKE MEAD'], datasets: ['nete-volume-calcs'], variables: ['NetE', 'E_volume'], start: '2020-01-01', end: '2020-12-31' };
    const revised = (await before.reservoirTimeseries(ask)).map((r) => ({ ...r, 'NetE (mm)': 7.5 }));
    await before.close();
    await ingest(dir, [textSource('revision.csv', recordsToCsv(revised, Object.keys(revised[0]!)))]); // the replaced files stay until vacuum
    const store = await openStore(dir);
    const expected = (await store.reservoirTimeseries(ask)).map((r) => ({
      RES_NAME: r.RES_NAME,
      day: r.start_date,
      NetE: r['NetE (mm)'],
      E_volume: r['E_volume (m3)'],
    }));
    await store.close();

    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const [setFiles, select] = sql
      .replaceAll('s3://evap-data/store', dir.replaceAll("'", "''"))
      .split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    await connection.run(setFiles!);
    const rows = (
      await connection.runAndReadAll(
        `select RES_NAME, strftime(date, '%Y-%m-%d') as day, NetE, E_volume from (${select!.replace(/ORDER BY date$/, '')}) order by date`,
      )
    ).getRowObjectsJson();
    expect(rows).toEqual(expected);
    expect(rows.every((r) => r.NetE === 7.5)).toBe(true);
    const glob = await connection.runAndReadAll(
      `select count(*) as n from read_parquet('${dir}/reservoirs/dataset=nete-volume-calcs/year=2020/*.parquet') where RES_NAME = 'LAKE MEAD'`,
    );
    expect(Number(glob.getRowObjectsJson()[0]!.n)).toBe(2 * expected.length);
    connection.closeSync();
  });
});
