// Manifests and manifest lists are Avro files any engine decodes: ClickHouse reads back what was written, field by field.
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { query } from 'chdb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datasetFields } from '../../../lib/tables/fields.js';
import { fileBounds } from '../../../lib/tables/layout.js';
import { decodeManifestList, encodeManifest, encodeManifestList, type ManifestFile } from '../../../lib/tables/manifests.js';
import { workDir } from './engine.js';

const schema = { type: 'struct', 'schema-id': 0, fields: datasetFields('lem').map((f) => ({ ...f, required: false })) };
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
const isoDay = fc.integer({ min: -3000, max: 30000 }).map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));
const file = fc
  .record({
    path: text.map((t) => `file:///store/reservoirs/${t}.parquet`),
    rows: fc.nat({ max: 2 ** 40 }),
    bytes: fc.nat({ max: 2 ** 40 }),
    names: fc.tuple(text, text),
    dates: fc.tuple(isoDay, isoDay),
  })
  .map((f): ManifestFile & { names: [string, string]; dates: [string, string] } => ({ ...f, ...fileBounds(f) }));

function read(path: string, columns: string): Record<string, unknown>[] {
  const out = query(
    `SELECT ${columns} FROM file('${relative(process.cwd(), path)}', 'Avro') SETTINGS output_format_json_quote_64bit_integers = 0`,
    'JSONEachRow',
  );
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

const hex = (b: Uint8Array | undefined) =>
  Buffer.from(b ?? [])
    .toString('hex')
    .toUpperCase();

describe('encodeManifest and encodeManifestList', () => {
  it('write Avro files that ClickHouse decodes to the same files, partitions, bounds and counts', async () => {
    const dir = await workDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(file, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: -100, max: 200 }),
        fc.nat({ max: 2 ** 31 }),
        async (files, year, snapshot) => {
          const path = `${dir}/m-${n}.avro`;
          const listPath = `${dir}/snap-${n++}.avro`;
          const { bytes, entry } = encodeManifest({ kind: 'year', partition: year, files, snapshotId: snapshot, schema, path });
          const list = encodeManifestList([entry, entry], snapshot, null);
          await Promise.all([writeFile(path, bytes), writeFile(listPath, list)]);
          {
            const rows = read(
              path,
              `status, snapshot_id, data_file.file_path AS path, data_file.record_count AS rows, data_file.file_size_in_bytes AS bytes,
             data_file.partition.date_year AS year, arrayMap(x -> (x.key, hex(x.value)), data_file.lower_bounds) AS lower,
             arrayMap(x -> (x.key, hex(x.value)), data_file.upper_bounds) AS upper`,
            );
            expect(rows).toEqual(
              files.map((f) => ({
                status: 1,
                snapshot_id: snapshot,
                path: f.path,
                rows: f.rows,
                bytes: f.bytes,
                year,
                lower: [
                  [1, hex(f.lower.get(1))],
                  [2, hex(f.lower.get(2))],
                ],
                upper: [
                  [1, hex(f.upper.get(1))],
                  [2, hex(f.upper.get(2))],
                ],
              })),
            );
            const listed = read(
              listPath,
              'manifest_path, manifest_length, added_snapshot_id, added_files_count, added_rows_count, hex(partitions[1].lower_bound) AS low',
            );
            const low = Buffer.alloc(4);
            low.writeInt32LE(year);
            const expected = {
              manifest_path: path,
              manifest_length: bytes.byteLength,
              added_snapshot_id: snapshot,
              added_files_count: files.length,
              added_rows_count: files.reduce((s, f) => s + f.rows, 0),
              low: low.toString('hex').toUpperCase(),
            };
            expect(listed).toEqual([expected, expected]);
            expect(decodeManifestList(list).map((e) => e.manifest_path)).toEqual([path, path]);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
