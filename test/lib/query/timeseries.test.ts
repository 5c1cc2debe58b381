// The read path's helpers against plain oracles: binary search by linear scan, date overlap by enumerating days.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bound, overlaps } from '../../../lib/query/timeseries.js';

describe('bound', () => {
  it('finds the first index at or after lo where the predicate turns false, as a linear scan does', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), fc.nat(), (raw, limit, start) => {
        const values = Int32Array.from(raw.sort((a, b) => a - b));
        const lo = start % (values.length + 1);
        let expected = lo;
        while (expected < values.length && values[expected]! < limit) expected++;
        expect(bound(values, (v) => v < limit, lo)).toBe(expected);
      }),
    );
  });
});

describe('overlaps', () => {
  const date = (n: number) => new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10);

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
