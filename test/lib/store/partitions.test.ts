// Reads are proportional to what a query touches: the footer and the column chunks of the row groups it needs,
// counted through the byte source and checked against DuckDB's own reading of the files' metadata.

import { readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DateDay, makeVector, Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../lib/errors.js';
import { openStore } from '../../../lib/open/store.js';
import { sha256 } from '../../../lib/store/disk.js';
import type { Manifest, ReservoirFile } from '../../../lib/store/manifest.js';
import { encodeParquet } from '../../../lib/store/parquet-encode.js';
import { createReaderCaches, PartitionReader } from '../../../lib/store/partitions.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { utf8Vector } from '../../../lib/writer/vectors.js';
import { day, dropIndexes, tempDir, writeTinyStore } from '../../helpers.js';

interface ChunkRow {
  row_group_id: string;
  path_in_schema: string;
  start: string;
  size: string;
  min: string | null;
  max: string | null;
}

/** Column chunks of a file as DuckDB reads them from the footer: row group, column, byte range, statistics. */
async function duckChunks(path: string): Promise<ChunkRow[]> {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  const reader = await connection.runAndReadAll(
    `select row_group_id, path_in_schema, coalesce(dictionary_page_offset, data_page_offset) as start, total_compressed_size as size,
            stats_min_value as min, stats_max_value as max
     from parquet_metadata('${path.replaceAll("'", "''")}')`,
  );
  const rows = reader.getRowObjectsJson() as unknown as ChunkRow[];
  connection.closeSync();
  return rows;
}

describe('PartitionReader', () => {
  it.each([
    ['the file index', true],
    ['the footer (a store written before indexes)', false],
  ])('reads %s and only the needed column chunks of the row groups that can hold the rows', async (_, indexed) => {
    const dir = await tempDir();
    await writeTinyStore(dir, 1); // one row per row group
    if (!indexed) await dropIndexes(dir);
    const store = await openStore(dir);
    const opened = store.readStats(); // the metadata tables, read whole at open
    const query = { names: ['BETA RESERVOIR'], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2021-01-02', end: '2021-01-02' };
    expect((await store.reservoirTimeseries(query))[0]!['NetE (mm)']).toBe(2.3);
    const file = store.manifest.datasets['nete-volume-calcs']!.partitions.find((p) => p.year === 2021)!.files[0]!;
    const chunks = await duckChunks(join(dir, file.path));
    // the groups whose name and date statistics admit BETA on 2021-01-02, by DuckDB's reading of the same footer
    const groups = new Set(
      chunks
        .filter((c) => c.path_in_schema === 'RES_NAME' && c.min! <= 'BETA RESERVOIR' && 'BETA RESERVOIR' <= c.max!)
        .map((c) => c.row_group_id)
        .filter((g) => chunks.some((c) => c.row_group_id === g && c.path_in_schema === 'date' && c.min! <= '2021-01-02' && '2021-01-02' <= c.max!)),
    );
    const needed = chunks.filter((c) => groups.has(c.row_group_id) && ['RES_NAME', 'date', 'NetE'].includes(c.path_in_schema));
    // neighbouring chunks (at most 64 KiB apart) come in one read: count the runs and the bytes they span
    const spans: [number, number][] = [];
    for (const c of needed.map((c) => [Number(c.start), Number(c.start) + Number(c.size)] as [number, number]).sort((a, b) => a[0] - b[0])) {
      const last = spans[spans.length - 1];
      if (last && c[0] - last[1] <= 65_536) last[1] = c[1];
      else spans.push(c);
    }
    const layoutBytes = indexed ? file.index!.bytes : file.footerBytes; // the index instead of the footer, never both
    const expected = layoutBytes + spans.reduce((n, [start, end]) => n + end - start, 0);
    expect(groups.size).toBe(1);
    expect(expected).toBe(layoutBytes + needed.reduce((n, c) => n + Number(c.size), 0)); // nothing read that was not needed
    expect(store.readStats()).toMatchObject({
      reads: opened.reads + 1 + spans.length,
      bytesRead: opened.bytesRead + expected,
      footersRead: indexed ? 0 : 1,
      indexesRead: indexed ? 1 : 0,
    });
    await store.reservoirTimeseries(query);
    expect(store.readStats().bytesRead).toBe(opened.bytesRead + expected); // served from the caches the second time
  });

  it('reports a corrupted column chunk, a corrupted footer and a truncated file, naming the file', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    await dropIndexes(dir); // the footer is read (with an index, it is read only when the index is refused: file-index.test.ts)
    const query = { names: ['ALPHA LAKE'], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2021-01-01', end: '2021-01-02' };
    const file = (await openStore(dir)).manifest.datasets['nete-volume-calcs']!.partitions.find((p) => p.year === 2021)!.files[0]!;
    const path = join(dir, file.path);
    const good = await readFile(path);
    const netE = (await duckChunks(path)).find((c) => c.path_in_schema === 'NetE' && c.row_group_id === '0')!;
    const flip = async (at: number) => {
      const bytes = Buffer.from(good);
      bytes[at]! ^= 0x10;
      await writeFile(path, bytes);
      return openStore(dir, { cacheBytes: 0, footerCacheBytes: 0 });
    };
    await expect((await flip(Number(netE.start) + 2)).reservoirTimeseries(query)).rejects.toThrow(
      `store file ${file.path} is corrupt: column NetE of row group 0 does not match its checksum`,
    );
    await expect((await flip(good.length - 20)).reservoirTimeseries(query)).rejects.toThrow(`store file ${file.path} is corrupt: its footer`);
    await writeFile(path, good);
    await truncate(path, good.length - 1);
    const error = await (await openStore(dir)).reservoirTimeseries(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain(`store file ${file.path} is truncated`);
  });

  it('refuses a file whose checksums match but whose columns have the wrong types, and a file replaced by a link', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    const file = manifest.datasets['nete-volume-calcs']!.partitions.find((p) => p.year === 2021)!.files[0]!;
    // the same rows with NetE as text: a valid, checksummed Parquet file of the wrong schema, recorded in the manifest
    const table = new Table({
      RES_NAME: utf8Vector(['ALPHA LAKE', 'ALPHA LAKE']),
      date: makeVector({ type: new DateDay(), data: Int32Array.of(day('2021-01-01'), day('2021-01-02')) }),
      NetE: utf8Vector(['1.2', '1.3']),
    });
    const { bytes, footerLength } = encodeParquet(table, 8);
    await writeFile(join(dir, file.path), bytes);
    Object.assign(file, {
      rows: 2,
      bytes: bytes.byteLength,
      sha256: sha256(bytes),
      footerBytes: footerLength,
      footerSha256: sha256(bytes.subarray(bytes.byteLength - footerLength)),
      last: 'ALPHA LAKE',
    });
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const query = { names: ['ALPHA LAKE'], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2021-01-01', end: '2021-01-02' };
    await expect((await openStore(dir)).reservoirTimeseries(query)).rejects.toThrow(`store file ${file.path}: column NetE is BYTE_ARRAY, expected DOUBLE`);
    const outside = join(await tempDir(), 'elsewhere.parquet');
    await writeFile(outside, bytes);
    await rm(join(dir, file.path));
    await symlink(outside, join(dir, file.path));
    await expect((await openStore(dir)).reservoirTimeseries(query)).rejects.toThrow(/cannot read store file .*: ELOOP/);
  });

  it('reads no more bytes for one reservoir when the store holds eight times as many', async () => {
    const bytesFor = async (reservoirs: number) => {
      const dir = await tempDir();
      // small files and row groups, so that a few thousand reservoirs over three weeks span many files, as 44,000 over years do
      await generateStore(dir, {
        reservoirs,
        stations: 0,
        start: '2021-03-01',
        end: '2021-03-21',
        seed: 5,
        rowGroupSize: 1024,
        rowsPerFile: 8192,
        byDateDays: 0,
      }); // no copy: a range of one name never reads it
      const store = await openStore(dir);
      const files = store.manifest.datasets.rtma!.partitions.flatMap((p) => p.files);
      const name = 'LAKE MEAD';
      const opened = store.readStats().bytesRead;
      await store.reservoirTimeseries({ names: [name], datasets: ['rtma'], variables: ['pr'], start: '2021-03-01', end: '2021-03-21' });
      const mine = files.filter((f: ReservoirFile) => f.first <= name && name <= f.last);
      return { files: files.length, touched: mine.length, bytes: store.readStats().bytesRead - opened };
    };
    const small = await bytesFor(500);
    const large = await bytesFor(4000);
    expect(large.files).toBeGreaterThanOrEqual(8 * small.files - 8);
    expect([small.touched, large.touched]).toEqual([1, 1]);
    expect(large.bytes).toBeLessThanOrEqual(small.bytes * 1.25); // footers are bounded by the file size, chunks by the row group
  }, 60_000);
});

describe('PartitionReader.derive', () => {
  it('makes a value once for concurrent askers, keeps it within the bound, and makes it again once pushed out', async () => {
    const caches = createReaderCaches(8 * 1024, 0); // a derived value may take an eighth: 1 KiB
    const reader = new PartitionReader({ read: async () => new Uint8Array(0) }, caches);
    let made = 0;
    const make = (bytes: number) => async () => {
      made++;
      await new Promise((resolve) => setImmediate(resolve));
      return { value: { made }, bytes };
    };
    const together = await Promise.all([1, 2, 3].map(() => reader.derive('a', make(600))));
    expect(together.every((v) => v === together[0])).toBe(true);
    expect(made).toBe(1);
    expect(await reader.derive('a', make(600))).toBe(together[0]);
    await reader.derive('b', make(600)); // 1,200 bytes do not fit: 'a' goes
    expect(made).toBe(2);
    expect(await reader.derive('a', make(600))).toEqual({ made: 3 });
    await reader.derive('huge', make(2000)); // larger than the bound: answered, never kept
    await reader.derive('huge', make(2000));
    expect(made).toBe(5);
  });
});
