// Calendar periods and time words, against hand-worked calendars and date-fns.
import { addDays, differenceInCalendarDays, parseISO, sub } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDay } from '../../../lib/dates.js';
import { durationStart, periodsOf, resolveRange } from '../../../lib/query/periods.js';
import { day } from '../../helpers.js';

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

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe('durationStart', () => {
  it('counts a duration back from the day after the end: P30D is 30 days, P1M a calendar month, P1Y a year', () => {
    const start = (text: string, end: string) => formatDay(durationStart(text, day(end), 'start_date'));
    expect(start('P30D', '2021-12-31')).toBe('2021-12-02');
    expect(start('P1D', '2021-12-31')).toBe('2021-12-31');
    expect(start('P1M', '2021-02-28')).toBe('2021-02-01');
    expect(start('P1Y', '2021-12-31')).toBe('2021-01-01');
    expect(start('P1Y', '2020-02-28')).toBe('2019-02-28'); // the day after is 2020-02-29; 2019 has none: clamped, as date-fns does
    expect(start('P2W', '2020-03-01')).toBe('2020-02-17');
    expect(start('P1Y2M3D', '2021-06-30')).toBe('2020-04-28');
    expect(start('P1M', '2021-03-30')).toBe('2021-02-28'); // the day after is 03-31; February has no 31st: clamped to 02-28
  });

  it('agrees with date-fns on years, months and days', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 400 }),
        (offset, y, m, d) => {
          fc.pre(y + m + d > 0);
          const end = addDays(parseISO('1950-01-01'), offset);
          const after = addDays(end, 1);
          // years and months as one count of months, then days, as date-fns sub does (subYears then subMonths clamps twice:
          // P1Y1M back from 2016-02-29 gave 2015-01-28, not 2015-01-29)
          const expected = sub(after, { years: y, months: m, days: d });
          const text = `P${y ? `${y}Y` : ''}${m ? `${m}M` : ''}${d ? `${d}D` : ''}`;
          expect(formatDay(durationStart(text, day(iso(end)), 'start_date'))).toBe(iso(expected));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses anything but a date duration', () => {
    for (const text of ['P', 'PT1H', 'P1H', 'P-1D', 'p30d', 'P1.5D', 'P30D ', 'P1DT2H']) {
      expect(() => durationStart(text, day('2021-01-01'), 'start_date'), text).toThrow(/ISO 8601 duration/);
    }
    expect(() => durationStart('P999999Y', day('2021-01-01'), 'start_date')).toThrow(/before year 1/);
  });
});

describe('resolveRange', () => {
  const latest = () => day('2021-12-31');
  const range = (start: string, end: string) => {
    const r = resolveRange(start, end, latest);
    return [formatDay(r.startDay), formatDay(r.endDay)];
  };
  it('reads latest and durations, and plain dates as before', () => {
    expect(range('2020-01-01', '2020-01-31')).toEqual(['2020-01-01', '2020-01-31']);
    expect(range('P7D', 'latest')).toEqual(['2021-12-25', '2021-12-31']);
    expect(range('latest', 'latest')).toEqual(['2021-12-31', '2021-12-31']);
    expect(range('2021-12-01', 'latest')).toEqual(['2021-12-01', '2021-12-31']);
  });
  it('keeps every other word a date error naming its parameter', () => {
    expect(() => range('yesterday', '2020-01-01')).toThrow(/start_date must be a date in the form YYYY-MM-DD/);
    expect(() => range('2020-01-01', 'now')).toThrow(/end_date must be a date/);
    expect(() => range('2020-01-01', 'P1D')).toThrow(/end_date must be a date/);
    expect(() => range('2022-01-01', 'latest')).toThrow(/end_date 2021-12-31 is before start_date 2022-01-01/);
    expect(() => resolveRange('2020-01-01', 'latest', () => undefined)).toThrow(/holds no data/);
  });
});
