// joinedPieces against the plain join: the same text in the same order, in strings no longer than the bound unless a
// single text is, and no piece that could have taken the next text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinedPieces, TEXT_PIECE_CHARS } from '../../../lib/format/bytes.js';

// texts from empty to a few times the bound, drawn as a length and a letter (the length is what matters)
const texts = fc
  .array(
    fc.oneof(
      fc.constant(''),
      fc.tuple(fc.integer({ min: 1, max: 300 }), fc.string({ minLength: 1, maxLength: 1 })),
      fc.tuple(fc.integer({ min: 1, max: 3 * TEXT_PIECE_CHARS }), fc.string({ minLength: 1, maxLength: 1 })),
    ),
    { maxLength: 40 },
  )
  .map((drawn) => drawn.map((d) => (typeof d === 'string' ? d : d[1].repeat(d[0]))));

describe('joinedPieces', () => {
  it('joins the non-empty texts as the plain join does, in bounded pieces, each as full as the bound allows', () => {
    fc.assert(
      fc.property(texts, fc.constantFrom(',', ''), (all, separator) => {
        const pieces = [...joinedPieces(all, separator)];
        const filled = all.filter((t) => t !== '');
        expect(pieces.join(separator)).toBe(filled.join(separator));
        expect(pieces.every((p) => p !== '')).toBe(true);
        // a piece longer than the bound is one text; a piece and the next piece's first text would not have fitted
        let k = 0;
        for (const piece of pieces) {
          const members: string[] = [];
          while (members.join(separator).length < piece.length) members.push(filled[k++]!);
          expect(members.join(separator)).toBe(piece);
          if (members.length > 1) expect(piece.length).toBeLessThanOrEqual(TEXT_PIECE_CHARS);
          const next = filled[k];
          if (next !== undefined) expect(piece.length + separator.length + next.length).toBeGreaterThan(TEXT_PIECE_CHARS);
        }
        expect(k).toBe(filled.length);
      }),
      { numRuns: 300 },
    );
  });
});
