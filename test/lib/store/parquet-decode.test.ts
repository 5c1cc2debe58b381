// Pins what the store relies on of hyparquet's internal modules (lib/store/parquet-decode.ts): files written by an
// independent writer (DuckDB's COPY ... TO parquet) have their footers parsed, their columns described, and every
// column chunk decoded from its bytes alone to the values DuckDB reads, with the shape taken from the footer and with
// the shape a file index records (written out by hand here).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeChunk as decodeStoreChunk, parseFooter } from '../../../lib/store/parquet.js';
import { type ChunkShape, chunkShapes, decodeChunk, decodeChunkAsync, pageSizes, parseMetadata } from '../../../lib/store/parquet-decode.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { tempDir } from '../../helpers.js';

const row = fc.record({
  name: fc.constantFrom('A LAKE', 'B RESERVOIR', 'C ÅLAND', 'D "QUOTED", LAKE'),
  day: fc.integer({ min: -3000, max: 30000 }),
  value: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null, freq: 4 }),
});

describe('parquet-decode over files DuckDB wrote', () => {
  it('decodes every chunk of dates, names and nullable doubles to what DuckDB reads, from the footer or from a recorded shape', async () => {
    const dir = await tempDir();
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom('gzip', 'uncompressed'),
        async (rows, rowGroupSize, codec) => {
          const path = join(dir, `duck-${run++}.parquet`);
          const values = rows.map((r) => `(${sql(r.name)}, DATE '1970-01-01' + ${r.day}, ${r.value === null ? 'NULL' : `${r.value}::DOUBLE`})`).join(',');
          await connection.run(`create or replace table t(RES_NAME varchar not null, date date not null, NetE double)`);
          await connection.run(`insert into t values ${values}`);
          await connection.run(`copy t to '${path}' (format parquet, compression ${codec}, row_group_size ${rowGroupSize})`);
          const bytes = new Uint8Array(await readFile(path));
          const read = (
            await connection.runAndReadAll(`select RES_NAME, datediff('day', DATE '1970-01-01', date)::int as d, NetE from read_parquet('${path}')`)
          )
            .getRowObjectsJson()
            .map((r) => [r.RES_NAME, r.d, r.NetE === null ? null : Number(r.NetE)]);

          const metadata = parseMetadata(bytes);
          const shapes = chunkShapes(metadata);
          // DuckDB marks every column OPTIONAL, NOT NULL or not
          const recorded: ChunkShape[] = [
            { name: 'RES_NAME', type: 'BYTE_ARRAY', codec: codec.toUpperCase(), optional: true, date: false, text: true },
            { name: 'date', type: 'INT32', codec: codec.toUpperCase(), optional: true, date: true, text: false },
            { name: 'NetE', type: 'DOUBLE', codec: codec.toUpperCase(), optional: true, date: false, text: false },
          ];
          expect(shapes).toEqual(recorded);
          const ours: unknown[][] = [];
          for (const group of metadata.row_groups) {
            const rowCount = Number(group.num_rows);
            const columns = await Promise.all(
              group.columns.map(async (chunk, c) => {
                const meta = chunk.meta_data!;
                const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
                const slice = bytes.subarray(start, start + Number(meta.total_compressed_size));
                expect(pageSizes(slice).reduce((n, s) => n + s, 0)).toBeLessThan(slice.byteLength); // headers take the rest
                const fromFooter = Array.from(decodeChunk(shapes[c]!, rowCount, slice));
                expect(Array.from(await decodeChunkAsync(recorded[c]!, rowCount, slice))).toEqual(fromFooter);
                return fromFooter.map((v) => (typeof v === 'number' && Number.isNaN(v) ? null : v));
              }),
            );
            for (let i = 0; i < rowCount; i++) ours.push(columns.map((c) => c[i]));
          }
          expect(ours).toEqual(read);
        },
      ),
      { numRuns: 25 },
    );
    connection.closeSync();
    instance.closeSync();
  }, 60_000);
});

function sql(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

describe('hyparquet internals', () => {
  it('are imported by lib/store/parquet-decode.ts alone', async () => {
    const { readdir } = await import('node:fs/promises');
    const root = join(import.meta.dirname, '..', '..', '..');
    const files = (await readdir(join(root, 'lib'), { recursive: true })).filter((f) => f.endsWith('.ts'));
    const importers = [];
    for (const f of files) if ((await readFile(join(root, 'lib', f), 'utf8')).includes("from 'hyparquet/src/")) importers.push(f.replaceAll('\\', '/'));
    expect(importers).toEqual(['store/parquet-decode.ts']);
  });
});

describe('the names of a store file', () => {
  it('decode to the names written, over runs of every length (bit-packed short runs, RLE long ones) and row groups', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 70 }), { minLength: 1, maxLength: 40 }), // each name's rows, names in order
        fc.integer({ min: 5, max: 300 }),
        async (runs, rowGroupSize) => {
          const dir = await tempDir();
          const nameOf = (i: number) => `LAKE ${String(i).padStart(3, '0')}`;
          const names = runs.flatMap((count, i) => Array<string>(count).fill(nameOf(i)));
          const days = Int32Array.from(runs.flatMap((count) => Array.from({ length: count }, (_, d) => 18_000 + d)));
          const writer = createStoreWriter(dir, { rowGroupSize });
          await writer.writeReservoirMetadata(runs.map((_, i) => ({ RES_NAME: nameOf(i) })));
          await writer.writeReservoirPartition('nete-volume-calcs', 2019, { names, days, values: { NetE: new Float64Array(names.length) } });
          const manifest = await writer.commit();
          const file = manifest.datasets['nete-volume-calcs']!.partitions[0]!.files[0]!;
          const bytes = new Uint8Array(await readFile(join(dir, file.path)));
          const footer = parseFooter(bytes.subarray(bytes.length - file.footerBytes));
          const decoded: unknown[] = [];
          footer.ranges.forEach((chunks, g) => {
            const [start, end] = chunks[footer.columns.get('RES_NAME')!]!;
            decoded.push(...Array.from(decodeStoreChunk(footer, g, 'RES_NAME', bytes.subarray(start, end))));
          });
          expect(decoded).toEqual(names);
        },
      ),
      { numRuns: 30 },
    );
  }, 60_000);
});
