// Publishing: a revision writes metadata for what it changed only; the tables follow the store when it is moved or
// copied, and are rebuilt whole (one Iceberg snapshot per retained store snapshot) when missing.
import { cp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { sha256 } from '../../../lib/store/disk.js';
import { readCurrentManifest } from '../../../lib/store/history.js';
import { openStorage } from '../../../lib/store/location.js';
import { manifestFiles } from '../../../lib/store/manifest.js';
import { readSnapshots } from '../../../lib/store/snapshots.js';
import { copyStore } from '../../../lib/sync/copy.js';
import { readTable } from '../../../lib/tables/catalog.js';
import { tableNames } from '../../../lib/tables/fields.js';
import { listTableFiles } from '../../../lib/tables/files.js';
import { decodeManifestList } from '../../../lib/tables/manifests.js';
import { publishTables } from '../../../lib/tables/publish.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { daysFrom, dropIndexes, writeTinyStore } from '../../helpers.js';
import { clickhouseRows, libraryTables, workDir } from './engine.js';

/** Rewrites 2021 of nete-volume-calcs with NetE = value; returns the writer's publishing summary. */
async function revise2021(dir: string, value: number) {
  const writer = createStoreWriter(dir, { base: await readCurrentManifest(dir) });
  const names = ['ALPHA LAKE', 'ALPHA LAKE', 'BETA RESERVOIR', 'BETA RESERVOIR'];
  const days = Int32Array.from([...daysFrom('2021-01-01', 2), ...daysFrom('2021-01-01', 2)]);
  await writer.writeReservoirPartition('nete-volume-calcs', 2021, { names, days, values: { NetE: new Float64Array(4).fill(value) } });
  await writer.commit();
  if (writer.tables instanceof Error) throw writer.tables;
  return writer.tables!;
}

async function manifestPaths(dir: string, table: string): Promise<string[]> {
  const stored = (await readTable(openStorage(dir), table))!;
  const current = stored.metadata.snapshots.find((s) => s['snapshot-id'] === stored.metadata['current-snapshot-id'])!;
  const list = await readFile(join(dir, current['manifest-list'].slice(`file://${dir}/`.length)));
  return decodeManifestList(list).map((e) => e.manifest_path.split('/').pop()!);
}

async function expectAllTables(dir: string): Promise<void> {
  const store = await openStore(dir);
  for (const [table, rows] of await libraryTables(store)) expect(clickhouseRows(dir, table), table).toEqual(rows);
  await store.close();
}

describe('publishTables', () => {
  it('writes a manifest for the changed partition only, reuses the others, and touches no other table', async () => {
    const dir = `${await workDir()}/store`;
    await writeTinyStore(dir);
    const before = await manifestPaths(dir, 'reservoir_nete_volume_calcs');
    const summary = await revise2021(dir, 7);
    expect(summary.tables).toEqual(['reservoir_nete_volume_calcs']);
    expect(summary.files).toBe(4); // one manifest, the manifest list, the metadata file, the version hint
    const after = await manifestPaths(dir, 'reservoir_nete_volume_calcs');
    expect(after.filter((p) => before.includes(p))).toHaveLength(1); // 2020's manifest, reused
    expect(after.filter((p) => !before.includes(p))).toEqual([expect.stringMatching(/-2\.avro$/)]);
    expect(await publishTables(dir)).toMatchObject({ tables: [], files: 0 }); // level: nothing to do
    await expectAllTables(dir);
  });

  it('rebuilds missing tables with one Iceberg snapshot per retained store snapshot, and fixes a moved folder', async () => {
    const root = await workDir();
    const dir = `${root}/store`;
    await writeTinyStore(dir);
    await revise2021(dir, 7);
    await rm(join(dir, 'tables'), { recursive: true });
    await publishTables(dir);
    const history = await readSnapshots(openStorage(dir));
    for (const m of history) {
      const view = await (await openStore(dir)).asOf(m.created);
      const rows = (await libraryTables(view)).get('reservoir_nete_volume_calcs');
      expect(clickhouseRows(dir, 'reservoir_nete_volume_calcs', Date.parse(m.created))).toEqual(rows);
    }

    const moved = `${root}/moved`;
    await cp(dir, moved, { recursive: true });
    await rm(dir, { recursive: true });
    expect(() => clickhouseRows(moved, 'reservoir_nete_volume_calcs')).toThrow(); // its metadata names the old folder
    const fixed = await publishTables(moved);
    expect(fixed.tables).toEqual(tableNames); // every table, the forecasts one too
    expect((await readTable(openStorage(moved), 'station_metadata'))!.metadata.location).toBe(`file://${moved}/tables/station_metadata`);
    await expectAllTables(moved);
  });

  it('gives a copied store its own tables, naming its own files', async () => {
    const root = await workDir();
    await writeTinyStore(`${root}/a`);
    await revise2021(`${root}/a`, 3);
    await copyStore(`${root}/a`, `${root}/b`);
    await rm(`${root}/a`, { recursive: true });
    await expectAllTables(`${root}/b`);
  });
});

describe('listTableFiles', () => {
  it('lists the current files of a table, or those current at a time, never a replaced one', async () => {
    const dir = `${await workDir()}/store`;
    await writeTinyStore(dir);
    const first = await readCurrentManifest(dir);
    await revise2021(dir, 7);
    const now = await listTableFiles(dir, { table: 'reservoir_nete_volume_calcs' });
    const then = await listTableFiles(dir, { table: 'reservoir_nete_volume_calcs', asOf: first!.created });
    expect(now.map((f) => f.partition)).toEqual(['2020', '2021']);
    expect(now[0]).toEqual(then[0]); // 2020 unchanged
    expect(now[1]!.path).not.toBe(then[1]!.path);
    expect(now.reduce((n, f) => n + f.rows, 0)).toBe(clickhouseRows(dir, 'reservoir_nete_volume_calcs').length);
    await expect(listTableFiles(dir, { table: 'reservoirs' })).rejects.toThrow(/unknown table "reservoirs"; the tables are reservoir_rtma/);
  });
});

describe('a store written before field ids', () => {
  it('is read through the name mapping: every file rewritten without ids, the tables still equal the library', async () => {
    const dir = `${await workDir()}/store`;
    await writeTinyStore(dir);
    await revise2021(dir, 4);
    const store = await openStore(dir);
    const expected = await libraryTables(store);
    await store.close();
    // DuckDB rewrites each file with the same columns and no field ids; the manifests are patched to the new bytes
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const patched = new Map<string, Record<string, unknown>>();
    await dropIndexes(dir); // rewritten files move their chunks: this is a store written before file indexes too
    for (const file of manifestFiles((await readCurrentManifest(dir))!).filter((f) => f.path.endsWith('.parquet'))) {
      const path = join(dir, file.path);
      await connection.run(`copy (select * from read_parquet('${path}')) to '${path}.new' (format parquet)`);
      await rename(`${path}.new`, path);
      const reader = await connection.runAndReadAll(`select count(*) as n from parquet_schema('${path}') where field_id is not null`);
      expect(Number(reader.getRowObjectsJson()[0]!.n)).toBe(0);
      const bytes = await readFile(path);
      const footerBytes = bytes.readUInt32LE(bytes.byteLength - 8) + 8;
      patched.set(file.path, {
        bytes: bytes.byteLength,
        sha256: sha256(bytes),
        footerBytes,
        footerSha256: sha256(bytes.subarray(bytes.byteLength - footerBytes)),
      });
    }
    connection.closeSync();
    for (const name of ['manifest.json', ...(await readdir(join(dir, 'snapshots'))).map((f) => `snapshots/${f}`)]) {
      const text = (await readFile(join(dir, name), 'utf8')).replace(/\{"path":"([^"]+)"[^{}]*?\}/g, (entry, path: string) =>
        patched.has(path) ? JSON.stringify({ ...JSON.parse(entry), ...patched.get(path) }) : entry,
      );
      await writeFile(join(dir, name), text);
    }
    await rm(join(dir, 'tables'), { recursive: true });
    await publishTables(dir);
    const mapping = JSON.parse((await readTable(openStorage(dir), 'reservoir_nete_volume_calcs'))!.metadata.properties['schema.name-mapping.default']!);
    expect(mapping[0]).toEqual({ 'field-id': 1, names: ['RES_NAME'] });
    for (const [table, rows] of expected) expect(clickhouseRows(dir, table), table).toEqual(rows);
  });
});
