import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameIndex } from '../../../lib/store/name-index.js';

// the oracle: what a snapshot built before, a Map of name -> last position and a Set of the names
const oracle = (names: readonly string[]) => ({ positions: new Map(names.map((n, i) => [n, i])), set: new Set(names) });

// names from a small alphabet, so lists share prefixes and probes often hit; sorted and unique as the writer keeps them, or as given
const nameList = fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'B', 'é', '😀', ' '), maxLength: 4 }), { maxLength: 120 });
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedUnique = nameList.map((names) => [...new Set(names)].sort(byCodeUnits));
const sortedWithRepeats = nameList.map((names) => [...names, ...names.slice(0, 3)].sort(byCodeUnits)); // ascending, not strictly
const lists = fc.oneof(sortedUnique, sortedWithRepeats, nameList);

describe('NameIndex', () => {
  it('finds the position of every name, and no other, as a Map of the list does, however many lookups come', () => {
    fc.assert(
      fc.property(lists, fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'B', 'é', '😀', ' '), maxLength: 4 }), { maxLength: 200 }), (names, probes) => {
        const index = new NameIndex({ names });
        const { positions, set } = oracle(names);
        // the list's own names and random probes, enough of them to pass from binary search to the Map
        for (const probe of [...probes, ...names, ...probes]) {
          expect(index.get(probe)).toBe(positions.get(probe));
          expect(index.has(probe)).toBe(set.has(probe));
        }
        expect(index.size).toBe(set.size);
        expect(new Set(index)).toEqual(set);
        expect([...index.keys()].sort()).toEqual([...set].sort());
      }),
    );
  });

  it('answers as a Set of the names for each way a set is read', () => {
    fc.assert(
      fc.property(lists, (names) => {
        const index = new NameIndex({ names });
        const { set } = oracle(names);
        const seen: string[] = [];
        index.forEach((value, key, whole) => {
          expect(key).toBe(value);
          expect(whole).toBe(index);
          seen.push(value);
        });
        expect(seen.sort()).toEqual([...set].sort());
        expect([...index.entries()].sort()).toEqual([...set.entries()].sort());
        expect([...index.values()].sort()).toEqual([...set.values()].sort());
      }),
    );
  });

  it('is not fooled by a list out of order or with a name twice (a manifest written by hand)', () => {
    const index = new NameIndex({ names: ['b', 'a', 'c', 'a'] });
    expect([index.get('a'), index.get('b'), index.get('c'), index.get('d')]).toEqual([3, 0, 2, undefined]);
    expect(index.size).toBe(3);
  });
});
