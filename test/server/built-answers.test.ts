// Parquet and Arrow answers are built whole, but not on one turn of the event loop: other requests are answered while
// large ones are made, an answer that could be too large is refused before any row is read, and what is built off the
// loop (in pieces, on a worker thread) is still the JSON answer, as DuckDB reads it.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../lib/open/store.js';
import { MAX_TABLE_VALUES } from '../../server/answers.js';
import { tableRecords, tempDir } from '../helpers.js';
import { testApp } from './harness.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const everyReservoirOneYear = (format: string) =>
  `/timeseries/daily/reservoirs/daterange?RES_NAMES=ALL&start_date=2020-01-01&end_date=2020-12-31&output_format=${format}`;
const small = '/timeseries/daily/reservoirs/daterange?RES_NAMES=LAKE%20MEAD&start_date=2020-06-01&end_date=2020-06-30';

describe('large Parquet and Arrow answers', () => {
  it.each(['parquet', 'arrow'])(
    'leave the event loop free: small JSON queries, one after another, are answered while two large %s answers are built',
    async (format) => {
      const app = await testApp({ maxHeavy: 4, answerCacheBytes: 0 });
      const expected = await (await app.get(small)).text();
      await (await app.get(everyReservoirOneYear(format))).arrayBuffer(); // the store's caches warm, as a running server's are
      let settled = 0;
      const large = [1, 2].map(() =>
        app.get(everyReservoirOneYear(format)).then(async (response) => {
          expect(response.status).toBe(200);
          await response.arrayBuffer();
          settled++;
        }),
      );
      // each small query is asked once the previous one is answered, until the first large answer is out: built on one
      // turn each (as before), the large answers let one small query through, then none until they were all done
      let answered = 0;
      while (settled === 0) {
        await nextTurn();
        const response = await app.get(small);
        expect(await response.text()).toBe(expected);
        if (settled === 0) answered++;
      }
      await Promise.all(large);
      expect(answered).toBeGreaterThanOrEqual(5);
    },
  );

  it('are refused before any stored row is read when their records could exceed the bound', async () => {
    const store = await openStore(); // a store of its own: its read counters are this test's alone
    const app = await testApp({ store });
    // every reservoir's daily normals: 67 x 366 records of 220 columns could be 5.4 million values
    const normals = '/timeseries/normals/reservoirs?RES_NAMES=ALL&period=day';
    const before = store.readStats();
    for (const format of ['parquet', 'arrow']) {
      const refused = await app.get(`${normals}&output_format=${format}`);
      expect(refused.status).toBe(422);
      const detail = ((await refused.json()) as { detail: { loc: string[]; msg: string }[] }).detail[0]!;
      expect(detail.loc).toEqual(['query', 'output_format']);
      expect(detail.msg).toContain(String(MAX_TABLE_VALUES));
    }
    expect(store.readStats()).toEqual(before);
    // the counters do count: one reservoir's daily normals as Parquet, within the bound, read rows
    const one = await app.get('/timeseries/normals/reservoirs?RES_NAMES=LAKE%20MEAD&period=day&output_format=parquet');
    expect(one.status).toBe(200);
    expect(store.readStats().reads).toBeGreaterThan(before.reads);
  });

  it('are the JSON answer, read by DuckDB (Parquet) and apache-arrow (Arrow), when built in many pieces', async () => {
    const app = await testApp({ answerCacheBytes: 0 });
    const dir = await tempDir();
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const paths = [
      // 6 reservoirs over a year and a half of 27 columns: 89,000 values, several pieces and record batches
      '/timeseries/daily/reservoirs/daterange?RES_NAMES=ABIQUIU%20LAKE,AGATE%20RESERVOIR,ALCOVA%20RESERVOIR,LAKE%20MEAD,LAKE%20POWELL,LAKE%20ALICE&start_date=2019-07-01&end_date=2020-12-31',
      '/timeseries/monthly/stations/daterange?STA_NAMES=ALL&start_date=2019-01-01&end_date=2021-12-31&also_return=LAT',
    ];
    for (const [i, path] of paths.entries()) {
      const expected = (await (await app.get(path)).json()) as Record<string, unknown>[];
      expect(expected.length).toBeGreaterThan(100);
      const parquet = await app.get(`${path}&output_format=parquet`);
      expect(parquet.status, path).toBe(200);
      const file = join(dir, `answer-${i}.parquet`);
      await writeFile(file, new Uint8Array(await parquet.arrayBuffer()));
      const read = await duck.runAndReadAll(`select * from read_parquet('${file}')`);
      const rows = read
        .getRowObjectsJson()
        .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d/.test(v) && k.includes(' (') ? Number(v) : v])));
      expect(rows, path).toEqual(expected);
      const arrow = await app.get(`${path}&output_format=arrow`);
      const table = tableFromIPC(new Uint8Array(await arrow.arrayBuffer()));
      expect(tableRecords(table), path).toEqual(expected);
    }
    duck.closeSync();
  });
});
