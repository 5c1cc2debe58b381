// The write side's readback: whole files read back into rows against DuckDB reading the same Parquet files (several row
// groups, gaps, a column a file lacks), concatenation and sorting against plain array code over random rows, and the
// current snapshot's rows and metadata against what the writer took, its files kept from vacuum until it is closed.

import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { openStorage } from '../../../lib/store/location.js';
import { createReaderCaches, PartitionReader } from '../../../lib/store/partitions.js';
import {
  concatRows,
  openReadback,
  readFileRows,
  readMetadataRows,
  readReservoirFiles,
  readReservoirPartition,
  readStationPartition,
  sortRows,
} from '../../../lib/store/readback.js';
import { vacuumStore } from '../../../lib/writer/vacuum.js';
import { createStoreWriter, type ReservoirRows } from '../../../lib/writer/write.js';
import { day, tempDir, tinyReservoirs, tinyStations, writeTinyStore } from '../../helpers.js';

const plainValues = (column: ArrayLike<number>) => Array.from(column, (v) => (Number.isNaN(v) ? null : v));

describe('readFileRows', () => {
  it('gives every row of every row group as DuckDB reads them, NaN for a gap and for a column the file lacks', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir, 2); // row groups of 2 rows
    const store = await openStore(dir);
    const reader = new PartitionReader(openStorage(dir), createReaderCaches(0, 0));
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const files = [...store.manifest.datasets['nete-volume-calcs']!.partitions.flatMap((p) => p.files), store.manifest.stations.partitions.ALPHA_STATION!];
    for (const file of files) {
      const station = file.path.startsWith('stations/');
      const variables = station ? ['ATemp'] : ['NetE', 'E_volume'];
      const expected = (
        await duck.runAndReadAll(
          `select ${station ? '' : 'RES_NAME, '}datediff('day', DATE '1970-01-01', date)::int as d, ${variables.join(', ')} from read_parquet('${join(dir, file.path)}')`,
        )
      ).getRowObjectsJS();
      const rows = await readFileRows({ manifest: store.manifest, reader }, file, station ? undefined : 'RES_NAME', [...variables, 'Tw']);
      expect(rows.names).toEqual(station ? [] : expected.map((r) => r.RES_NAME));
      expect(Array.from(rows.days)).toEqual(expected.map((r) => r.d));
      for (const v of variables) expect(plainValues(rows.values[v]!), v).toEqual(expected.map((r) => r[v]));
      expect(plainValues(rows.values.Tw!)).toEqual(expected.map(() => null));
    }
    duck.closeSync();
  });
});

const rowsArbitrary = (variables: string[]) =>
  fc
    .array(
      fc.tuple(
        fc.constantFrom('B', 'A', 'C', 'a'),
        fc.integer({ min: 18000, max: 18010 }),
        fc.array(fc.oneof(fc.double({ noNaN: true }), fc.constant(NaN)), { minLength: variables.length, maxLength: variables.length }),
      ),
      { maxLength: 15 },
    )
    .map(
      (tuples): ReservoirRows => ({
        names: tuples.map((t) => t[0]),
        days: Int32Array.from(tuples, (t) => t[1]),
        values: Object.fromEntries(variables.map((v, j) => [v, Float64Array.from(tuples, (t) => t[2][j]!)])),
      }),
    );
const asTuples = (rows: ReservoirRows, variables: string[]) => rows.names.map((n, i) => [n, rows.days[i], ...variables.map((v) => rows.values[v]![i])]);

