// The same tables in a bucket (s3rver behind the conditional-write proxy): ClickHouse's icebergS3 reads every table as
// the library reads the store, now and at each snapshot's time. chdb's async query runs off the event loop, which
// serves the bucket.
import { queryAsync } from 'chdb';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../lib/open/store.js';
import { bucketStorage } from '../../../lib/store/bucket.js';
import { readSnapshots } from '../../../lib/store/snapshots.js';
import { readTable } from '../../../lib/tables/catalog.js';
import { tableNames } from '../../../lib/tables/fields.js';
import { createStoreWriter } from '../../../lib/writer/write.js';
import { daysFrom, writeTinyStore } from '../../helpers.js';
import { startTestBucket } from '../../support/bucket.js';
import { libraryTables, sortRows } from './engine.js';

const bucket = await startTestBucket();

async function icebergS3(table: string, timestampMs?: number): Promise<Record<string, unknown>[]> {
  const url = `${bucket.endpoint}/${bucket.bucket}/tables-test/tables/${table}`;
  const settings = timestampMs === undefined ? '' : ` SETTINGS iceberg_timestamp_ms = ${timestampMs}`;
  const result = await queryAsync(`SELECT * FROM icebergS3('${url}', 'S3RVER', 'S3RVER')${settings}`, { format: 'JSONEachRow' });
  return sortRows(
    result
      .text()
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l)),
  );
}

describe('the tables of a store in a bucket', () => {
  it('read by ClickHouse (icebergS3) equal the library, now and at every snapshot', async () => {
    const storage = bucketStorage(bucket.location('tables-test'), bucket.env);
    await writeTinyStore(storage);
    const first = await openStore(storage);
    const writer = createStoreWriter(storage, { base: first.manifest });
    await writer.writeStationPartition('ALPHA_STATION', { days: daysFrom('2020-12-30', 2), values: { ATemp: Float64Array.from([7, 8]) } });
    await writer.commit();
    expect(writer.tables).not.toBeInstanceOf(Error);
    expect((await readTable(storage, 'station_timeseries'))!.metadata.location).toBe(`s3://${bucket.bucket}/tables-test/tables/station_timeseries`);

    const store = await openStore(storage);
    const now = await libraryTables(store);
    for (const table of tableNames) expect(await icebergS3(table), table).toEqual(now.get(table));
    for (const m of await readSnapshots(storage)) {
      const view = await store.asOf(m.created);
      const then = await libraryTables(view);
      await view.close();
      for (const table of tableNames) expect(await icebergS3(table, Date.parse(m.created)), `${table} at ${m.sequence}`).toEqual(then.get(table));
    }
    // the metadata is objects of the same bucket, created by storage.create (If-None-Match), as snapshots are
    expect(bucket.proxy.requests.some((r) => r.method === 'PUT' && /tables\/station_timeseries\/metadata\/v2\.metadata\.json$/.test(r.key))).toBe(true);
    await store.close();
    await first.close();
  }, 60_000);
});
