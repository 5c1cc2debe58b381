// One date of every name written in few strings (RecordBuilder.emitNames, row-bytes.ts's names emitter) is exactly
// JSON.stringify of the same records and csv-stringify of the same rows, over any names, values, units and seen rows.
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reservoirVariables } from '../../../lib/catalogue.js';
import { RecordBuilder } from '../../../lib/format/emit.js';
import type { CheckedVariable } from '../../../lib/format/emitter.js';
import { TEXT_PIECE_CHARS } from '../../../lib/format/text-pieces.js';
import { withKeys } from '../../../lib/query/plan.js';
import type { WireValue } from '../../../lib/types.js';
import { convert, roundValue } from '../../../lib/units.js';

const variable = fc.constantFrom(...reservoirVariables).map((v): CheckedVariable => ({ name: v.name, dataset: v.dataset, unit: v.spec.unit }));
const value = fc.oneof(
  fc.double(),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map((k) => k / 1e4),
  fc.constantFrom(NaN, -0, 0, 5e-324, 0.00005, -0.00004, -0.00015, 99999999999.9999, 99999999999.99995, 1e11, 1e21, Infinity, -Infinity),
);
const name = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('LAKE MEAD', 'O"NEIL, LAKE', 'two\nlines', 'back\\slash', 'Réservoir ñ 湖 🌊', '__proto__', '', 'lone \uD800 half'),
);
const shape = fc.record({
  variables: fc.uniqueArray(variable, { minLength: 0, maxLength: 6, selector: (v) => v.name }),
  system: fc.constantFrom('metric' as const, 'english' as const),
  held: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
  day: fc.integer({ min: -40_000, max: 80_000 }),
  // a second date asked of the same builder after the first, and rows on dates of their own (not one date a batch)
  nextDay: fc.integer({ min: -40_000, max: 80_000 }),
  mixed: fc.boolean(),
  rows: fc.array(fc.record({ name, seen: fc.boolean(), values: fc.array(value, { minLength: 6, maxLength: 6 }) }), { minLength: 1, maxLength: 30 }),
  cut: fc.tuple(fc.nat(), fc.nat()),
});

const isoDay = (day: number) => new Date(day * 864e5).toISOString().slice(0, 10);

describe('one date of every name as one string', () => {
  it('is JSON.stringify of the records and csv-stringify of the rows, asked once, again from the first name and on another date', () => {
    fc.assert(
      fc.property(shape, ({ variables: checked, system, held, day: firstDay, nextDay, mixed, rows, cut }) => {
        const variables = withKeys(checked, system);
        const from = cut[0] % rows.length;
        const to = from + (cut[1] % (rows.length - from + 1));
        const names = rows.map((r) => r.name);
        const seen = Uint8Array.from(rows, (r) => (r.seen ? 1 : 0));
        const columns = variables.map((_, j) => (held[j] ? Float64Array.from(rows, (r) => r.values[j]!) : undefined));
        const [json, csv] = [new RecordBuilder('RES_NAME', variables, 'json'), new RecordBuilder('RES_NAME', variables, 'csv')];
        // the same columns asked from their first name twice more: the second such answer reads them laid row by row
        const asks: [number, number][] = [
          [firstDay, from],
          [firstDay, 0],
          [firstDay, 0],
          [nextDay, from],
        ];
        for (const [ask, [day, start]] of asks.entries()) {
          const days = Int32Array.from(rows, (_, i) => (mixed && ask === 3 ? day + (i % 3) : day));
          const [jsonOut, csvOut]: unknown[][] = [[], []];
          json.emitNames(jsonOut, names, seen, { days, columns }, start, to);
          csv.emitNames(csvOut, names, seen, { days, columns }, start, to);
          const expected = expectedText(variables, held, rows, days, start, to);
          expect(jsonOut.join(',')).toBe(expected.json);
          expect(csvOut.join('')).toBe(expected.csv);
        }
      }),
      { numRuns: 600 },
    );

    // the records, made independently: one object per seen row, keys in order, values converted and rounded
    function expectedText(
      variables: ReturnType<typeof withKeys>,
      held: boolean[],
      rows: { name: string; seen: boolean; values: number[] }[],
      days: Int32Array,
      from: number,
      to: number,
    ): { json: string; csv: string } {
      const records = rows.slice(from, to).flatMap((row, k) => {
        if (!row.seen) return [];
        const day = days[from + k]!;
        const fields: [string, WireValue][] = [
          ['RES_NAME', row.name],
          ['start_date', isoDay(day)],
          ['end_date', isoDay(day)],
          ...variables.map((v, j): [string, WireValue] => {
            const converted = held[j] ? convert(row.values[j]!, v) : NaN;
            return [v.key, converted !== converted ? null : roundValue(converted)];
          }),
        ];
        return [{ record: Object.fromEntries(fields), csv: fields.map(([, v]) => v) }];
      });
      const json = JSON.stringify(records.map((r) => r.record)).slice(1, -1);
      const csv =
        records.length === 0
          ? ''
          : stringify(
              records.map((r) => r.csv),
              { cast: { number: String } },
            );
      return { json, csv };
    }
  });

  it('makes one string of a batch of names, not one a name', () => {
    const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'metric');
    const names = ['A', 'B "quoted"', 'C', 'Réservoir 湖'];
    const block = { days: new Int32Array(4).fill(20_000), columns: [Float64Array.of(1.23456, NaN, 3, -0)] };
    for (const kind of ['json', 'csv'] as const) {
      const out: unknown[] = [];
      new RecordBuilder('RES_NAME', variables, kind).emitNames(out, names, Uint8Array.of(1, 1, 0, 1), block, 0, 4);
      expect(out).toHaveLength(1);
    }
  });

  it('cuts a batch of 20,000 names into strings of at most TEXT_PIECE_CHARS and a row, at rows', () => {
    const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'metric');
    const names = Array.from({ length: 20_000 }, (_, i) => `LAKE ${i}`);
    const values = Float64Array.from(names, (_, i) => i / 7);
    const block = { days: new Int32Array(names.length).fill(20_000), columns: [values] };
    const seen = new Uint8Array(names.length).fill(1);
    const records = names.map((name, i) => ({ RES_NAME: name, start_date: isoDay(20_000), end_date: isoDay(20_000), 'NetE (mm)': roundValue(i / 7) }));
    for (const kind of ['json', 'csv'] as const) {
      const out: string[] = [];
      new RecordBuilder('RES_NAME', variables, kind).emitNames(out, names, seen, block, 0, names.length);
      expect(out.length).toBeGreaterThan(10);
      expect(Math.max(...out.map((t) => t.length))).toBeLessThanOrEqual(TEXT_PIECE_CHARS + 200);
      if (kind === 'json') expect(out.join(',')).toBe(JSON.stringify(records).slice(1, -1));
      else expect(out.every((t) => t.endsWith('\n'))).toBe(true); // whole rows; their text: the property above
    }
  });
});
