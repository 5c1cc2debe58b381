// The index written beside each data file: what it says is what the footer says (checked against DuckDB's reading
// of the footer), answers are the same with it, without it (a store written before) and with a damaged one, and
// `evap verify` finds an index that disagrees with its footer.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { verifyStore } from '../../../lib/open/verify.js';
import { sha256 } from '../../../lib/store/disk.js';
import { parseFileIndex } from '../../../lib/store/file-index.js';
import { readCurrentManifest } from '../../../lib/store/history.js';
import { type DataFile, type Manifest, manifestFiles } from '../../../lib/store/manifest.js';
import { generateStore } from '../../../lib/synthetic/generate.js';
import { dropIndexes, tempDir } from '../../helpers.js';

const dataFiles = (m: Manifest): DataFile[] => [
  ...Object.values(m.datasets).flatMap((d) => d.partitions.flatMap((p) => p.files)),
  ...Object.values(m.stations.partitions),
];

async function readManifest(dir: string): Promise<Manifest> {
  return (await readCurrentManifest(dir))!;
}

describe('file index', () => {
  it('says what DuckDB reads in each footer: row groups, rows, chunk ranges, date and name statistics', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 16, max: 700 }),
        fc.integer({ min: 1, max: 1000 }),
        async (reservoirs, rowGroupSize, seed) => {
          const dir = await tempDir();
          const manifest = await generateStore(dir, { reservoirs, stations: 2, start: '2020-12-20', end: '2021-01-10', seed, rowGroupSize, rowsPerFile: 2048 });
          const files = dataFiles(manifest);
          expect(files.length).toBeGreaterThan(0);
          for (const file of files) {
            expect(file.index).toBeDefined();
            const layout = parseFileIndex(await readFile(join(dir, file.index!.path), 'utf8'), file);
            const rows = (
              await connection.runAndReadAll(
                `select row_group_id as g, row_group_num_rows as rows, path_in_schema as col, coalesce(dictionary_page_offset, data_page_offset) as start,
                      total_compressed_size as size, stats_min_value as min, stats_max_value as max
               from parquet_metadata('${join(dir, file.path)}') order by row_group_id, column_id`,
              )
            ).getRowObjectsJson();
            const groups = [...new Set(rows.map((r) => Number(r.g)))];
            expect(layout.ranges.length).toBe(groups.length);
            for (const g of groups) {
              const chunks = rows.filter((r) => Number(r.g) === g);
              expect(layout.groupStarts[g + 1]! - layout.groupStarts[g]!).toBe(Number(chunks[0]!.rows));
              expect(chunks.map((c) => c.col)).toEqual([...layout.columns.keys()]);
              expect(layout.ranges[g]).toEqual(chunks.map((c) => [Number(c.start), Number(c.start) + Number(c.size)]));
              const date = chunks.find((c) => c.col === 'date')!;
              const days = layout.days[g]!.map((d) => new Date(d * 86_400_000).toISOString().slice(0, 10));
              expect(days).toEqual([date.min, date.max]);
              const name = chunks.find((c) => c.col === 'RES_NAME' || c.col === 'STA_NAME')!;
              expect(layout.names[g]).toEqual([name.min, name.max]);
            }
            // the checksums are those of the bytes at those ranges
            const bytes = await readFile(join(dir, file.path));
            const { createHash } = await import('node:crypto');
            layout.ranges.forEach((group, g) =>
              group.forEach(([start, end], c) =>
                expect(layout.sums![g]![c]).toBe(createHash('sha256').update(bytes.subarray(start, end)).digest('hex').slice(0, 32)),
              ),
            );
          }
        },
      ),
      { numRuns: 4 },
    );
    connection.closeSync();
    instance.closeSync();
  }, 120_000);

  it('gives the same answers as the footers (a store written before indexes), reading no footer', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 12, stations: 2, start: '2020-11-01', end: '2021-02-10', seed: 3, rowGroupSize: 64, rowsPerFile: 1024 });
    const plain = await tempDir();
    await generateStore(plain, { reservoirs: 12, stations: 2, start: '2020-11-01', end: '2021-02-10', seed: 3, rowGroupSize: 64, rowsPerFile: 1024 });
    await dropIndexes(plain);
    const indexed = await openStore(dir);
    const before = await openStore(plain);
    const names = indexed.manifest.reservoirs.names;
    const station = indexed.manifest.stations.names[0]!;
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(names, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 40 }),
        async (chosen, from, span) => {
          const start = new Date(Date.UTC(2020, 10, 1) + from * 86_400_000).toISOString().slice(0, 10);
          const end = new Date(Date.UTC(2020, 10, 1) + (from + span) * 86_400_000).toISOString().slice(0, 10);
          const q = { names: chosen, datasets: ['nete-volume-calcs', 'rtma'], variables: ['NetE', 'pr'], start, end };
          expect(await indexed.reservoirTimeseries(q)).toEqual(await before.reservoirTimeseries(q));
          const onDate = { datasets: ['rtma'], variables: ['pr', 'etr'], date: start };
          expect(await indexed.reservoirTimeseriesOnDate(onDate)).toEqual(await before.reservoirTimeseriesOnDate(onDate));
          const s = { names: [station], variables: ['ATemp'], start, end };
          expect(await indexed.stationTimeseries(s)).toEqual(await before.stationTimeseries(s));
        },
      ),
      { numRuns: 25 },
    );
    expect(indexed.readStats()).toMatchObject({ footersRead: 0, indexesRefused: 0 });
    expect(indexed.readStats().indexesRead).toBeGreaterThan(0);
    expect(before.readStats()).toMatchObject({ indexesRead: 0 });
    expect(before.readStats().footersRead).toBeGreaterThan(0);
  }, 120_000);

  it('refuses an index whose row groups or chunks are malformed, saying what', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 3, stations: 0, start: '2021-01-01', end: '2021-01-20', seed: 2, rowGroupSize: 16 });
    const file = (await readManifest(dir)).datasets.rtma!.partitions[0]!.files[0]!;
    const good = await readFile(join(dir, file.index!.path), 'utf8');
    expect(parseFileIndex(good, file).ranges.length).toBeGreaterThan(1);
    const broken = (change: (groups: unknown[][]) => void) => {
      const doc = JSON.parse(good) as { groups: unknown[][] };
      change(doc.groups);
      return () => parseFileIndex(JSON.stringify(doc), file);
    };
    const chunk = (groups: unknown[][], c = 0) => (groups[1]![3] as unknown[][])[c]!;
    expect(broken((g) => (chunk(g)[2] = (chunk(g)[2] as string).slice(1)))).toThrow('a column chunk has no checksum');
    expect(broken((g) => (chunk(g)[2] = 7))).toThrow('a column chunk has no checksum');
    expect(broken((g) => (chunk(g, 2)[1] = file.bytes))).toThrow('a column chunk lies outside the data bytes');
    expect(broken((g) => (chunk(g)[1] = chunk(g)[0]))).toThrow('a column chunk lies outside the data bytes');
    expect(broken((g) => ((g[1]![3] as unknown[])[0] = 'x'))).toThrow('a column chunk is malformed');
    expect(broken((g) => (g[0]![0] = 0))).toThrow('a row group has no rows');
    expect(broken((g) => (g[0]![1] = [1, 'x']))).toThrow('a row group range is malformed');
    expect(broken((g) => (g[0]![0] = (g[0]![0] as number) + 1))).toThrow('rows, the manifest');
    expect(broken((g) => (g[1]!.length = 3))).toThrow('a row group is malformed');
  });

  it('falls back to the footer for an index that fails its checksum, and refuses chunks an index misplaces', async () => {
    const dir = await tempDir();
    await generateStore(dir, { reservoirs: 4, stations: 0, start: '2021-01-01', end: '2021-01-20', seed: 1, rowGroupSize: 16 });
    const manifest = await readManifest(dir);
    const file = manifest.datasets['nete-volume-calcs']!.partitions[0]!.files[0]!;
    const query = { names: [manifest.reservoirs.names[1]!], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2021-01-01', end: '2021-01-20' };
    const truth = await (await openStore(dir)).reservoirTimeseries(query);
    expect(truth.length).toBe(20);
    const indexFile = join(dir, file.index!.path);
    const good = await readFile(indexFile, 'utf8');

    // a damaged byte: the manifest's checksum fails, the footer is read instead, the answer is the same
    await writeFile(
      indexFile,
      good.replace('"rows"', '"rowz"').replace(/\d(?=,\[)/, (d) => String((Number(d) + 1) % 10)),
    );
    const damaged = await openStore(dir, { cacheBytes: 0 });
    expect(await damaged.reservoirTimeseries(query)).toEqual(truth);
    expect(damaged.readStats()).toMatchObject({ indexesRefused: 1, footersRead: 1 });

    // an index that matches the manifest's checksum but sends a chunk elsewhere: that chunk fails its checksum
    const doc = JSON.parse(good) as { groups: [number, unknown, unknown, [number, number, string][]][] };
    const chunks = doc.groups[0]![3];
    const netE = [...JSON.parse(good).columns].findIndex((c: { name: string }) => c.name === 'NetE');
    [chunks[netE]![0], chunks[netE]![1]] = [chunks[0]![0], chunks[0]![1]]; // NetE's checksum, RES_NAME's bytes
    const lying = JSON.stringify(doc);
    await writeFile(indexFile, lying);
    file.index = { ...file.index!, bytes: Buffer.byteLength(lying), sha256: sha256(Buffer.from(lying)) };
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const first = { ...query, names: [manifest.reservoirs.names[0]!] };
    await expect((await openStore(dir)).reservoirTimeseries(first)).rejects.toThrow(
      `store file ${file.path} is corrupt: column NetE of row group 0 does not match its checksum`,
    );

    // and verify says which index disagrees with its footer
    const store = await openStore(dir);
    const { openStorage } = await import('../../../lib/store/location.js');
    const summary = await verifyStore(store, openStorage(dir));
    expect(summary.problems).toEqual([`store file ${file.index!.path} does not match the footer of ${file.path}`]);
    expect(summary.files).toBe(manifestFiles(manifest).length);
  }, 60_000);
});
