// The dispatch of records operations (lib/open/dispatch.ts): every records operation of the table has its stream
// call and its array method on a store, a view and the client (tsc refuses a missing one; this checks it at run time
// over the table's keys), and each stream call is the stream the store's own method of that name gives.
import { describe, expect, it } from 'vitest';
import type { RecordStream } from '../../../lib/format/stream.js';
import { recordsOf, recordsOperations, streamOf } from '../../../lib/open/dispatch.js';
import { openStore, type StoreReader } from '../../../lib/open/store.js';
import { operations, type RecordsOperation } from '../../../lib/operations.js';
import { createClient } from '../../../lib/sync/client.js';
import { defaultStoreDir } from '../../../lib/synthetic/demo.js';

// the table's records operations, read from its entries here rather than from dispatch.ts's list
const answeringRecords = Object.entries(operations)
  .filter(([, operation]) => operation.answer === 'records')
  .map(([name]) => name as RecordsOperation);

// the store's own stream method of an operation, found by its documented name (streamReservoirTimeseries): the oracle
const namedStream = (store: StoreReader, operation: string, options: object): RecordStream =>
  (store as unknown as Record<string, (options: object) => RecordStream>)[`stream${operation[0]!.toUpperCase()}${operation.slice(1)}`]!.call(store, options);

describe('records dispatch', () => {
  it('lists every records operation of the table, in its order', () => {
    expect(answeringRecords.length).toBeGreaterThan(10);
    expect(recordsOperations).toEqual(answeringRecords);
  });

  it('has an array method of every records operation on the client and on a store and its views', async () => {
    const client = createClient('http://127.0.0.1:9', { apiKey: 'k' });
    const store = await openStore(defaultStoreDir());
    const view = await store.asOf(new Date().toISOString());
    try {
      for (const source of [client, store, view]) expect(answeringRecords.filter((operation) => typeof source[operation] !== 'function')).toEqual([]);
    } finally {
      await view.close();
      await store.close();
    }
  });

  it("streams each records operation as the store's method of its name does: the same columns", async () => {
    const store = await openStore(defaultStoreDir());
    try {
      for (const operation of answeringRecords) {
        const options = operation.endsWith('Aggregates') ? { interval: 'annual' as const } : {};
        expect(streamOf(store, operation, options).columns, operation).toEqual(namedStream(store, operation, options).columns);
      }
    } finally {
      await store.close();
    }
  });

  it('passes the options on: the path option (interval) and the array method alike', async () => {
    const store = await openStore(defaultStoreDir());
    try {
      const options = { names: ['LAKE ALICE'], datasets: ['nete-volume-calcs'], variables: ['NetE'], start: '2020-01-01', end: '2020-12-31' };
      const annual = await streamOf(store, 'reservoirAggregates', { ...options, interval: 'annual' }).records();
      const monthly = await streamOf(store, 'reservoirAggregates', options).records();
      expect([annual.length, monthly.length]).toEqual([1, 12]);
      expect(await recordsOf(store, 'reservoirTimeseries', options)).toEqual(await store.reservoirTimeseries(options));
      expect((await recordsOf(store, 'reservoirTimeseries', options)).length).toBe(366);
    } finally {
      await store.close();
    }
  });
});
