// Records with per-day flags against a plain loop: every record of the block made without flags, then each day's flag
// texts (from the public FAQ's lists) put in place of the name's attributes, or those attributes where a day has none.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlagColumn } from '../../../lib/flags.js';
import { RecordBuilder } from '../../../lib/format/emit.js';
import { emitWithFlags } from '../../../lib/query/day-flags.js';
import { withKeys } from '../../../lib/query/plan.js';
import type { WireRecord } from '../../../lib/types.js';
import { day } from '../../helpers.js';

const TEXTS: Record<FlagColumn, string[]> = { qflag: ['O', 'M', 'S', 'R'], status: ['Early', 'Provisional', 'Final'] };
const variables = withKeys([{ name: 'NetE', dataset: 'nete-volume-calcs', unit: 'mm' }], 'english');

// runs of equal codes are what emitWithFlags cuts a block into: few distinct codes make long runs
const codes = (column: FlagColumn, length: number) =>
  fc.array(fc.oneof(fc.integer({ min: 0, max: TEXTS[column].length - 1 }), fc.constant(NaN)), { minLength: length, maxLength: length });
const attribute = fc.option(fc.constantFrom('O', 'S', 'Final'), { nil: undefined });

const flagsCase = fc.integer({ min: 1, max: 25 }).chain((length) =>
  fc.record({
    values: fc.array(fc.oneof(fc.double({ min: -100, max: 100, noNaN: true }), fc.constant(NaN)), { minLength: length, maxLength: length }),
    qflag: fc.option(codes('qflag', length), { nil: undefined }), // undefined: the files hold no qflag column
    status: fc.option(codes('status', length), { nil: undefined }),
    columns: fc.subarray(['qflag', 'status'] as FlagColumn[]),
    metadataQflag: attribute,
    range: fc.tuple(fc.integer({ min: 0, max: length }), fc.integer({ min: 0, max: length })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
  }),
);

describe('emitWithFlags', () => {
  it("gives each record its own day's flags, else the name's attribute, else null", () => {
    fc.assert(
      fc.property(flagsCase, ({ values, qflag, status, columns, metadataQflag, range: [from, to] }) => {
        const block = { days: Int32Array.from(values, (_, i) => day('2020-12-20') + i), columns: [Float64Array.from(values)] };
        const extra: WireRecord = { STATE: 'CO', ...(metadataQflag === undefined ? {} : { qflag: metadataQflag }) };
        const dayCodes = { qflag, status };
        const flags = new Map(columns.map((c) => [c, dayCodes[c]] as const));
        for (const kind of ['records', 'csv'] as const) {
          const builder = new RecordBuilder('RES_NAME', variables, kind);
          // the oracle: every record made without flags, then one by one the flags of its day
          const plainRecords: WireRecord[] = [];
          new RecordBuilder('RES_NAME', variables, 'records').emit(plainRecords, 'X', block, extra, from, to);
          const expected = plainRecords.map((record, k) => {
            const out: WireRecord = { ...record };
            for (const column of columns) {
              const code = dayCodes[column]?.[from + k];
              out[column] = (code === undefined || Number.isNaN(code) ? undefined : TEXTS[column][code]) ?? extra[column] ?? null;
            }
            return out;
          });
          const out: unknown[] = [];
          emitWithFlags(builder, out, 'X', block, extra, flags, from, to);
          if (kind === 'records') expect(out).toEqual(expected);
          else {
            const csv = expected
              .map(
                (r) =>
                  `${Object.values(r)
                    .map((v) => (v === null ? '' : String(v)))
                    .join(',')}\n`,
              )
              .join('');
            expect(out.join('')).toBe(csv);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('emits a block in one piece when no flag is asked, in as many runs as the flags change otherwise', () => {
    const block = { days: Int32Array.from({ length: 6 }, (_, i) => i), columns: [new Float64Array(6)] };
    const builder = new RecordBuilder('RES_NAME', variables, 'csv');
    const none: unknown[] = [];
    emitWithFlags(builder, none, 'X', block, { qflag: 'O' }, new Map());
    const runs: unknown[] = [];
    emitWithFlags(builder, runs, 'X', block, { qflag: 'O' }, new Map([['qflag', Float64Array.of(0, 0, NaN, NaN, 1, 0)]]));
    expect([none.length, runs.length]).toEqual([1, 4]);
  });
});
