// The read path's helpers against plain oracles: date and name overlap by enumerating days and names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileHoldsNames, overlaps } from '../../../lib/query/timeseries.js';

const date = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);

describe('overlaps', () => {
  it('says whether a file and a range share a day, as enumerating their days does', () => {
    const span = fc.tuple(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 70 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    fc.assert(
      fc.property(span, span, ([fileStart, fileEnd], [start, end]) => {
        let shared = false;
        for (let d = fileStart; d <= fileEnd; d++) shared ||= d >= start && d <= end;
        expect(overlaps({ start: date(fileStart), end: date(fileEnd) }, date(start), date(end))).toBe(shared);
      }),
    );
  });

  it('says no for an empty file (no dates)', () => {
    expect(overlaps({ start: '', end: '' }, '2020-01-01', '2020-12-31')).toBe(false);
  });
});

describe('fileHoldsNames', () => {
  const letters = ['A', 'B', 'C', 'D', 'E'];
  const pair = <T>(of: fc.Arbitrary<T>, order: (a: T, b: T) => number) => fc.tuple(of, of).map(([a, b]): [T, T] => (order(a, b) <= 0 ? [a, b] : [b, a]));
  const names = pair(fc.constantFrom(...letters), (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const days = pair(fc.integer({ min: 0, max: 20 }), (a, b) => a - b);

  it('says whether a file may hold one of the names on one of the days, as enumerating both does', () => {
    fc.assert(
      fc.property(names, days, names, days, ([fileFirst, fileLast], [fileStart, fileEnd], [first, last], [start, end]) => {
        const sharedName = letters.some((n) => n >= fileFirst && n <= fileLast && n >= first && n <= last);
        let sharedDay = false;
        for (let d = fileStart; d <= fileEnd; d++) sharedDay ||= d >= start && d <= end;
        const file = { first: fileFirst, last: fileLast, start: date(fileStart), end: date(fileEnd) };
        expect(fileHoldsNames(file, first, last, date(start), date(end))).toBe(sharedName && sharedDay);
      }),
    );
  });
});
