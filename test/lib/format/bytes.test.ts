// JSON and CSV text written as bytes (bytes.ts) from a block's frame is exactly JSON.stringify of the same records, and
// exactly what csv-stringify writes for the same rows, over any values: NaN, infinities, -0, tiny and huge numbers,
// unicode names and attributes, English units, also_return attributes and day flags.
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reservoirVariables, stationVariableNames, stationVariables } from '../../../lib/catalogue.js';
import { TEXT_PIECE_CHARS } from '../../../lib/format/bytes.js';
import { blockFrame } from '../../../lib/format/frame.js';
import { frameText } from '../../../lib/format/frame-text.js';
import type { CheckedVariable } from '../../../lib/format/variable.js';
import { withKeys } from '../../../lib/query/plan.js';
import type { WireValue } from '../../../lib/types.js';
import { convert, roundValue } from '../../../lib/units.js';

const reservoirVariable = fc.constantFrom(...reservoirVariables).map((v): CheckedVariable => ({ name: v.name, dataset: v.dataset, unit: v.spec.unit }));
const stationVariable = fc.constantFrom(...stationVariableNames).map((name): CheckedVariable => ({ name, dataset: null, unit: stationVariables[name].unit }));

// doubles of every kind, the wire's 4-decimal values, and the edges of formatNumber's fast path
const value = fc.oneof(
  fc.double(),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map((k) => k / 1e4),
  fc.constantFrom(
    NaN,
    -0,
    0,
    5e-324,
    -1e-9,
    0.00005,
    -0.00015,
    99999999999.9999,
    99999999999.99995, // rounds up to 1e11 (the nearest double of 99999999999.99996)
    -0.00004, // rounds to -0, written 0
    -12345678.90125,
    1e11,
    123456789012.3456,
    1e15,
    1e21,
    1.7976931348623157e308,
    Infinity,
    -Infinity,
  ),
);
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }), // any code point (the constants below add lone surrogates)
  fc.constantFrom('LAKE MEAD', 'O"NEIL, LAKE', 'two\nlines', 'Réservoir ñ 湖 🌊', '__proto__', '', 'lone \uD800 half', '\uDFFF'),
);
const attribute = fc.oneof(text, value, fc.constant(null));
const shape = fc.record({
  station: fc.boolean(),
  reservoirVars: fc.uniqueArray(reservoirVariable, { minLength: 0, maxLength: 6, selector: (v) => v.name }),
  stationVars: fc.uniqueArray(stationVariable, { minLength: 0, maxLength: 6, selector: (v) => v.name }),
  system: fc.constantFrom('metric' as const, 'english' as const),
  extra: fc.dictionary(fc.constantFrom('qflag', 'STATE', 'LAT', 'ünï "code"', '__proto__', 'a,b', '7'), attribute, { maxKeys: 4 }),
  name: text,
  held: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  rows: fc.array(
    fc.record({
      day: fc.oneof(fc.integer({ min: -40_000, max: 80_000 }), fc.integer({ min: 18_000, max: 21_000 })),
      values: fc.array(value, { minLength: 6, maxLength: 6 }),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  cut: fc.tuple(fc.nat(), fc.nat()),
});

const isoDay = (day: number) => new Date(day * 864e5).toISOString().slice(0, 10);

describe('text written as bytes from the columns', () => {
  it('is JSON.stringify of the records and csv-stringify of the rows, over any values, names, units and attributes', () => {
    fc.assert(
      fc.property(shape, ({ station, reservoirVars, stationVars, system, extra, name, held, rows, cut }) => {
        const nameKey = station ? 'STA_NAME' : 'RES_NAME';
        const variables = withKeys(station ? stationVars : reservoirVars, system);
        const extraKeys = Object.keys(extra).filter((k) => k !== nameKey);
        const from = cut[0] % rows.length;
        const to = from + (cut[1] % (rows.length - from + 1));
        const block = {
          days: Int32Array.from(rows, (r) => r.day),
          columns: variables.map((_, j) => (held[j] ? Float64Array.from(rows, (r) => r.values[j]!) : undefined)),
        };
        // the records, made independently: one object per row, keys in order, values converted and rounded
        const records = rows.slice(from, to).map((row) => {
          const record: Record<string, WireValue> = {};
          const entries: [string, WireValue][] = [
            [nameKey, name],
            ['start_date', isoDay(row.day)],
            ['end_date', isoDay(row.day)],
            ...variables.map((v, j): [string, WireValue] => {
              const converted = held[j] ? convert(row.values[j]!, v) : NaN;
              return [v.key, converted !== converted ? null : roundValue(converted)];
            }),
            ...extraKeys.map((k): [string, WireValue] => [k, extra[k]!]),
          ];
          for (const [k, v] of entries) Object.defineProperty(record, k, { value: v, enumerable: true, writable: true, configurable: true });
          return { record, fields: entries.map(([, v]) => v) };
        });
        const expectedJson = JSON.stringify(records.map((r) => r.record)).slice(1, -1);
        const expectedCsv =
          records.length === 0
            ? ''
            : stringify(
                records.map((r) => r.fields),
                { cast: { number: String } },
              );

        const frame = blockFrame(nameKey, variables, name, block, extra, from, to);
        const header = [nameKey, 'start_date', 'end_date', ...variables.map((v) => v.key), ...extraKeys];
        expect(frameText(frame, 'json', header).join(',')).toBe(expectedJson);
        expect(frameText(frame, 'csv', header).join('')).toBe(expectedCsv);
      }),
      { numRuns: 800 },
    );
  });

  it('writes unicode names and keys, "__proto__" and -0 as JSON.stringify does (-0 as 0)', () => {
    const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'english');
    const block = { days: Int32Array.of(18_262, 18_263), columns: [Float64Array.of(25.4, NaN)] };
    const frame = blockFrame('RES_NAME', variables, 'Réservoir 湖', block, { 'ünï "code"': 'x', ['__proto__']: -0 }, 0, 2);
    expect(frameText(frame, 'json', [])).toEqual([
      '{"RES_NAME":"Réservoir 湖","start_date":"2020-01-01","end_date":"2020-01-01","NetE (in)":1,"ünï \\"code\\"":"x","__proto__":0},' +
        '{"RES_NAME":"Réservoir 湖","start_date":"2020-01-02","end_date":"2020-01-02","NetE (in)":null,"ünï \\"code\\"":"x","__proto__":0}',
    ]);
  });

  it('writes a block of 8 MB of JSON in pieces, then small ones again', () => {
    const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'metric');
    const rows = 80_000;
    const days = Int32Array.from({ length: rows }, (_, i) => i - 30_000);
    const values = Float64Array.from({ length: rows }, (_, i) => (i % 7 === 0 ? NaN : Math.sin(i) * 10 ** (i % 9)));
    for (const [from, to] of [
      [0, rows],
      [5, 7],
      [0, rows],
    ]) {
      const out = frameText(blockFrame('RES_NAME', variables, 'BIG LAKE', { days, columns: [values] }, {}, from!, to!), 'json', []);
      const records = Array.from({ length: to! - from! }, (_, k) => {
        const v = values[from! + k]!;
        return { RES_NAME: 'BIG LAKE', start_date: isoDay(days[from! + k]!), end_date: isoDay(days[from! + k]!), 'NetE (mm)': v !== v ? null : roundValue(v) };
      });
      expect(out.join(',')).toBe(JSON.stringify(records).slice(1, -1));
      // in strings of at most TEXT_PIECE_CHARS and a row (a larger string is a page of V8's own: bytes.ts)
      expect(Math.max(...out.map((t) => t.length))).toBeLessThanOrEqual(TEXT_PIECE_CHARS + 200);
    }
  });

  it('keeps each day its own flags', () => {
    const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'metric');
    const block = { days: Int32Array.of(20_000, 20_001, 20_002), columns: [Float64Array.of(1, -0, 2.00005)] };
    const flags = new Map([['qflag' as const, Float64Array.of(0, 0, NaN)]]);
    const out = frameText(blockFrame('RES_NAME', variables, 'A', block, { qflag: 'S' }, 0, 3, flags), 'json', []);
    const record = (day: number, v: number, q: string) => ({ RES_NAME: 'A', start_date: isoDay(day), end_date: isoDay(day), 'NetE (mm)': v, qflag: q });
    expect(`[${out.join(',')}]`).toBe(JSON.stringify([record(20_000, 1, 'O'), record(20_001, 0, 'O'), record(20_002, 2.0001, 'S')]));
  });
});
