// One date of every name as frames (dayFrame: the names as a label column of the snapshot's list, whose text is kept)
// written in few strings is exactly JSON.stringify of the same records and csv-stringify of the same rows, over any
// names, values, units and names held on the day.
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reservoirVariables } from '../../../lib/catalogue.js';
import { TEXT_PIECE_CHARS } from '../../../lib/format/bytes.js';
import { frameText } from '../../../lib/format/frame-text.js';
import type { CheckedVariable, ResolvedVariable } from '../../../lib/format/variable.js';
import { dayFrame } from '../../../lib/query/day-frame.js';
import { type Plan, withKeys } from '../../../lib/query/plan.js';
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
  // a second date asked after the first
  nextDay: fc.integer({ min: -40_000, max: 80_000 }),
  rows: fc.array(fc.record({ name, seen: fc.boolean(), values: fc.array(value, { minLength: 6, maxLength: 6 }) }), { minLength: 1, maxLength: 30 }),
  cut: fc.tuple(fc.nat(), fc.nat()),
});

const isoDay = (day: number) => new Date(day * 864e5).toISOString().slice(0, 10);

// the plan of every name on `day` with no attributes: what dayFrame reads of one
const planOn = (variables: ResolvedVariable[], day: number) =>
  ({ nameKey: 'RES_NAME', columns: variables, startDay: day, attributes: [], attach: () => ({}) }) as unknown as Plan;

// rows [from, to) of the names held (seen) as frames of batches of `batch` names, written as the stream writes them
function written(
  variables: ResolvedVariable[],
  day: number,
  names: readonly string[],
  seen: Uint8Array,
  columns: (Float64Array | undefined)[],
  from: number,
  to: number,
  batch = 1000,
) {
  const [json, csv]: string[][] = [[], []];
  for (let start = from; start < to; start += batch) {
    const at = Int32Array.from({ length: Math.min(to, start + batch) - start }, (_, k) => start + k).filter((i) => seen[i] === 1);
    if (at.length === 0) continue;
    const frame = dayFrame(planOn(variables, day), names, at, columns, new Map());
    json.push(...frameText(frame, 'json', []));
    csv.push(...frameText(frame, 'csv', ['RES_NAME', 'start_date', 'end_date', ...variables.map((v) => v.key)]));
  }
  return { json, csv };
}

describe('one date of every name as one string', () => {
  it('is JSON.stringify of the records and csv-stringify of the rows, asked once, again from the first name and on another date', () => {
    fc.assert(
      fc.property(shape, ({ variables: checked, system, held, day: firstDay, nextDay, rows, cut }) => {
        const variables = withKeys(checked, system);
        const from = cut[0] % rows.length;
        const to = from + (cut[1] % (rows.length - from + 1));
        const names = rows.map((r) => r.name);
        const seen = Uint8Array.from(rows, (r) => (r.seen ? 1 : 0));
        const columns = variables.map((_, j) => (held[j] ? Float64Array.from(rows, (r) => r.values[j]!) : undefined));
        // the same columns asked from their first name twice more (the names' text is then kept), then on another day
        const asks: [number, number][] = [
          [firstDay, from],
          [firstDay, 0],
          [firstDay, 0],
          [nextDay, from],
        ];
        for (const [day, start] of asks) {
          const days = new Int32Array(rows.length).fill(day);
          const out = written(variables, day, names, seen, columns, start, to, 1 + (cut[0] % 7));
          const expected = expectedText(variables, held, rows, days, start, to);
          expect(out.json.join(',')).toBe(expected.json);
          expect(out.csv.join('')).toBe(expected.csv);
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
    const out = written(variables, 20_000, names, Uint8Array.of(1, 1, 0, 1), [Float64Array.of(1.23456, NaN, 3, -0)], 0, 4);
    expect([out.json.length, out.csv.length]).toEqual([1, 1]);
  });

  it('cuts a batch of 20,000 names into strings of at most TEXT_PIECE_CHARS and a row, at rows', () => {
    const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'metric');
    const names = Array.from({ length: 20_000 }, (_, i) => `LAKE ${i}`);
    const values = Float64Array.from(names, (_, i) => i / 7);
    const seen = new Uint8Array(names.length).fill(1);
    const records = names.map((name, i) => ({ RES_NAME: name, start_date: isoDay(20_000), end_date: isoDay(20_000), 'NetE (mm)': roundValue(i / 7) }));
    const written20k = written(variables, 20_000, names, seen, [values], 0, names.length, names.length);
    for (const kind of ['json', 'csv'] as const) {
      const out = written20k[kind];
      expect(out.length).toBeGreaterThan(10);
      expect(Math.max(...out.map((t) => t.length))).toBeLessThanOrEqual(TEXT_PIECE_CHARS + 200);
      if (kind === 'json') expect(out.join(',')).toBe(JSON.stringify(records).slice(1, -1));
      else expect(out.every((t) => t.endsWith('\n'))).toBe(true); // whole rows; their text: the property above
    }
  });
});
