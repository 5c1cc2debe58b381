// Many column chunks decoded in one call (decodeChunksAsync: their gzip pages inflated back to back, a few zlib calls
// for all of them, several calls once they pass half a MiB) give what DuckDB reads from the same file, which the store's
// own writer made: values, nulls and dates, chunk by chunk, in any order asked.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DateDay, makeVector, Table } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeChunksAsync, parseFooter } from '../../../lib/store/parquet.js';
import { encodeParquet } from '../../../lib/store/parquet-encode.js';
import { floatVector, utf8Vector } from '../../../lib/writer/vectors.js';
import { tempDir } from '../../helpers.js';

const value = fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null, freq: 6 });

describe('decodeChunksAsync', () => {
  it("decodes every chunk of a store file in one call to DuckDB's values, across batches of pages", async () => {
    const dir = await tempDir();
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 60_000 }), // rows: up to 8 groups of 8,192, 24 pages of 64 KiB (three batches)
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(value, { minLength: 1, maxLength: 50 }), // values repeated over the rows, nulls among them
        fc.boolean(), // the chunks asked in reverse order
        async (rows, seed, cycle, reverse) => {
          const noisy = Float64Array.from({ length: rows }, (_, i) => (((i * 2654435761 + seed) >>> 0) % 1_000_000) / 1e4);
          const table = new Table({
            RES_NAME: utf8Vector(Array.from({ length: rows }, (_, i) => `LAKE ${String(Math.floor(i / 365)).padStart(4, '0')}`)),
            date: makeVector({ type: new DateDay(), data: Int32Array.from({ length: rows }, (_, i) => 18000 + (i % 365)) }),
            a: floatVector(noisy),
            b: floatVector(Float64Array.from({ length: rows }, (_, i) => cycle[i % cycle.length] ?? NaN)),
            c: floatVector(noisy.map((v) => -v)),
          });
          const { bytes } = encodeParquet(table, 8192);
          const path = join(dir, `store-${run++}.parquet`);
          await writeFile(path, bytes);
          const footer = parseFooter(bytes);
          const asked = footer.ranges.flatMap((group, g) => [...footer.columns].map(([column, c]) => ({ g, column, range: group[c]! })));
          if (reverse) asked.reverse();
          const decoded = await decodeChunksAsync(
            footer,
            asked.map(({ g, column, range }) => ({ group: g, column, bytes: bytes.subarray(range[0], range[1]) })),
          );
          const ours = new Map<string, unknown[]>([...footer.columns.keys()].map((c) => [c, new Array(rows)]));
          asked.forEach(({ g, column }, k) => {
            const values = Array.from(decoded[k]!, (v) => (typeof v === 'number' && Number.isNaN(v) ? null : v));
            ours.get(column)!.splice(footer.groupStarts[g]!, values.length, ...values);
          });
          const read = (
            await connection.runAndReadAll(`select RES_NAME, datediff('day', DATE '1970-01-01', date)::int as date, a, b, c from read_parquet('${path}')`)
          ).getColumnsObjectJson() as Record<string, unknown[]>;
          for (const [column, values] of ours) expect(values, column).toEqual(read[column]!.map((v) => (v === null || typeof v === 'string' ? v : Number(v))));
        },
      ),
      { numRuns: 12 },
    );
    connection.closeSync();
    instance.closeSync();
  }, 120_000);
});
