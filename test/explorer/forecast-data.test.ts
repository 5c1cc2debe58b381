// The forecast view's total line, read back: the numbers it shows are the answer's within three significant digits,
// over the days the answer names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeTotal, readTotal } from '../../explorer/forecast-data.js';

describe('describeTotal', () => {
  it("shows the median and the 10th-90th percentile of the answer's total, in its unit, over its days", () => {
    const value = fc.double({ min: 1e-3, max: 1e9, noNaN: true });
    fc.assert(
      fc.property(fc.tuple(value, value, value), fc.constantFrom('m3', 'acre-ft', 'mm', 'in'), fc.integer({ min: 0, max: 27 }), (xs, unit, to) => {
        const [p10, p50, p90] = [...xs].sort((a, b) => a - b);
        const end = new Date(Date.parse('2022-01-01T00:00:00Z') + to * 86_400_000).toISOString().slice(0, 10);
        const record = {
          RES_NAME: 'LAKE MEAD',
          start_date: '2022-01-01',
          end_date: end,
          [`E_volume (${unit}) p10`]: p10!,
          [`E_volume (${unit}) p50`]: p50!,
          [`E_volume (${unit}) p90`]: p90!,
        };
        const text = describeTotal(readTotal([record], 'E_volume')!);
        const m = /^(\d+)-day total, 2022-01-01 to (\S+): median ([\d,.]+) (\S+) \(10th–90th percentile of the members ([\d,.]+)–([\d,.]+)\)$/.exec(text);
        expect(m, text).not.toBeNull();
        expect([Number(m![1]), m![2], m![4]]).toEqual([to + 1, end, unit]);
        const shown = [m![3], m![5], m![6]].map((x) => Number(x!.replaceAll(',', '')));
        [p50!, p10!, p90!].forEach((want, i) => expect(Math.abs(shown[i]! / want - 1), text).toBeLessThanOrEqual(0.005));
      }),
    );
  });

  it('reads no total from an answer without the variable', () => {
    expect(readTotal([], 'E_hs')).toBeUndefined();
    expect(readTotal([{ RES_NAME: 'LAKE MEAD', 'E_volume (m3) p50': 1 }], 'E_hs')).toBeUndefined();
  });
});
