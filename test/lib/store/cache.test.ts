import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteBoundedCache } from '../../../lib/store/cache.js';

describe('ByteBoundedCache', () => {
  it('never holds more bytes than its bound', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 60 }))), (ops) => {
        const cache = new ByteBoundedCache<number>(100);
        for (const [key, bytes] of ops) {
          cache.set(String(key), key, bytes);
          if (cache.size > 100) return false;
        }
        return true;
      }),
    );
  });

  it('evicts the least recently used entry first', () => {
    const cache = new ByteBoundedCache<string>(30);
    cache.set('a', 'A', 10);
    cache.set('b', 'B', 10);
    cache.set('c', 'C', 10);
    expect(cache.get('a')).toBe('A'); // a is now the most recent
    cache.set('d', 'D', 10);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(30);
  });

  it('keeps nothing larger than the whole bound', () => {
    const cache = new ByteBoundedCache<string>(10);
    cache.set('big', 'x', 11);
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('told not to evict, keeps a value only where it fits beside what is held, and evicts nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 60 }))), (ops) => {
        const cache = new ByteBoundedCache<number>(100);
        const held = new Map<string, number>(); // the oracle: key -> bytes
        for (const [key, bytes] of ops) {
          const k = String(key);
          cache.set(k, key, bytes, false);
          held.delete(k); // a value set again replaces the one before, fitting or not
          const total = [...held.values()].reduce((a, b) => a + b, 0);
          if (total + bytes <= 100) held.set(k, bytes);
          expect(cache.size).toBe([...held.values()].reduce((a, b) => a + b, 0));
          for (let j = 0; j <= 20; j++) expect(cache.get(String(j))).toBe(held.has(String(j)) ? j : undefined);
        }
      }),
    );
  });

  it('told not to evict, keeps the first part of a scan larger than itself, where evicting keeps the last', () => {
    const scan = (evict: boolean) => {
      const cache = new ByteBoundedCache<number>(30);
      for (let i = 0; i < 10; i++) cache.set(`chunk ${i}`, i, 10, evict);
      return Array.from({ length: 10 }, (_, i) => cache.get(`chunk ${i}`) !== undefined);
    };
    expect(scan(true)).toEqual([false, false, false, false, false, false, false, true, true, true]);
    expect(scan(false)).toEqual([true, true, true, false, false, false, false, false, false, false]);
  });
});
