// Dates and the time words of queries (latest, durations), against date-fns.
import { addDays, isMatch, parseISO, sub } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { durationStart, formatDay, parseDay, parseRange, resolveRange, yearOfDay } from '../../lib/dates.js';
import { InvalidParameterError } from '../../lib/errors.js';
import { day } from '../helpers.js';

describe('parseDay', () => {
  it('round-trips every calendar date through formatDay', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true }), (d) => {
        const text = d.toISOString().slice(0, 10);
        return formatDay(parseDay(text, 'date')) === text;
      }),
    );
  });

  it('accepts exactly the YYYY-MM-DD strings that date-fns calls calendar dates', () => {
    const digits = (n: number) => fc.integer({ min: 0, max: 10 ** n - 1 }).map((v) => String(v).padStart(n, '0'));
    fc.assert(
      fc.property(digits(4), digits(2), digits(2), (y, m, d) => {
        const text = `${y}-${m}-${d}`;
        let accepted = true;
        try {
          parseDay(text, 'date');
        } catch {
          accepted = false;
        }
        return accepted === isMatch(text, 'yyyy-MM-dd');
      }),
      { numRuns: 2000 },
    );
    expect(formatDay(parseDay('0099-03-01', 'date'))).toBe('0099-03-01');
  });

  it("names every epoch day as JavaScript's Date does, in and beyond years 0000-9999", () => {
    const ms = 86_400_000;
    const days = fc.oneof(fc.integer({ min: -800_000, max: 3_000_000 }), fc.integer({ min: -100_000_000, max: 100_000_000 }));
    fc.assert(
      fc.property(days, (d) => {
        const date = new Date(d * ms);
        expect(formatDay(d)).toBe(date.toISOString().slice(0, -14));
        expect(yearOfDay(d)).toBe(date.getUTCFullYear());
      }),
      { numRuns: 5000 },
    );
  });

  it('counts days from 1970-01-01', () => {
    expect(parseDay('1970-01-01', 'date')).toBe(0);
    expect(parseDay('2020-01-01', 'date')).toBe(18262);
    expect(yearOfDay(18262)).toBe(2020);
    expect(yearOfDay(18261)).toBe(2019);
  });

  it.each(['2021-02-30', '2021-02-29', '2021-13-01', '2021-00-10', '0000-01-01'])('rejects the impossible date %s', (text) => {
    expect(() => parseDay(text, 'start_date')).toThrow(/does not exist/);
  });

  it.each(['2021-1-1', '99999-01-01', '', '2021-01-01T00:00', '../../etc/passwd', '20210101', ' 2021-01-01'])('rejects the malformed date %j', (text) => {
    expect(() => parseDay(text, 'date')).toThrow(InvalidParameterError);
  });

  it('rejects any string that is not YYYY-MM-DD, naming the parameter', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!/^\d{4}-\d{2}-\d{2}$/.test(s));
        try {
          parseDay(s, 'end_date');
          return false;
        } catch (error) {
          return error instanceof InvalidParameterError && error.parameter === 'end_date';
        }
      }),
    );
  });
});

describe('parseRange', () => {
  it('accepts a one-day range and rejects an end before the start', () => {
    expect(parseRange('2020-01-01', '2020-01-01')).toEqual({ startDay: 18262, endDay: 18262 });
    expect(() => parseRange('2020-01-02', '2020-01-01')).toThrow(/end_date 2020-01-01 is before start_date 2020-01-02/);
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
