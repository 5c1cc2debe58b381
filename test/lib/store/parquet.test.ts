// Parquet files of the store, checked with DuckDB as the independent reader: its view of the chunks and footer.

import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DateDay, makeVector, Table } from 'apache-arrow';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { encodeParquet } from '../../../lib/store/parquet.js';
import { floatVector, utf8Vector } from '../../../lib/store/vectors.js';
import { tempDir } from '../../helpers.js';

async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  connection.closeSync();
  return rows;
}

describe('encodeParquet', () => {
  it('records in the footer the SHA-256 of every column chunk, as DuckDB locates the chunks, and DuckDB reads the values back', async () => {
    const dir = await tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('A LAKE', 'B RESERVOIR', 'C ÅLAND'), fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null })), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.integer({ min: 1, max: 64 }),
        async (rows, rowGroupSize) => {
          const sorted = [...rows].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          const table = new Table({
            RES_NAME: utf8Vector(sorted.map((r) => r[0])),
            date: makeVector({ type: new DateDay(), data: Int32Array.from(sorted, (_, i) => 18000 + i) }),
            NetE: floatVector(Float64Array.from(sorted, (r) => (r[1] === null ? NaN : r[1]))),
          });
          const { bytes, footerLength } = encodeParquet(table, rowGroupSize);
          const path = join(dir, 'file.parquet');
          await writeFile(path, bytes);
          const chunks = await duck(
            `select row_group_id, column_id, coalesce(dictionary_page_offset, data_page_offset) as start, total_compressed_size as size from parquet_metadata('${path}') order by row_group_id, column_id`,
          );
          const groups = new Map<unknown, typeof chunks>();
          for (const c of chunks) groups.set(c.row_group_id, [...(groups.get(c.row_group_id) ?? []), c]);
          const expected = [...groups.values()]
            .map((group) =>
              group
                .map((c) =>
                  createHash('sha256')
                    .update(bytes.subarray(Number(c.start), Number(c.start) + Number(c.size)))
                    .digest('hex')
                    .slice(0, 32),
                )
                .join(','),
            )
            .join(';');
          const [kv] = await duck(`select decode(value) as value from parquet_kv_metadata('${path}') where decode(key) = 'evap.chunk_sha256'`);
          const back = await duck(`select RES_NAME, NetE from read_parquet('${path}')`);
          return (
            kv?.value === expected &&
            footerLength < bytes.byteLength &&
            JSON.stringify(back.map((r) => [r.RES_NAME, r.NetE])) ===
              JSON.stringify(sorted.map(([n, v]) => [n, v === null ? null : (Math.round(Math.abs(v) * 1e4) / 1e4) * Math.sign(v) || 0]))
          );
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);
});
