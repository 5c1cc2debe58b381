// Whole numbers as people write them: plain decimal digits or nothing, checked against BigInt's reading of the same text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWholeNumber } from '../../lib/integer.js';
import { integerLike } from '../helpers.js';

describe('parseWholeNumber', () => {
  it('reads a string iff it is ASCII digits within the safe range, as BigInt reads it', () => {
    fc.assert(
      fc.property(integerLike, (text) => {
        const digits = /^\d+$/.test(text) && BigInt(text) <= BigInt(Number.MAX_SAFE_INTEGER);
        expect(parseWholeNumber(text)).toBe(digits ? Number(BigInt(text)) : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});
