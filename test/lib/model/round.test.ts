import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { round4 } from '../../../lib/model/round.js';
import { hasFourDecimals } from './helpers.js';

describe('round4', () => {
  it('rounds halves away from zero, symmetrically', () => {
    expect(round4(0.00005)).toBe(0.0001);
    expect(round4(-0.00005)).toBe(-0.0001);
    expect(round4(1.23444)).toBe(1.2344);
    expect(round4(-2.5)).toBe(-2.5);
    expect(Object.is(round4(-0.00001), 0)).toBe(true);
  });

  it('keeps at most 4 decimals, moves by at most half a unit and is odd', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e7, max: 1e7, noNaN: true }), (x) => {
        const r = round4(x);
        expect(hasFourDecimals(r)).toBe(true);
        expect(Math.abs(r - x)).toBeLessThanOrEqual(5e-5 + 4 * Number.EPSILON * Math.abs(x));
        expect(round4(-x)).toBe(r === 0 ? 0 : -r);
      }),
    );
  });
});
