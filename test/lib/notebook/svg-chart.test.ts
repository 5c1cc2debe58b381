// Chart drawing: round ticks that cover the data, and SVG that parses as XML whatever the names hold.
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { chartModel, periodLabel } from '../../../lib/notebook/chart-data.js';
import { niceTicks, renderSvg, seriesColours } from '../../../lib/notebook/svg-chart.js';
import { thinPoints } from '../../../lib/notebook/thin.js';
import type { WireRecord } from '../../../lib/types.js';

describe('niceTicks', () => {
  it('covers the range with evenly spaced steps of 1, 2 or 5 times a power of ten', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.double({ min: 1e-6, max: 1e9, noNaN: true }), (low, span) => {
        const high = low + span;
        fc.pre(span > Math.abs(low) * 1e-9); // charts show ranges a few digits wide, not at the last digits of a double
        const ticks = niceTicks(low, high);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(12);
        expect(ticks[0]!).toBeLessThanOrEqual(low);
        expect(ticks.at(-1)!).toBeGreaterThanOrEqual(high);
        const step = ticks[1]! - ticks[0]!;
        // a difference of two ticks is exact only to their own rounding: near 1.5e7, a step of 0.005 comes out as
        // 0.004999998957 (a random run found it), a millionth off
        const rounding = 4 * Number.EPSILON * Math.max(Math.abs(ticks[0]!), Math.abs(ticks.at(-1)!));
        const power = 10 ** Math.floor(Math.log10(step));
        expect([1, 2, 5, 10].some((m) => Math.abs(step - m * power) <= step * 1e-6 + rounding)).toBe(true);
        for (let i = 2; i < ticks.length; i++) expect(Math.abs(ticks[i]! - ticks[i - 1]! - step)).toBeLessThanOrEqual(step * 1e-6 + 2 * rounding);
      }),
    );
  });

  it('covers ranges millions of steps from zero, where the division and the 15 digits round', () => {
    // found by random runs: the first tick was 1e9, above the low end by a rounding
    const [low, high] = [999999999.9999998, 999999999.9999998 + 250.00000005960467];
    const ticks = niceTicks(low, high);
    expect(ticks[0]!).toBeLessThanOrEqual(low);
    expect(ticks.at(-1)!).toBeGreaterThanOrEqual(high);
    expect(niceTicks(-14707347.150000002, -14707347.135292655)).toEqual([-14707347.155, -14707347.15, -14707347.145, -14707347.14, -14707347.135]);
  });
});

describe('niceTicks on the narrowest ranges', () => {
  it('ends, with at most 12 ticks covering the range, however few doubles lie between its ends', () => {
    // a value and the next few doubles above it: steps of the range past 2^53 for large values (999999.9999999999 to
    // 1e6 once hung the chart test, n + 1 being n)
    const above = (v: number, k: number) => {
      const buf = new Float64Array([v]);
      const bits = new BigInt64Array(buf.buffer);
      bits[0] = bits[0]! + BigInt(v >= 0 ? k : -k);
      return buf[0]!;
    };
    expect(niceTicks(999999.9999999999, 1e6)).toEqual([999999.9999999999, 1e6]);
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e15, noNaN: true }), fc.integer({ min: 1, max: 64 }), fc.boolean(), (v, k, negative) => {
        const [low, high] = negative ? [above(-v, k), -v] : [v, above(v, k)];
        const ticks = niceTicks(low, high);
        expect(ticks.length).toBeLessThanOrEqual(12);
        expect(ticks[0]!).toBeLessThanOrEqual(low);
        expect(ticks.at(-1)!).toBeGreaterThanOrEqual(high);
      }),
    );
  });

  it('gives the two ends for a range of subnormal width, whose step underflows to 0', () => {
    for (const [low, high] of [
      [-5e-324, 1e-323],
      [0, 5e-324],
      [1e-310, 1.0000001e-310],
    ] as const) {
      const ticks = niceTicks(low, high);
      expect(ticks.length).toBeLessThanOrEqual(12);
      expect(ticks.every(Number.isFinite)).toBe(true);
      expect(ticks[0]!).toBeLessThanOrEqual(low);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(high);
    }
  });
});

describe('periodLabel', () => {
  it('names months, calendar years and water years', () => {
    expect(periodLabel('2020-02-01', '2020-02-29')).toBe('2020-02');
    expect(periodLabel('2020-01-01', '2020-12-31')).toBe('2020');
    expect(periodLabel('2019-10-01', '2020-09-30')).toBe('WY2020');
  });
});

