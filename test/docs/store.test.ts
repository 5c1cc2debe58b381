// docs/store.md's ClickHouse line, run as written (on a revised copy of the demo store): one row per day, no replaced
// file counted, the library's total; and the glob the page warns against counts the year twice.
import { cp, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { query } from 'chdb';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { defaultStoreDir } from '../../lib/synthetic/demo.js';
import { createStoreWriter } from '../../lib/writer/write.js';
import { workDir } from '../lib/tables/engine.js';

const page = await readFile(join(import.meta.dirname, '..', '..', 'docs', 'store.md'), 'utf8');
const line = page
  .split('\n')
  .find((l) => l.trim().startsWith('SELECT count() AS days'))!
  .trim();

describe('docs/store.md', () => {
  it("runs the ClickHouse line on a store whose year was loaded again: the library's days and total, where a glob doubles them", async () => {
    const dir = `${await workDir()}/data`;
    await cp(defaultStoreDir(), dir, { recursive: true });
    const store = await openStore(dir);
    const rows = (await store.readReservoirPartition('nete-volume-calcs', 2020))!;
    const writer = createStoreWriter(dir, { base: store.manifest });
    await writer.writeReservoirPartition('nete-volume-calcs', 2020, rows); // a daily revision loads the year again
    await writer.commit();
    await store.close();

    const revised = await openStore(dir);
    const mead = (await revised.readReservoirPartition('nete-volume-calcs', 2020))!;
    const days = mead.names.filter((n) => n === 'LAKE MEAD').length;
    const total = mead.values.NetE_volume!.reduce((s, v, i) => (mead.names[i] === 'LAKE MEAD' ? s + v : s), 0);
    await revised.close();
    const answer = JSON.parse(query(line.replace("'data/", `'${relative(process.cwd(), dir)}/`), 'JSONEachRow'));
    expect(answer).toEqual({ days, m3: Math.round(total) });
    expect(days).toBe(366);

    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    const glob = await connection.runAndReadAll(
      `select count(*) as n from read_parquet('${dir}/reservoirs/dataset=nete-volume-calcs/year=2020/*.parquet') where RES_NAME = 'LAKE MEAD'`,
    );
    expect(Number(glob.getRowObjectsJson()[0]!.n)).toBe(2 * days);
    connection.closeSync();
  });
});
