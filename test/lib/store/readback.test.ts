// Whole files read back into rows, against DuckDB reading the same Parquet files (several row groups, gaps, a column a
// file lacks); concatenation and sorting against plain array code over random rows.
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartitionReader, createReaderCaches } from '../../../lib/store/partitions.js';
import { concatRows, readFileRows, sortRows } from '../../../lib/store/readback.js';
import { localSource } from '../../../lib/store/source.js';
import { openStore } from '../../../lib/store/store.js';
import type { ReservoirRows } from '../../../lib/store/write.js';
import { tempDir, writeTinyStore } from '../../helpers.js';

const plainValues = (column: ArrayLike<number>) => Array.from(column, (v) => (Number.isNaN(v) ? null : v));

describe('readFileRows', () => {
  it('gives every row of every row group as DuckDB reads them, NaN for a gap and for a column the file lacks', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir, 2); // row groups of 2 rows
    const store = await openStore(dir);
    const reader = new PartitionReader(localSource(dir), createReaderCaches(0, 0));
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const files = [...store.manifest.datasets['nete-volume-calcs']!.partitions.flatMap((p) => p.files), store.manifest.stations.partitions.ALPHA_STATION!];
    for (const file of files) {
      const station = file.path.startsWith('stations/');
      const variables = station ? ['ATemp'] : ['NetE', 'E_volume'];
      const expected = (await duck.runAndReadAll(`select ${station ? '' : 'RES_NAME, '}datediff('day', DATE '1970-01-01', date)::int as d, ${variables.join(', ')} from read_parquet('${join(dir, file.path)}')`)).getRowObjectsJS();
      const rows = await readFileRows(reader, file, station ? undefined : 'RES_NAME', [...variables, 'Tw']);
      expect(rows.names).toEqual(station ? [] : expected.map((r) => r.RES_NAME));
      expect(Array.from(rows.days)).toEqual(expected.map((r) => r.d));
      for (const v of variables) expect(plainValues(rows.values[v]!), v).toEqual(expected.map((r) => r[v]));
      expect(plainValues(rows.values.Tw!)).toEqual(expected.map(() => null));
    }
    duck.closeSync();
  });
});

const rowsArbitrary = (variables: string[]) =>
  fc.array(fc.tuple(fc.constantFrom('B', 'A', 'C', 'a'), fc.integer({ min: 18000, max: 18010 }), fc.array(fc.oneof(fc.double({ noNaN: true }), fc.constant(NaN)), { minLength: variables.length, maxLength: variables.length })), { maxLength: 15 })
    .map((tuples): ReservoirRows => ({
      names: tuples.map((t) => t[0]),
      days: Int32Array.from(tuples, (t) => t[1]),
      values: Object.fromEntries(variables.map((v, j) => [v, Float64Array.from(tuples, (t) => t[2][j]!)])),
    }));
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
        return JSON.stringify(sorted.map(key)) === JSON.stringify(expected.map(key)) && JSON.stringify([...sorted].map(String).sort()) === JSON.stringify([...expected].map(String).sort());
      }),
    );
  });
});
