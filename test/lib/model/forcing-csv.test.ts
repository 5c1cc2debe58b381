// The forcing CSV reader: any forcing written with csv-stringify reads back the same (fast-check), and every bad cell
// is refused naming its line and column.
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ForcingError, parseForcingCsv } from '../../../lib/model/forcing-csv.js';
import { forcingVariables } from '../../../lib/model/run.js';

const dates = (start: number, n: number) => Array.from({ length: n }, (_, i) => new Date((start + i) * 86_400_000).toISOString().slice(0, 10));

describe('the forcing CSV reader', () => {
  it('reads back what csv-stringify wrote: any columns, any order, missing cells as NaN', () => {
    fc.assert(
      fc.property(
        fc.subarray([...forcingVariables], { minLength: 1 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: -20_000, max: 40_000 }),
        fc.boolean(),
        fc.array(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }), { nil: null }), {
          minLength: 40 * 12,
          maxLength: 40 * 12,
        }),
        (columns, n, start, crlf, cells) => {
          const date = dates(start, n);
          const rows = date.map((d, i) => [d, ...columns.map((_, j) => cells[i * columns.length + j] ?? '')]);
          const text = stringify([['date', ...columns], ...rows], { record_delimiter: crlf ? 'windows' : 'unix' });
          const read = parseForcingCsv(text);
          expect(read.date).toEqual(date);
          columns.forEach((name, j) => {
            const column = read[name]!;
            expect(column).toHaveLength(n);
            for (let i = 0; i < n; i++) {
              const cell = cells[i * columns.length + j];
              if (cell === null || cell === undefined) expect(Number.isNaN(column[i]!)).toBe(true);
              else expect(column[i]).toBe(cell === 0 ? 0 : cell); // -0 is written as 0
            }
          });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('names the line and column of a bad cell', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.constantFrom('abc', '1,5', '0x10', 'Infinity', '1e999', '--1', '.'), (row, bad) => {
        const n = 20;
        const lines = ['date,srad,vpd_kpa', ...dates(18_000, n).map((d) => `${d},200,1.5`)];
        lines[row] = `${dates(18_000, n)[row - 1]},"${bad}",1.5`;
        const error = (() => {
          try {
            parseForcingCsv(lines.join('\n'));
          } catch (e) {
            return e as ForcingError;
          }
        })();
        expect(error).toBeInstanceOf(ForcingError);
        expect(error!.line).toBe(row + 1);
        expect(error!.column).toBe('srad');
        expect(error!.message).toContain(`line ${row + 1}, column srad`);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses dates that are not consecutive days, or not dates, on their line', () => {
    const text = (dates: string[]) => ['date,srad', ...dates.map((d) => `${d},1`)].join('\n');
    const at = (t: string) => {
      try {
        parseForcingCsv(t);
      } catch (e) {
        return [(e as ForcingError).line, (e as ForcingError).column, (e as Error).message];
      }
    };
    expect(at(text(['2020-01-01', '2020-01-03']))).toEqual([3, 'date', expect.stringContaining('consecutive')]);
    expect(at(text(['2020-01-01', '2020-01-01']))).toEqual([3, 'date', expect.stringContaining('consecutive')]);
    expect(at(text(['2020-02-28', '2020-02-29', '2020-02-30']))).toEqual([4, 'date', expect.stringContaining('does not exist')]);
    expect(at(text(['1/1/2020']))).toEqual([2, 'date', expect.stringContaining('YYYY-MM-DD')]);
    expect(at('srad\n1')).toEqual([1, undefined, expect.stringContaining('no date column')]);
    expect(at('')).toEqual([1, undefined, expect.stringContaining('empty')]);
    expect(at('date,srad\n2020-01-01,1,2')).toEqual([2, undefined, expect.any(String)]);
  });
});
