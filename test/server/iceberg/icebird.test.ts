// A second, independent reader of the served tables: icebird (an Iceberg reader in JavaScript, on hyparquet) reads
// each table from the metadata the REST catalog answers, the manifests and data files over real HTTP from the
// server's S3 endpoint, and must get the library's rows, now and at every snapshot of the table's metadata.
// icebird 0.3.1 knows S3 only as AWS's hosts (s3://bucket/key -> https://bucket.s3.amazonaws.com/key) and sends its
// requestInit with data files but not with manifest lists and manifests: the fetch it uses here sends those hosts to
// the server's path-style endpoint with the key, as a proxy in front of it would. Nothing else of its requests changes.
import fc from 'fast-check';
import { icebergRead } from 'icebird';
import { afterEach, describe, expect, it } from 'vitest';
import { type EvapStore, openStore } from '../../../lib/open/store.js';
import type { TableMetadata } from '../../../lib/tables/metadata.js';
import { createDatabasesHandler } from '../../../server/databases.js';
import { KeyRing } from '../../../server/keys/auth.js';
import { serve } from '../../../server/process/adapter.js';
import { cleanUp, tempDir, writeTinyStore } from '../../helpers.js';
import { libraryTables, sortRows } from '../../lib/tables/engine.js';
import { revise, revision } from '../../lib/tables/revise.js';

const KEY = 'icebird-test-key';
const bearer = { authorization: `Bearer ${KEY}` };
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Serves the store as database `tiny`; icebird's fetch goes to it. Returns the catalog's URL and the S3 requests made. */
async function served(store: EvapStore): Promise<{ catalog: string; objects: string[] }> {
  const handler = createDatabasesHandler({ databases: [{ name: 'tiny', store }], keys: KeyRing.fromKeys([KEY]) });
  const logger = { info: () => {}, error: () => {} };
  const serving = await serve(handler, { port: 0, host: '127.0.0.1', maxConcurrent: 64, headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, logger });
  cleanUp(() => serving.close(1000));
  const objects: string[] = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const bucket = /^(.+)\.s3\.amazonaws\.com$/.exec(url.hostname)?.[1];
    if (bucket === undefined) return realFetch(input, init);
    objects.push(`${bucket}${url.pathname}`);
    return realFetch(`${serving.url}/${bucket}${url.pathname}`, { ...init, headers: { ...(init?.headers as Record<string, string>), ...bearer } });
  }) as typeof fetch;
  return { catalog: `${serving.url}/iceberg/v1/namespaces/tiny/tables`, objects };
}

/** icebird's rows as JSON values: days as YYYY-MM-DD, times as ISO text, a column a file lacks as null. */
function plain(rows: Record<string, unknown>[], fields: string[]): Record<string, unknown>[] {
  return sortRows(
    rows.map((r) =>
      Object.fromEntries(
        fields.map((f) => {
          const v = r[f];
          return [f, v === undefined ? null : v instanceof Date ? v.toISOString().replace(/T00:00:00\.000Z$/, '') : typeof v === 'bigint' ? Number(v) : v];
        }),
      ),
    ),
  );
}

/** A table's rows as icebird reads them at the table's snapshot `id` (its current one when undefined); [] for a table without one. */
async function icebirdRows(catalog: string, table: string, id?: number): Promise<Record<string, unknown>[]> {
  const loaded = (await (await realFetch(`${catalog}/${table}`, { headers: bearer })).json()) as { metadata: TableMetadata };
  const metadata = id === undefined ? loaded.metadata : { ...loaded.metadata, 'current-snapshot-id': id }; // icebird reads the current one
  if (metadata['current-snapshot-id'] === undefined || metadata['current-snapshot-id'] === -1) return [];
  const schema = metadata.schemas.find((s) => s['schema-id'] === metadata['current-schema-id'])!;
  const rows = await icebergRead({ tableUrl: metadata.location, metadata: metadata as never, requestInit: { headers: bearer } }).catch((error: Error) => {
    if (error.message === 'No data manifest files found for current snapshot') return []; // how icebird says a snapshot has no file
    throw error;
  });
  return plain(
    rows,
    (schema.fields as { name: string }[]).map((f) => f.name),
  );
}

describe('the served tables, read by icebird', () => {
  it('reads what the library reads, now and at every snapshot, through random revisions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(revision, { minLength: 1, maxLength: 3 }), async (revisions) => {
        const dir = await tempDir();
        await writeTinyStore(dir);
        for (const [i, r] of revisions.entries()) await revise(dir, r, i);
        const store = await openStore(dir);
        cleanUp(() => store.close());
        const { catalog, objects } = await served(store);
        const now = await libraryTables(store);
        const listed = (await (await realFetch(catalog, { headers: bearer })).json()) as { identifiers: { name: string }[] };
        for (const { name } of listed.identifiers) expect(await icebirdRows(catalog, name), name).toEqual(now.get(name));
        // every snapshot the dataset table's metadata keeps, against the library as of its store snapshot (the same id)
        const table = 'reservoir_nete_volume_calcs';
        const { metadata } = (await (await realFetch(`${catalog}/${table}`, { headers: bearer })).json()) as { metadata: TableMetadata };
        for (const snapshot of metadata.snapshots) {
          const view = await store.asOf(new Date(snapshot['timestamp-ms']).toISOString());
          const then = await libraryTables(view);
          await view.close();
          expect(await icebirdRows(catalog, table, snapshot['snapshot-id']), `${table} at ${snapshot['snapshot-id']}`).toEqual(then.get(table));
        }
        expect(objects.some((o) => /^evap\.tiny\/reservoirs\/\S+\.parquet$/.test(o))).toBe(true); // the data came from the endpoint
      }),
      { numRuns: 4 },
    );
  }, 300_000);
});
