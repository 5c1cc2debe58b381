// Arrow vectors built from bytes, read back by apache-arrow after an IPC round trip (its own decoder): values, nulls,
// UTF-8 text and inferred metadata types against the plain inputs.
import { DataType, Table, tableFromIPC, tableToIPC, type Vector } from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WriterMisuseError } from '../../../lib/errors.js';
import type { MetadataRow } from '../../../lib/types.js';
import { roundValue } from '../../../lib/units.js';
import { flagVector, floatVector, metadataTable, utf8Vector } from '../../../lib/writer/vectors.js';

// A vector through Arrow's IPC format and back: what another Arrow reader would see.
function readBack(vector: Vector): unknown[] {
  const table = tableFromIPC(tableToIPC(new Table({ v: vector })));
  return Array.from({ length: table.numRows }, (_, i) => table.getChild('v')!.get(i));
}

describe('floatVector', () => {
  it('holds each value rounded to 4 decimals (or as it is), and null where it is NaN', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(NaN), fc.double({ min: -10, max: 10, noNaN: true })), {
          maxLength: 40,
        }),
        fc.boolean(),
        (values, round) => {
          const back = readBack(floatVector(Float64Array.from(values), round));
          const expected = values.map((v) => (Number.isNaN(v) ? null : round ? roundValue(v) : v));
          return back.length === values.length && back.every((v, i) => Object.is(v, expected[i]) || (v === 0 && expected[i] === 0));
        },
      ),
    );
  });

  it('refuses infinities: the store holds finite numbers only', () => {
    expect(() => floatVector(Float64Array.of(1, -Infinity))).toThrow(WriterMisuseError);
  });
});

describe('utf8Vector', () => {
  it('holds every string, repeated runs and non-ASCII text included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('LAKE MEAD', 'ÉCLUSE', '', 'a', '湖', 'O"NEIL, LAKE'), { maxLength: 30 }),
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 10 }),
        (runs, any) => {
          const values = [...runs, ...any];
          return JSON.stringify(readBack(utf8Vector(values))) === JSON.stringify(values);
        },
      ),
    );
  });
});

describe('flagVector', () => {
  it('holds the text of each code from the FAQ lists, null for NaN; refuses a code out of the list', () => {
    const qflags = ['O', 'M', 'S', 'R'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(NaN)), { maxLength: 30 }), (codes) => {
        return (
          JSON.stringify(readBack(flagVector('qflag', Float64Array.from(codes)))) === JSON.stringify(codes.map((c) => (Number.isNaN(c) ? null : qflags[c])))
        );
      }),
    );
    // the FAQ's three statuses, and Computed where evap's model made the day (docs/model.md)
    expect(readBack(flagVector('status', Float64Array.of(2, 0, 1, 3)))).toEqual(['Final', 'Early', 'Provisional', 'Computed']);
    expect(() => flagVector('status', Float64Array.of(4))).toThrow(WriterMisuseError);
  });
});

describe('metadataTable', () => {
  it('sorts rows by name, puts the name first, and types a column Float64 only when every value is a number or null', () => {
    const rows: MetadataRow[] = [
      { RES_NAME: 'b', LAT: 40.123456789, STATE: 'CO', CODE: 7 },
      { RES_NAME: 'A', LAT: null, STATE: null, CODE: 'x7' },
      { RES_NAME: 'a', STATE: 'UT', EXTRA: 1 },
    ];
    const table = tableFromIPC(tableToIPC(metadataTable(rows, 'RES_NAME')));
    expect(table.schema.fields.map((f) => f.name)).toEqual(['RES_NAME', 'LAT', 'STATE', 'CODE', 'EXTRA']);
    expect(table.schema.fields.map((f) => (DataType.isFloat(f.type) ? 'float' : DataType.isUtf8(f.type) ? 'utf8' : 'other'))).toEqual([
      'utf8',
      'float',
      'utf8',
      'utf8',
      'float',
    ]);
    // code-unit order, as the manifest compares names: 'A' < 'a' < 'b'
    expect(table.toArray().map((r) => r.toJSON())).toEqual([
      { RES_NAME: 'A', LAT: null, STATE: null, CODE: 'x7', EXTRA: null },
      { RES_NAME: 'a', LAT: null, STATE: 'UT', CODE: null, EXTRA: 1 },
      { RES_NAME: 'b', LAT: 40.123456789, STATE: 'CO', CODE: '7', EXTRA: null }, // metadata keeps its digits
    ]);
  });
});
