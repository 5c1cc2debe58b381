// The date-major copy of each dataset's latest days: the same rows as the partitions (DuckDB reads both), the same
// answers on a date with and without it (before and after a revision), and no row counted twice by engines reading
// the Iceberg tables (ClickHouse) or the partition folders (DuckDB).
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { query } from 'chdb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reservoirDatasets } from '../../../lib/catalogue.js';
import { formatDay, parseDay } from '../../../lib/dates.js';
import { generateStore } from '../../../lib/model/generate.js';
import { BY_DATE_DAYS } from '../../../lib/store/by-date.js';
import { openStore } from '../../../lib/store/store.js';
import { createStoreWriter } from '../../../lib/store/write.js';
import { publishTables } from '../../../lib/tables/publish.js';
import { dropIndexes } from '../../helpers.js';
import { workDir } from '../tables/engine.js';

const options = { reservoirs: 9, stations: 1, start: '2020-12-01', end: '2021-01-20', seed: 7, rowGroupSize: 32, rowsPerFile: 256 };

async function rowsOf(sql: string): Promise<Record<string, unknown>[]> {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  connection.closeSync();
  return rows;
}

describe('date-major copy', () => {
  it('holds the partitions’ rows of the last days, by date then name, as DuckDB reads both', async () => {
    const dir = await workDir();
    const manifest = await generateStore(dir, options);
    const copy = manifest.datasets.rtma!.byDate!;
    expect(copy).toBeDefined();
    expect([copy.start, copy.end]).toEqual([formatDay(parseDay('2021-01-20', 'end') - BY_DATE_DAYS + 1), '2021-01-20']);
    const columns = ['RES_NAME', 'date', ...Object.keys(reservoirDatasets.rtma.variables)].join(', ');
    const fromCopy = await rowsOf(`select ${columns} from read_parquet('${join(dir, copy.path)}')`);
    const fromPartitions = await rowsOf(
      `select ${columns} from read_parquet('${join(dir, 'reservoirs', 'dataset=rtma', 'year=*', '*.parquet')}') where date >= DATE '${copy.start}' order by date, RES_NAME`,
    );
    expect(fromCopy.length).toBe(9 * BY_DATE_DAYS);
    expect(fromCopy).toEqual(fromPartitions); // the copy's own order is date then name
  }, 60_000);

  it('answers every reservoir on a date as the partitions do, before and after a revision', async () => {
    const dir = await workDir();
    const plain = await workDir();
    await generateStore(dir, options);
    await generateStore(plain, options);
    await dropIndexes(plain); // no copy, no index: the partitions only
    const revise = async (at: string, value: number) => {
      for (const d of [dir, plain]) {
        const store = await openStore(d);
        const rows = (await store.readReservoirPartition('nete-volume-calcs', 2021))!;
        await store.close();
        const values = { ...rows.values, NetE: rows.values.NetE!.map((v, i) => (rows.days[i] === parseDay(at, 'at') ? value : v)) };
        const writer = createStoreWriter(d, { base: (await openStore(d)).manifest, byDateDays: d === plain ? 0 : undefined });
        await writer.writeReservoirPartition('nete-volume-calcs', 2021, { ...rows, values });
        await writer.commit();
      }
    };
    const compare = async (dates: string[]) => {
      const [withCopy, without] = [await openStore(dir), await openStore(plain)];
      for (const date of dates) {
        const q = { datasets: ['rtma', 'nete-volume-calcs'], variables: ['pr', 'etr', 'NetE', 'E_volume'], date, alsoReturn: ['qflag', 'status'] };
        expect(await withCopy.reservoirTimeseriesOnDate(q), date).toEqual(await without.reservoirTimeseriesOnDate(q));
      }
      expect(withCopy.readStats().footersRead).toBe(0);
      await withCopy.close();
      await without.close();
    };
    await compare(['2021-01-20', '2021-01-07', '2021-01-06', '2020-12-31', '2021-01-13']);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 19 }), fc.double({ min: -5, max: 5, noNaN: true }), async (offset, value) => {
        const at = formatDay(parseDay('2021-01-01', 'd') + offset);
        await revise(at, Math.round(value * 1e4) / 1e4);
        await compare([at, '2021-01-20']);
      }),
      { numRuns: 3 },
    );
  }, 120_000);

  it('is no data file of the Iceberg tables: ClickHouse and DuckDB count each row once', async () => {
    const dir = await workDir();
    const manifest = await generateStore(dir, options);
    await publishTables(dir);
    const rows = manifest.datasets['nete-volume-calcs']!.partitions.reduce((n, p) => n + p.files.reduce((m, f) => m + f.rows, 0), 0);
    expect(rows).toBe(9 * 51);
    expect(manifest.datasets['nete-volume-calcs']!.byDate!.rows).toBe(9 * BY_DATE_DAYS);
    const table = join('.', dir.slice(process.cwd().length + 1), 'tables', 'reservoir_nete_volume_calcs');
    const counted = JSON.parse(query(`SELECT count() AS n, uniqExact(RES_NAME, date) AS u FROM icebergLocal('${table}')`, 'JSON')).data[0];
    expect([Number(counted.n), Number(counted.u)]).toEqual([rows, rows]);
    const [duck] = await rowsOf(`select count(*)::int as n from read_parquet('${join(dir, 'reservoirs', 'dataset=nete-volume-calcs', '*', '*.parquet')}')`);
    expect(duck!.n).toBe(rows);
  }, 60_000);
});
