// Parquet written a row group at a time (lib/store/parquet-stream.ts), checked with DuckDB as the independent reader:
// the footer's checksum of every column chunk where DuckDB locates the chunks, the rows it reads back, the file's
// SHA-256 and size as the bytes on disk say, and what the streaming refuses.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DateDay, makeVector, Table } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { folderStorage } from '../../../lib/store/disk.js';
import { encodeParquetStream, type StreamedParquet } from '../../../lib/store/parquet-stream.js';
import { floatVector, utf8Vector } from '../../../lib/writer/vectors.js';
import { tempDir } from '../../helpers.js';

async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const rows = (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  connection.closeSync();
  return rows;
}

type Row = [string, number | null];

function tableOf(rows: readonly Row[], first: number): Table {
  return new Table({
    RES_NAME: utf8Vector(rows.map((r) => r[0])),
    date: makeVector({ type: new DateDay(), data: Int32Array.from(rows, (_, i) => 18000 + first + i) }),
    NetE: floatVector(Float64Array.from(rows, (r) => (r[1] === null ? Number.NaN : r[1]))),
  });
}

async function* batchesOf(rows: readonly Row[], size: number): AsyncGenerator<Table> {
  for (let at = 0; at < rows.length; at += size) yield tableOf(rows.slice(at, at + size), at);
}

describe('encodeParquetStream', () => {
  it('writes, a row group at a time, the checksum of every chunk where DuckDB finds it, and rows DuckDB reads back', async () => {
    const dir = await tempDir();
    const storage = folderStorage(dir);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('A LAKE', 'B RESERVOIR', 'C ÅLAND'), fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null })), {
          minLength: 1,
          maxLength: 3000,
        }),
        fc.integer({ min: 1, max: 700 }),
        async (given, rowGroupSize) => {
          const rows = [...given].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) as Row[];
          const done: Partial<StreamedParquet> = {};
          const name = `file-${n++}.parquet`;
          await storage.write(name, encodeParquetStream(batchesOf(rows, rowGroupSize), { rows: rows.length, rowGroupSize, columns: 3 }, done));
          const path = join(dir, name);
          const bytes = new Uint8Array(await readFile(path));
          const chunks = await duck(
            `select row_group_id, column_id, coalesce(dictionary_page_offset, data_page_offset) as start, total_compressed_size as size from parquet_metadata('${path}') order by row_group_id, column_id`,
          );
          const groups = new Map<unknown, typeof chunks>();
          for (const c of chunks) groups.set(c.row_group_id, [...(groups.get(c.row_group_id) ?? []), c]);
          const sum = (c: (typeof chunks)[number]) =>
            createHash('sha256')
              .update(bytes.subarray(Number(c.start), Number(c.start) + Number(c.size)))
              .digest('hex')
              .slice(0, 32);
          const expected = [...groups.values()].map((group) => group.map(sum).join(',')).join(';');
          const [kv] = await duck(`select decode(value) as value from parquet_kv_metadata('${path}') where decode(key) = 'evap.chunk_sha256'`);
          const back = await duck(`select RES_NAME, NetE from read_parquet('${path}')`);
          expect(groups.size).toBe(Math.ceil(rows.length / rowGroupSize));
          expect(kv?.value).toBe(expected);
          expect(done.bytes).toBe(bytes.byteLength);
          expect(done.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
          expect(JSON.stringify(back.map((r) => [r.RES_NAME, r.NetE]))).toBe(
            JSON.stringify(rows.map(([r, v]) => [r, v === null ? null : (Math.round(Math.abs(v) * 1e4) / 1e4) * Math.sign(v) || 0])),
          );
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);

  it('refuses batches that are not the row groups it was told of', async () => {
    const rows: Row[] = Array.from({ length: 10 }, (_, i) => ['A LAKE', i]);
    const drain = async (batches: AsyncIterable<Table>, total: number) => {
      for await (const _ of encodeParquetStream(batches, { rows: total, rowGroupSize: 4, columns: 3 }, {})) {
        // the bytes are dropped: the refusal is the point
      }
    };
    await expect(drain(batchesOf(rows, 5), 10)).rejects.toThrow(/has 5 rows, not 4/);
    await expect(drain(batchesOf(rows.slice(0, 8), 4), 10)).rejects.toThrow(/given 8 rows, not 10/);
  });
});
