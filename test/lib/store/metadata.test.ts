// Metadata decoded from real Parquet bytes against DuckDB reading the same file, and attributes picked against a plain loop.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/errors.js';
import { decodeMetadata, lazyMetadata, pickAttributes } from '../../../lib/store/metadata.js';
import { encodeParquet } from '../../../lib/store/parquet-encode.js';
import type { MetadataRow } from '../../../lib/types.js';
import { metadataTable } from '../../../lib/writer/vectors.js';
import { tempDir } from '../../helpers.js';

const parquetOf = (rows: MetadataRow[]) => encodeParquet(metadataTable(rows, 'RES_NAME'), 8192).bytes;

const attributeValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
  fc.constant(null),
  fc.constant(NaN),
);
const metadataRows = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 12 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc.record({ STATE: attributeValue, LAT: attributeValue, CODE: attributeValue }, { requiredKeys: [] }).map((r) => ({ RES_NAME: name, ...r })),
      ),
    ),
  );

describe('lazyMetadata', () => {
  it('decodes every row DuckDB reads from the same file, nulls for NaN and for what a row lacks', async () => {
    const dir = await tempDir();
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(metadataRows, async (rows) => {
        const bytes = parquetOf(rows as MetadataRow[]);
        // a new file each run: DuckDB caches file contents by path and modification time, and two runs within one
        // clock tick rewrote the same path with bytes it then read from its cache (CI: "Failed to decompress GZIP block")
        const file = join(dir, `metadata-${run++}.parquet`);
        await writeFile(file, bytes);
        const read = (await duck.runAndReadAll(`select * from read_parquet('${file}')`)).getRowObjectsJS() as Record<string, string | number | null>[];
        const table = lazyMetadata(bytes, 'RES_NAME', 'metadata.parquet');
        expect(table.attributes).toEqual(Object.keys(read[0]!));
        expect([...table.byName.keys()]).toEqual(read.map((r) => r.RES_NAME));
        for (const row of read) {
          // DuckDB reads a stored NaN as NaN: the decoder makes it null, as the wire has no NaN
          expect(table.byName.get(row.RES_NAME as string)).toEqual(
            Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' && Number.isNaN(v) ? null : v])),
          );
        }
      }),
      { numRuns: 40 },
    );
    duck.closeSync();
  });

  it('reads the attribute names from the footer alone and decodes the rows on first use, refusing a corrupt file then (each on first use)', () => {
    const bytes = parquetOf([{ RES_NAME: 'A', STATE: 'CO' }]);
    const corrupt = bytes.slice();
    corrupt.fill(0, 4, 40); // the first column chunk, not the footer at the end
    const table = lazyMetadata(corrupt, 'RES_NAME', 'reservoirs/metadata.parquet');
    expect(table.attributes).toEqual(['RES_NAME', 'STATE']);
    expect(() => table.byName).toThrow(StoreError);
    expect(() => table.byName).toThrow(/reservoirs\/metadata\.parquet cannot be decoded/);
    const cut = lazyMetadata(bytes.slice(0, 20), 'RES_NAME', 'x.parquet'); // its footer is read when first asked for
    expect(() => cut.attributes).toThrow(StoreError);
    expect(() => cut.attributes).toThrow(/x\.parquet cannot be decoded/);
    expect(lazyMetadata(null, 'STA_NAME', '')).toMatchObject({ attributes: ['STA_NAME'], byName: new Map() });
  });
});

describe('decodeMetadata', () => {
  it('keeps a column named __proto__ out of the records, which stay plain data', () => {
    const table = decodeMetadata(
      new Map<string, (string | number | null)[]>([
        ['RES_NAME', ['A']],
        ['__proto__', ['{"polluted":1}']],
        ['X', [NaN]],
      ]),
      'RES_NAME',
    );
    expect(table.attributes).toEqual(['RES_NAME', 'X']);
    const record = table.byName.get('A')!;
    expect([Object.getPrototypeOf(record) === Object.prototype, Object.keys(record), record.X]).toEqual([true, ['RES_NAME', 'X'], null]);
  });
});

describe('pickAttributes', () => {
  it('gives each asked attribute of the name, null where the name or the attribute is missing', () => {
    fc.assert(
      fc.property(metadataRows, fc.subarray(['STATE', 'LAT', 'CODE', 'ELSE']), fc.string({ maxLength: 8 }), (rows, asked, other) => {
        const table = decodeMetadata(
          new Map(['RES_NAME', 'STATE', 'LAT', 'CODE'].map((k) => [k, rows.map((r) => (r as Record<string, string | number | null>)[k] ?? null)])),
          'RES_NAME',
        );
        return [...rows.map((r) => r.RES_NAME), other].every((name) => {
          const row = rows.find((r) => r.RES_NAME === name) as Record<string, unknown> | undefined;
          const expected: Record<string, unknown> = {};
          for (const a of asked) expected[a] = row?.[a] === undefined || Number.isNaN(row[a]) ? null : row[a];
          return JSON.stringify(pickAttributes(table, name, asked)) === JSON.stringify(expected);
        });
      }),
    );
  });
});
