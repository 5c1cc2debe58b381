import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didYouMean, suggest } from '../../lib/suggest.js';

const reservoirs = ['LAKE MEAD', 'LAKE POWELL', 'LAKE ALICE', 'LAKE ESTES', 'RUEDI RESERVOIR'];

describe('suggest', () => {
  it('finds a name that differs by case, a letter, a swap, or two edits', () => {
    expect(suggest('lake mead', reservoirs)).toBe('LAKE MEAD');
    expect(suggest('LAKE MEDA', reservoirs)).toBe('LAKE MEAD'); // a swap of neighbours
    expect(suggest('LAKE POWEL', reservoirs)).toBe('LAKE POWELL');
    expect(suggest('RUEDI RESERVIOR', reservoirs)).toBe('RUEDI RESERVOIR');
    expect(suggest('lem', ['rtma', 'res', 'lemm', 'nete-volume-calcs'])).toBe('lemm');
  });

  it('suggests nothing for a name far from every candidate, or for short names two edits away', () => {
    expect(suggest('ATLANTIS', reservoirs)).toBeUndefined();
    expect(suggest('rma', ['lem'])).toBeUndefined();
    expect(suggest('LAKE MEAD', reservoirs)).toBeUndefined(); // itself is no suggestion
    expect(didYouMean('ATLANTIS', reservoirs)).toBe('');
    expect(didYouMean('lake alice', reservoirs)).toBe(' (did you mean "LAKE ALICE"?)');
  });

  it('always suggests a candidate with one character replaced', () => {
    fc.assert(
      fc.property(fc.constantFrom(...reservoirs), fc.nat(), fc.constantFrom('Q', 'Z', '#'), (name, at, letter) => {
        const i = at % name.length;
        const typo = name.slice(0, i) + letter + name.slice(i + 1);
        return typo === name || suggest(typo, reservoirs) === name;
      }),
    );
  });
});
