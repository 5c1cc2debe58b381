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
});