describe('renderSvg', () => {
  it('writes well-formed XML with one series group per name and variable, each in its own colour', () => {
    const names = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(names, fc.array(fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null }), { minLength: 1, maxLength: 20 }), (ns, values) => {
        const records: WireRecord[] = ns.flatMap((name) =>
          values.map((v, i) => {
            const date = new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10);
            return { RES_NAME: name, start_date: date, end_date: date, 'NetE (mm)': v, 'E_volume (m3)': v === null ? null : v * 1000 };
          }),
        );
        const model = chartModel(records, Object.keys(records[0]!));
        const svg = renderSvg(model, `title <${ns[0]}>`);
        expect(XMLValidator.validate(svg)).toBe(true);
        const groups = [...svg.matchAll(/<g class="series"[^>]*>/g)];
        expect(groups).toHaveLength(ns.length * 2);
        const panels = [...svg.matchAll(/<g class="panel" data-unit="([^"]*)"/g)].map((m) => m[1]);
        expect(panels).toEqual(['mm', 'm3']);
        if (ns.length * 2 <= seriesColours.length) {
          const colours = [...svg.matchAll(/<path class="line" d="[^"]*" fill="none" stroke="([^"]+)"/g)].map((m) => m[1]);
          expect(new Set(colours).size).toBe(ns.length * 2);
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe('renderSvg of long series', () => {
  // 40 years of a daily wave with one spike, one trough and a month missing: far more days than the 680 pixel columns
  const days = 40 * 365;
  const day = (i: number) => new Date(Date.UTC(1980, 0, 1 + i)).toISOString().slice(0, 10);
  const netE = (i: number) => (i === 7000 ? 90 : i === 9000 ? -70 : i >= 12000 && i < 12030 ? null : 10 * Math.sin(i / 58));
  const records: WireRecord[] = Array.from({ length: days }, (_, i) => ({ RES_NAME: 'LAKE', start_date: day(i), end_date: day(i), 'NetE (mm)': netE(i) }));
  const svg = renderSvg(chartModel(records, Object.keys(records[0]!)), 'long');
  const points = [.../d="([^"]*)"/.exec(svg)![1]!.matchAll(/([ML])([\d.]+),([\d.]+)/g)].map((m) => ({ pen: m[1], x: Number(m[2]), y: Number(m[3]) }));

  it('thins the line to what the width shows, and says so', () => {
    expect(points.length).toBeLessThanOrEqual(2 * 680 + 1);
    expect(svg).toContain(`thinned to ${points.length} points of ${days - 30}`);
    expect(XMLValidator.validate(svg)).toBe(true);
  });

  it('keeps the peaks and the gap', () => {
    const ys = points.map((p) => p.y);
    const [top, bottom] = [Math.min(...ys), Math.max(...ys)];
    const xOf = (i: number) => 64 + (i / (days - 1)) * 680;
    expect(Math.abs(points.find((p) => p.y === top)!.x - xOf(7000))).toBeLessThan(0.1);
    expect(Math.abs(points.find((p) => p.y === bottom)!.x - xOf(9000))).toBeLessThan(0.1);
    expect(points.filter((p) => p.pen === 'M')).toHaveLength(2);
  });
});

describe('thinPoints', () => {
  it("keeps each column's lowest and highest value and first gap, in order, at most three a column, and columns of three as they are", () => {
    const point = fc.record({ x: fc.integer({ min: 0, max: 400 }), value: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null }) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 300 }), fc.integer({ min: 1, max: 40 }), (unsorted, width) => {
        const points = [...unsorted].sort((a, b) => a.x - b.x);
        const column = (x: number) => Math.floor(x / width);
        const kept = thinPoints(points, column);
        let at = 0; // kept is a subsequence of points
        for (const k of kept) at = points.indexOf(k, at) + 1;
        expect(at).toBeGreaterThan(kept.length ? 0 : -1);
        expect(kept.every((k) => points.includes(k))).toBe(true);
        const columns = [...new Set(points.map((p) => column(p.x)))];
        for (const c of columns) {
          const all = points.filter((p) => column(p.x) === c);
          const mine = kept.filter((p) => column(p.x) === c);
          expect(mine.length).toBeLessThanOrEqual(3);
          if (all.length <= 3) expect(mine).toEqual(all);
          const values = all.flatMap((p) => (p.value === null ? [] : [p.value]));
          const keptValues = mine.flatMap((p) => (p.value === null ? [] : [p.value]));
          if (values.length) {
            expect(keptValues).toContain(Math.min(...values));
            expect(keptValues).toContain(Math.max(...values));
          }
          expect(mine.some((p) => p.value === null)).toBe(all.some((p) => p.value === null));
        }
      }),
    );
  });
});
