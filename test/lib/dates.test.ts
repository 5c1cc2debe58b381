import { isMatch } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDay, parseDay, parseRange, yearOfDay } from '../../lib/dates.js';
import { InvalidParameterError } from '../../lib/errors.js';

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
