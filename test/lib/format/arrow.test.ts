// Records as an Arrow table, read back after an Arrow IPC round trip (apache-arrow's own decoder) against the records.
import { DataType, tableFromIPC, tableToIPC } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsToArrow } from '../../../lib/format/arrow.js';
import { openStore } from '../../../lib/store/store.js';

describe('recordsToArrow', () => {
  it('holds one row per record and one column per key: numbers as Float64, text as UTF-8, null where a value is null', () => {
    const row = fc.record({
      RES_NAME: fc.string({ minLength: 1, maxLength: 10 }),
      start_date: fc.constantFrom('2020-01-01', '2021-12-31'),
      'NetE (mm)': fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
      qflag: fc.oneof(fc.constantFrom('O', 'M'), fc.constant(null)),
    });
    const kind = (type: DataType): string =>
      DataType.isFloat(type) ? 'float' : DataType.isUtf8(type) || (DataType.isDictionary(type) && DataType.isUtf8(type.dictionary)) ? 'text' : String(type);
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 20 }), (records) => {
        const table = tableFromIPC(tableToIPC(recordsToArrow(records)));
        // every key a column, even where every value is null: a measurement Float64, an attribute text
        expect(table.schema.fields.map((f) => [f.name, kind(f.type)])).toEqual([
          ['RES_NAME', 'text'],
          ['start_date', 'text'],
          ['NetE (mm)', 'float'],
          ['qflag', 'text'],
        ]);
        expect(table.toArray().map((r) => r.toJSON())).toEqual(records);
      }),
    );
  });

  it('gives the same table as the store answers with its records', async () => {
    const store = await openStore();
    const query = { names: ['LAKE MEAD', 'LAKE POWELL'], variables: ['NetE', 'E_volume'], start: '2020-06-01', end: '2020-06-10', alsoReturn: ['qflag'] };
    const records = await store.reservoirTimeseries(query);
    const table = tableFromIPC(tableToIPC(await store.reservoirTimeseriesTable(query)));
    expect(table.numRows).toBe(20);
    expect(table.toArray().map((r) => r.toJSON())).toEqual(records);
    // one records -> Arrow path: the same types as the stream's table() and the Parquet and Arrow answers
    const streamed = await store.streamReservoirTimeseries(query).table();
    expect(table.schema.fields.map((f) => `${f.name}: ${f.type}`)).toEqual(streamed.schema.fields.map((f) => `${f.name}: ${f.type}`));
  });
});
