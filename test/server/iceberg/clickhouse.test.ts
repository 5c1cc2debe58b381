// The whole path a client takes with nothing but the URL and the key: ClickHouse (chdb) attaches the server's Iceberg
// REST catalog with DataLakeCatalog, and reads every table over real HTTP, the data files from the server's own S3
// endpoint. Each table must equal what the library reads, now and as of every retained snapshot (by time and by id).
import { queryAsync } from 'chdb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import { openStorage } from '../../../lib/store/location.js';
import { readSnapshots } from '../../../lib/store/snapshots.js';
import { tableNames } from '../../../lib/tables/fields.js';
import { createDatabasesHandler } from '../../../server/databases.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { serve } from '../../../server/process/adapter.js';
import { cleanUp, tempDir, writeTinyStore } from '../../helpers.js';
import { libraryTables, sortRows } from '../../lib/tables/engine.js';
import { revise, revision } from '../../lib/tables/revise.js';

const KEY = 'catalog-test-key';
let attached = 0;

/** Serves the store as database `tiny`; attaches its catalog in ClickHouse as a database of its own, and returns its name. */
async function attach(store: EvapStore, logs: string[]): Promise<string> {
  const handler = createDatabasesHandler({ databases: [{ name: 'tiny', store }], keys: KeyRing.fromKeys([KEY]), logError: (l) => logs.push(l) });
  const logger = { info: (l: string) => logs.push(l), error: (l: string) => logs.push(l) };
  const serving = await serve(handler, { port: 0, host: '127.0.0.1', maxConcurrent: 64, headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, logger });
  cleanUp(() => serving.close(1000));
  const name = `evap_catalog_${process.pid}_${attached++}`;
  await queryAsync(
    `SET allow_database_iceberg = 1; CREATE DATABASE ${name} ENGINE = DataLakeCatalog('${serving.url}/iceberg/v1') SETTINGS catalog_type = 'rest', warehouse = 'evap', auth_header = 'Authorization: Bearer ${KEY}'`,
  );
  cleanUp(() => queryAsync(`DROP DATABASE IF EXISTS ${name}`));
  return name;
}

/** A table's rows as ClickHouse reads them through the catalog, at a time or snapshot id if given. */
async function catalogRows(database: string, table: string, at: { ms?: number; id?: number } = {}): Promise<Record<string, unknown>[]> {
  const settings = at.id !== undefined ? ` SETTINGS iceberg_snapshot_id = ${at.id}` : at.ms !== undefined ? ` SETTINGS iceberg_timestamp_ms = ${at.ms}` : '';
  const text = (await queryAsync(`SELECT * FROM ${database}.\`tiny.${table}\`${settings}`, { format: 'JSONEachRow' })).text();
  return sortRows(
    text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  );
}

describe('the Iceberg REST catalog, read by ClickHouse', () => {
  it('lists every table of the database as a namespace', async () => {
    const dir = await tempDir();
    await writeTinyStore(dir);
    const store = await openStore(dir);
    cleanUp(() => store.close());
    const database = await attach(store, []);
    const names = (await queryAsync(`SHOW TABLES FROM ${database}`, { format: 'TSV' })).text().trim().split('\n');
    expect(names.sort()).toEqual(tableNames.map((t) => `tiny.${t}`).sort());
  });

  it('reads what the library reads, now and as of every snapshot, through random revisions; the data over the S3 endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(revision, { minLength: 1, maxLength: 3 }), async (revisions) => {
        const dir = await tempDir(); // anywhere: ClickHouse reads over HTTP, not from the disk
        await writeTinyStore(dir);
        for (const [i, r] of revisions.entries()) await revise(dir, r, i);
        const store = await openStore(dir);
        cleanUp(() => store.close());
        const logs: string[] = [];
        const database = await attach(store, logs);

        const now = await libraryTables(store);
        for (const table of tableNames) expect(await catalogRows(database, table), table).toEqual(now.get(table));
        for (const m of await readSnapshots(openStorage(dir))) {
          const view = await store.asOf(m.created);
          const then = await libraryTables(view);
          await view.close();
          for (const table of tableNames) {
            expect(await catalogRows(database, table, { ms: Date.parse(m.created) }), `${table} at ${m.created}`).toEqual(then.get(table));
          }
          // a snapshot id is the store's sequence number; a table a commit left alone has no snapshot of that id
          const id = await catalogRows(database, 'reservoir_nete_volume_calcs', { id: m.sequence }).catch(() => undefined);
          if (id) expect(id).toEqual(then.get('reservoir_nete_volume_calcs'));
        }
        // the data came over the server's S3 endpoint, by ranges, and nothing named the server's disk
        expect(logs.some((l) => /GET \/evap\.tiny\/reservoirs\/\S+\.parquet 206 /.test(l))).toBe(true);
        expect(logs.filter((l) => / (4\d\d|5\d\d) /.test(l) && !/HEAD|list-type/.test(l))).toEqual([]);
      }),
      { numRuns: 3 },
    );
  }, 300_000);
});