describe('concatRows and sortRows', () => {
  const variables = ['NetE', 'Tw'];
  it('concatenate parts in the order given, as the parts laid end to end', () => {
    fc.assert(
      fc.property(fc.array(rowsArbitrary(variables), { maxLength: 4 }), (parts) => {
        const joined = concatRows(parts, variables);
        return JSON.stringify(asTuples(joined, variables)) === JSON.stringify(parts.flatMap((p) => asTuples(p, variables)));
      }),
    );
  });

  it('sort rows by name (code-unit order) then day, each row keeping its values', () => {
    fc.assert(
      fc.property(rowsArbitrary(variables), (rows) => {
        const expected = asTuples(rows, variables).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : (a[1] as number) - (b[1] as number)));
        const sorted = asTuples(sortRows(rows), variables);
        // rows equal in name and day may come in any order: compare as sorted texts too
        const key = (t: unknown[]) => `${t[0]}\u0000${t[1]}`;
        return (
          JSON.stringify(sorted.map(key)) === JSON.stringify(expected.map(key)) &&
          JSON.stringify([...sorted].map(String).sort()) === JSON.stringify([...expected].map(String).sort())
        );
      }),
    );
  });
});

describe('openReadback', () => {
  it('finds no snapshot in a folder without a store', async () => {
    expect(await openReadback(openStorage(await tempDir()))).toBeUndefined();
  });

  it('keeps the files of the snapshot it reads from vacuum until it is closed', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openReadback(openStorage(dir)))!;
    const replaced = base.manifest.stations.partitions.ALPHA_STATION!.path;
    const writer = createStoreWriter(dir, { base: base.manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: Int32Array.of(day('2021-01-01')), values: { ATemp: Float64Array.of(9) } });
    await writer.commit();
    expect((await vacuumStore(dir, { minAgeMs: 0 })).removed).not.toContain(replaced);
    expect([...(await readStationPartition(base, 'ALPHA_STATION'))!.values.ATemp!]).toEqual([0, 1, 2, 3]);
    await base.close();
    expect((await vacuumStore(dir, { minAgeMs: 0 })).removed).toContain(replaced);
  });
});

describe('readReservoirPartition', () => {
  it('gives back the rows the writer took, sorted by name then date, gaps included', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openReadback(openStorage(dir)))!;
    const rows = await readReservoirPartition(base, 'nete-volume-calcs', 2021);
    expect(rows?.names).toEqual(['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR']);
    expect([...rows!.days]).toEqual([day('2021-01-01'), day('2021-01-02'), day('2021-01-01'), day('2021-01-02')]);
    expect([...rows!.values.NetE!]).toEqual([1.2, 1.3, NaN, 2.3]);
    expect(await readReservoirPartition(base, 'nete-volume-calcs', 1999)).toBeUndefined();
    expect(await readStationPartition(base, 'NO_STATION')).toBeUndefined();
    await base.close();
  });

  it('joins files of one dataset-year split by name into one sorted set of rows', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const first = (await openReadback(openStorage(dir)))!;
    const writer = createStoreWriter(dir, { base: first.manifest, rowsPerFile: 2 }); // one name per file
    await first.close();
    const names = ['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR'];
    const days = Int32Array.from([0, 1, 0, 1], (i) => day('2021-01-01') + i);
    await writer.writeReservoirPartition('nete-volume-calcs', 2021, { names, days, values: { NetE: Float64Array.of(1, 2, 3, 4) } });
    await writer.commit();
    const base = (await openReadback(openStorage(dir)))!;
    const files = base.manifest.datasets['nete-volume-calcs']!.partitions.find((p) => p.year === 2021)!.files;
    expect(files).toHaveLength(2);
    const rows = await readReservoirFiles(base, 'nete-volume-calcs', [...files].reverse());
    expect(rows.names).toEqual(names);
    expect([...rows.days]).toEqual([...days]);
    expect([...rows.values.NetE!]).toEqual([1, 2, 3, 4]);
    await base.close();
  });
});

describe('readMetadataRows', () => {
  it('gives back the metadata rows the writer took', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const base = (await openReadback(openStorage(dir)))!;
    expect(await readMetadataRows(base, 'reservoirs')).toEqual(tinyReservoirs);
    expect(await readMetadataRows(base, 'stations')).toEqual(tinyStations);
    await base.close();
  });
});
