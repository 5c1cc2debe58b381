import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type UnitName, units } from '../../lib/catalogue.js';
import { convertValue, roundValue, toMetric } from '../../lib/units.js';

const unitNames = Object.keys(units) as UnitName[];
const finite = fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true });

describe('convertValue', () => {
  it('matches known points of the unit definitions', () => {
    expect(convertValue(25.4, 'mm', 'english')).toBeCloseTo(1, 12); // 1 in = 25.4 mm
    expect(convertValue(0, 'degC', 'english')).toBe(32);
    expect(convertValue(100, 'degC', 'english')).toBeCloseTo(212, 12);
    expect(convertValue(-40, 'degC', 'english')).toBeCloseTo(-40, 12);
    expect(convertValue(1233.48183754752, 'm3', 'english')).toBeCloseTo(1, 12); // 1 acre-ft
    expect(convertValue(4046.8564224, 'm2', 'english')).toBeCloseTo(1, 12); // 1 acre
    expect(convertValue(0.3048, 'm', 'english')).toBeCloseTo(1, 12); // 1 ft
    expect(convertValue(1609.344 / 3600, 'ms', 'english')).toBeCloseTo(1, 12); // 1 mph
    expect(convertValue(0.028316846592, 'm3s', 'english')).toBeCloseTo(1, 12); // 1 cfs
    expect(roundValue(convertValue(1233.48, 'm3', 'english'))).toBe(1);
  });

  it('leaves metric values unchanged', () => {
    fc.assert(fc.property(finite, fc.constantFrom(...unitNames), (v, u) => convertValue(v, u, 'metric') === v));
  });

  it('round-trips english to metric', () => {
    fc.assert(
      fc.property(finite, fc.constantFrom(...unitNames), (v, u) => {
        const back = toMetric(convertValue(v, u, 'english'), u, 'english');
        return Math.abs(back - v) <= 1e-9 * Math.max(1, Math.abs(v));
      }),
    );
  });

  it('keeps the order of values (every conversion is increasing)', () => {
    fc.assert(
      fc.property(finite, finite, fc.constantFrom(...unitNames), (a, b, u) => {
        fc.pre(a < b);
        return convertValue(a, u, 'english') <= convertValue(b, u, 'english');
      }),
    );
  });
});

describe('roundValue', () => {
  it('rounds to at most 4 decimals, within half a unit of the 4th', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => {
        const r = roundValue(v);
        const scaled = r * 1e4;
        return Math.abs(r - v) <= 0.5e-4 + 1e-9 && Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, Math.abs(scaled));
      }),
    );
  });

  it('keeps every finite number finite, however large', () => {
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => Number.isFinite(roundValue(v))));
    expect(roundValue(1.7976931348623157e308)).toBe(1.7976931348623157e308);
  });

  it('is symmetric around zero and idempotent', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => roundValue(-v) === -roundValue(v) && roundValue(roundValue(v)) === roundValue(v)),
    );
  });

  it('rounds halves away from zero', () => {
    expect(roundValue(0.00005)).toBe(0.0001);
    expect(roundValue(-0.00005)).toBe(-0.0001);
    expect(roundValue(2490.03884)).toBe(2490.0388);
  });
});

describe('convertValue with roundValue', () => {
  it('gives the wire values of exact conversions', () => {
    expect(roundValue(convertValue(50.8, 'mm', 'english'))).toBe(2);
    expect(roundValue(convertValue(37, 'degC', 'english'))).toBe(98.6);
  });
});
