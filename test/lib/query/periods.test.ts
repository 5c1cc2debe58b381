// Calendar periods, against hand-worked calendars and date-fns.
import { addDays, differenceInCalendarDays, parseISO } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDay } from '../../../lib/dates.js';
import { periodsOf } from '../../../lib/query/periods.js';
import { day } from '../../helpers.js';

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

const spans = (start: string, end: string, interval: Parameters<typeof periodsOf>[2]) =>
  periodsOf(day(start), day(end), interval).map((p) => [formatDay(p.start), formatDay(p.end), p.end - p.start + 1, p.whole]);

describe('periodsOf', () => {
  it('cuts water years at October 1 and names them by the year they end in', () => {
    expect(spans('2019-09-15', '2020-10-10', 'water-year')).toEqual([
      ['2019-09-15', '2019-09-30', 16, false], // water year 2019, clipped
      ['2019-10-01', '2020-09-30', 366, true], // water year 2020 holds February 29, 2020
      ['2020-10-01', '2020-10-10', 10, false],
    ]);
    expect(spans('2020-10-01', '2021-09-30', 'water-year')).toEqual([['2020-10-01', '2021-09-30', 365, true]]);
    expect(spans('2021-09-30', '2021-10-01', 'water-year')).toEqual([
      ['2021-09-30', '2021-09-30', 1, false],
      ['2021-10-01', '2021-10-01', 1, false],
    ]);
  });

  it('gives leap years 366 days and February 29 days every fourth year but 1900 and 2100', () => {
    expect(spans('2020-02-01', '2020-03-01', 'monthly')).toEqual([
      ['2020-02-01', '2020-02-29', 29, true],
      ['2020-03-01', '2020-03-01', 1, false],
    ]);
    expect(spans('2021-02-01', '2021-02-28', 'monthly')).toEqual([['2021-02-01', '2021-02-28', 28, true]]);
    expect(spans('1900-02-01', '1900-02-28', 'monthly')).toEqual([['1900-02-01', '1900-02-28', 28, true]]);
    expect(spans('2000-02-01', '2000-02-29', 'monthly')).toEqual([['2000-02-01', '2000-02-29', 29, true]]);
    expect(spans('2019-12-31', '2021-01-01', 'annual')).toEqual([
      ['2019-12-31', '2019-12-31', 1, false],
      ['2020-01-01', '2020-12-31', 366, true],
      ['2021-01-01', '2021-01-01', 1, false],
    ]);
  });

  it('covers any range exactly once with periods that agree with date-fns', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40_000 }),
        fc.integer({ min: 0, max: 900 }),
        fc.constantFrom('monthly', 'annual', 'water-year' as const),
        (offset, length, interval) => {
          const start = addDays(parseISO('1950-01-01'), offset);
          const periods = periodsOf(day(iso(start)), day(iso(start)) + length, interval);
          expect(periods[0]!.start).toBe(day(iso(start)));
          expect(periods.at(-1)!.end).toBe(day(iso(start)) + length);
          for (let i = 0; i < periods.length; i++) {
            const p = periods[i]!;
            if (i > 0) expect(p.start).toBe(periods[i - 1]!.end + 1);
            const first = parseISO(formatDay(p.start));
            const last = parseISO(formatDay(p.end));
            // every day of a period is in the same month / year / water year, and the next day is not
            const key = (d: Date) =>
              interval === 'monthly'
                ? `${d.getFullYear()}-${d.getMonth()}`
                : interval === 'annual'
                  ? `${d.getFullYear()}`
                  : `${d.getMonth() >= 9 ? d.getFullYear() + 1 : d.getFullYear()}`;
            expect(key(first)).toBe(key(last));
            if (i < periods.length - 1) expect(key(addDays(last, 1))).not.toBe(key(last));
            expect(differenceInCalendarDays(last, first)).toBe(p.end - p.start);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
