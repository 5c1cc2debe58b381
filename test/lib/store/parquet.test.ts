// Parquet files of the store, checked with DuckDB as the independent reader: its view of the chunks and footer.

import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DateDay, Float64, makeVector, Table, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import fc from 'fast-check';
import * as wasm from 'parquet-wasm';
import { describe, expect, it } from 'vitest';
import { decodeChunk, parseFooter } from '../../../lib/store/parquet.js';
import { pageSizes } from '../../../lib/store/parquet-decode.js';
import { encodeParquet } from '../../../lib/store/parquet-encode.js';
import { floatVector, utf8Vector } from '../../../lib/writer/vectors.js';
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

describe('decodeChunk', () => {
  it('decodes dates and nullable doubles spread over many pages and row groups as DuckDB reads them', async () => {
    const dir = await tempDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.double({ noDefaultInfinity: true, noNaN: true }), { nil: null, freq: 4 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 150 }),
        fc.integer({ min: 1, max: 40 }),
        async (values, rowGroupSize, batch) => {
          const table = new Table({
            date: makeVector({ type: new DateDay(), data: Int32Array.from(values, (_, i) => 18_000 + i * 3) }),
            v: vectorFromArray(values, new Float64()),
          });
          // small write batches and pages: a row group's column chunk spans many data pages
          const properties = new wasm.WriterPropertiesBuilder()
            .setCompression(wasm.Compression.GZIP)
            .setDictionaryEnabled(false)
            .setMaxRowGroupSize(rowGroupSize)
            .setWriteBatchSize(batch)
            .setDataPageSizeLimit(64)
            .build();
          const bytes = wasm.writeParquet(wasm.Table.fromIPCStream(tableToIPC(table, 'stream')), properties);
          const path = join(dir, `pages-${run++}.parquet`);
          await writeFile(path, bytes);
          const footer = parseFooter(bytes);
          const ours = { date: [] as number[], v: [] as (number | null)[] };
          let pages = 0;
          footer.ranges.forEach((group, g) => {
            for (const name of ['date', 'v'] as const) {
              const [start, end] = group[footer.columns.get(name)!]!;
              const decoded = decodeChunk(footer, g, name, bytes.subarray(start, end));
              expect(decoded).toBeInstanceOf(name === 'date' ? Int32Array : Float64Array);
              for (const x of Array.from(decoded as ArrayLike<number>)) (ours[name] as (number | null)[]).push(Number.isNaN(x) ? null : x);
              pages += pageSizes(bytes.subarray(start, end)).length;
            }
          });
          const read = await duck(`select datediff('day', DATE '1970-01-01', date)::int as d, v from read_parquet('${path}')`);
          expect(ours.date).toEqual(read.map((r) => r.d));
          expect(ours.v).toEqual(read.map((r) => (r.v === null ? null : Number(r.v))));
          return pages >= 2 * footer.ranges.length;
        },
      ),
      { numRuns: 30 },
    );
  }, 60_000);

  it('decodes the names of the files the store writes (a dictionary, dictionary-encoded pages, nulls) to the names written', () => {
    const name = fc.oneof(fc.constantFrom('LAKE MEAD', 'C ÅLAND', 'D "QUOTED", LAKE', '湖'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }));
    fc.assert(
      fc.property(
        fc.array(fc.option(name, { nil: null, freq: 8 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 40 }),
        (names, rowGroupSize, batch) => {
          const table = new Table({
            RES_NAME: vectorFromArray(names, new Utf8()),
            date: makeVector({ type: new DateDay(), data: Int32Array.from(names, (_, i) => i) }),
          });
          // small pages: a row group's names span several dictionary-encoded data pages
          const properties = new wasm.WriterPropertiesBuilder()
            .setCompression(wasm.Compression.GZIP)
            .setMaxRowGroupSize(rowGroupSize)
            .setWriteBatchSize(batch)
            .setDataPageSizeLimit(64)
            .build();
          const bytes = wasm.writeParquet(wasm.Table.fromIPCStream(tableToIPC(table, 'stream')), properties);
          const footer = parseFooter(bytes);
          const decoded = footer.ranges.flatMap((group, g) => {
            const [start, end] = group[footer.columns.get('RES_NAME')!]!;
            return Array.from(decodeChunk(footer, g, 'RES_NAME', bytes.subarray(start, end)));
          });
          expect(decoded).toEqual(names);
        },
      ),
      { numRuns: 60 },
    );
  });
});
