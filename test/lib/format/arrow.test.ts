// Records as an Arrow table, read back after an Arrow IPC round trip (apache-arrow's own decoder) against the records.
import { DataType, tableFromIPC, tableToIPC } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordsToArrow } from '../../../lib/format/answer-table.js';
import { tableRecords } from '../../helpers.js';

describe('recordsToArrow', () => {
  it('holds one row per record and one column per key: numbers as Float64, text as UTF-8, dates as Date32, null where a value is null', () => {
    const row = fc.record({
      RES_NAME: fc.string({ minLength: 1, maxLength: 10 }),
      start_date: fc.constantFrom('2020-01-01', '2021-12-31'),
      'NetE (mm)': fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
      qflag: fc.oneof(fc.constantFrom('O', 'M'), fc.constant(null)),
    });
    const kind = (type: DataType): string =>
      DataType.isFloat(type)
        ? 'float'
        : DataType.isDate(type)
          ? 'date'
          : DataType.isUtf8(type) || (DataType.isDictionary(type) && DataType.isUtf8(type.dictionary))
            ? 'text'
            : String(type);
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 20 }), (records) => {
        const table = tableFromIPC(tableToIPC(recordsToArrow(records)));
        // every key a column, even where every value is null: a measurement Float64, an attribute text
        expect(table.schema.fields.map((f) => [f.name, kind(f.type)])).toEqual([
          ['RES_NAME', 'text'],
          ['start_date', 'date'],
          ['NetE (mm)', 'float'],
          ['qflag', 'text'],
        ]);
        expect(tableRecords(table)).toEqual(records);
      }),
    );
  });
});
