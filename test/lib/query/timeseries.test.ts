// The read path's helpers against plain oracles: date overlap by enumerating days.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overlaps } from '../../../lib/query/timeseries.js';

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
