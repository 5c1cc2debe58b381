import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { didYouMean, didYouMeanName, suggest, suggestNames } from '../../lib/suggest.js';

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

describe('suggestNames', () => {
  const names = [...reservoirs, 'LAKE MEAD_STATION', 'MEADOW LAKE', 'BLW_STATION'];

  it('gives the names holding a word or a part, whole words first, shorter first', () => {
    expect(suggestNames('MEAD', names)).toEqual(['LAKE MEAD', 'LAKE MEAD_STATION', 'MEADOW LAKE']);
    expect(suggestNames('lake mead', names)).toEqual(['LAKE MEAD', 'LAKE MEAD_STATION']); // case first, then holders
    expect(suggestNames('RESERVOIR', names)).toEqual(['RUEDI RESERVOIR']);
    expect(didYouMeanName('POWELL', names)).toBe(' (did you mean "LAKE POWELL"?)');
    expect(didYouMeanName('ALL', ['AMERICAN FALLS', 'LAKE ALICE'])).toBe(''); // three letters inside a word point nowhere
    expect(didYouMeanName('MEAD', names)).toBe(' (did you mean "LAKE MEAD", "LAKE MEAD_STATION" or "MEADOW LAKE"?)');
  });

  const word = fc.stringMatching(/^[A-Z]{3,8}$/);
  const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));

  it('suggests only other candidates, at most three, and a name holding the words whenever at most two do', () => {
    fc.assert(
      fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 30 }), fc.nat(), fc.nat(), (candidates, pick, at) => {
        const chosen = candidates[pick % candidates.length]!;
        const words = chosen.split(' ');
        const value = words[at % words.length]!;
        const got = suggestNames(value, candidates);
        expect(got.length).toBeLessThanOrEqual(3);
        for (const g of got) expect(candidates.includes(g) && g !== value).toBe(true);
        // the plain-loop oracle: candidates holding the value as a whole word
        const holders = candidates.filter((c) => c !== value && c.split(' ').includes(value));
        if (holders.length <= 2) for (const h of holders) expect(got).toContain(h);
      }),
    );
  });
});
