import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber, recordsToCsv } from '../../../lib/format/csv.js';
import { csvTextChunks } from '../../../lib/format/stream.js';
import type { WireRecord } from '../../../lib/types.js';

const columns = ['RES_NAME', 'start_date', 'NetE (mm)', 'note'];
const record = fc.record({
  RES_NAME: fc.string({ unit: 'grapheme' }),
  start_date: fc.constantFrom('2020-01-01', '2021-12-31'),
  'NetE (mm)': fc.oneof(
    fc.constant(null),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => Math.round(v * 1e4) / 1e4),
  ),
  note: fc.oneof(fc.constant(null), fc.string(), fc.constantFrom('a,b', 'say "hi"', 'two\nlines', '\r')),
}) as fc.Arbitrary<WireRecord>;

describe('recordsToCsv', () => {
  it('writes exactly what csv-stringify writes for the same records', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 20 }), (records) => {
        const reference = stringify(records as WireRecord[], { header: true, columns, cast: { number: String } });
        return recordsToCsv(records, columns) === reference;
      }),
    );
  });

  it('parses back to the records (numbers as their shortest text, gaps empty)', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 20 }), (records) => {
        const back = parse(recordsToCsv(records, columns), { columns: true }) as Record<string, string>[];
        return back.every((row, i) => columns.every((c) => row[c] === (records[i]![c] === null ? '' : String(records[i]![c]))));
      }),
    );
  });

  it('quotes a header with a comma and streams the header first', async () => {
    expect(recordsToCsv([{ a: 1, 'b,c': 'x' }], ['a', 'b,c'])).toBe('a,"b,c"\n1,x\n');
    async function* batches() {
      yield ['1\n'];
      yield [];
      yield ['', '\n'];
    }
    const chunks: string[] = [];
    for await (const chunk of csvTextChunks(['a'], batches())) chunks.push(chunk);
    expect(chunks).toEqual(['a\n', '1\n', '\n']);
  });
});

describe('formatNumber', () => {
  it('writes what String() writes, for wire values and any other double', () => {
    const wire = fc.integer({ min: -(2 ** 52), max: 2 ** 52 }).map((k) => k / 1e4);
    fc.assert(
      fc.property(fc.oneof(wire, fc.double({ noNaN: true })), (v) => formatNumber(v) === String(v)),
      { numRuns: 20_000 },
    );
    for (const v of [0, -0, 0.0001, -0.0001, 1.5, 2490.0388, 99999999999.9999, 1e11, 123456789012.3456, 1e21, -7.1])
      expect(formatNumber(v), String(v)).toBe(String(v));
  });
});
