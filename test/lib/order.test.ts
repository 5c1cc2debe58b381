// The order of names against the default sort of strings (code units), and the binary searches against linear scans
// over random sorted columns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareText, partitionPoint, rowsWithin, runEnd, runsOnDay } from '../../lib/order.js';

const sortedDays = fc.array(fc.integer({ min: -50, max: 50 })).map((raw) => Int32Array.from(raw.sort((a, b) => a - b)));
// a range [lo, hi) of a column of `length` values, from two arbitrary numbers
const rangeOf = (length: number, a: number, b: number): [number, number] => {
  const [x, y] = [a % (length + 1), b % (length + 1)];
  return [Math.min(x, y), Math.max(x, y)];
};

describe('partitionPoint', () => {
  it('finds the first index in [lo, hi) where the predicate turns false, as a linear scan does', () => {
    fc.assert(
      fc.property(sortedDays, fc.integer({ min: -60, max: 60 }), fc.nat(), fc.nat(), (values, limit, a, b) => {
        const [lo, hi] = rangeOf(values.length, a, b);
        let expected = lo;
        while (expected < hi && values[expected]! < limit) expected++;
        expect(partitionPoint(values, (v) => v < limit, lo, hi)).toBe(expected);
      }),
    );
  });

  it('searches the whole column by default', () => {
    fc.assert(
      fc.property(sortedDays, fc.integer({ min: -60, max: 60 }), (values, limit) => {
        expect(partitionPoint(values, (v) => v <= limit)).toBe(values.filter((v) => v <= limit).length);
      }),
    );
  });
});

describe('runEnd', () => {
  it('ends the run of equal names where a linear scan ends it', () => {
    const names = fc.array(fc.constantFrom('ALPHA', 'BETA', 'GAMMA', 'delta'), { minLength: 1 }).map((n) => n.sort());
    fc.assert(
      fc.property(names, fc.nat(), (sorted, a) => {
        const start = a % sorted.length;
        let expected = start;
        while (expected < sorted.length && sorted[expected] === sorted[start]) expected++;
        expect(runEnd(sorted, start)).toBe(expected);
      }),
    );
  });
});

describe('rowsWithin', () => {
  it('finds the rows of [lo, hi) dated within [startDay, endDay], as filtering them does', () => {
    fc.assert(
      fc.property(sortedDays, fc.integer({ min: -60, max: 60 }), fc.integer({ min: -60, max: 60 }), fc.nat(), fc.nat(), (days, s, e, a, b) => {
        const [lo, hi] = rangeOf(days.length, a, b);
        const inside = [];
        for (let i = lo; i < hi; i++) if (days[i]! >= s && days[i]! <= e) inside.push(i);
        const [first, last] = rowsWithin(days, s, e, lo, hi);
        expect(Array.from({ length: Math.max(0, last - first) }, (_, k) => first + k)).toEqual(inside);
      }),
    );
  });
});

describe('compareText', () => {
  it('orders names as the default sort of strings does (UTF-16 code units), equal names as equal', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 30 }), (names) => {
        expect([...names].sort(compareText)).toEqual([...names].sort());
        for (const name of names) expect(compareText(name, `${name}`)).toBe(0);
      }),
    );
  });
});

describe('runsOnDay', () => {
  // rows of a row group: names ascending, each name's days ascending, often consecutive, sometimes with gaps or repeats
  const group = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 40 })), { maxLength: 12 })
    .map((runs) => {
      const names: string[] = [];
      const days: number[] = [];
      runs.forEach(([first, steps], i) => {
        let day = first;
        for (const step of steps) {
          day += step === 3 ? 1 : step; // mostly the next day, sometimes the same day again or a gap
          names.push(`LAKE ${String(i).padStart(2, '0')}`);
          days.push(day);
        }
      });
      return { names, days: Int32Array.from(days) };
    });

  it("visits each name's run once, in order, with its first row on the day, as a linear scan finds it", () => {
    fc.assert(
      fc.property(group, fc.integer({ min: -2, max: 80 }), ({ names, days }, day) => {
        const expected: [number, number][] = [];
        for (let start = 0; start < names.length; ) {
          let end = start;
          while (end < names.length && names[end] === names[start]) end++;
          let row = -1;
          for (let r = start; r < end; r++) if (days[r] === day && row < 0) row = r;
          expected.push([start, row]);
          start = end;
        }
        const visited: [number, number][] = [];
        runsOnDay(names, days, day, (start, row) => visited.push([start, row]));
        expect(visited).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
