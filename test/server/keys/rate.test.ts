import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../server/keys/rate.js';

describe('createRateLimiter', () => {
  it('allows a burst of the limit, then one request per refill interval, per id', () => {
    let now = 0;
    const take = createRateLimiter(60, () => now); // one a second
    for (let i = 0; i < 60; i++) expect(take('a')).toBe(0);
    expect(take('a')).toBe(1);
    expect(take('b')).toBe(0);
    now += 500;
    expect(take('a')).toBe(1); // half a token
    now += 500;
    expect(take('a')).toBe(0);
    expect(take('a')).toBe(1);
    now += 10 * 60_000;
    for (let i = 0; i < 60; i++) expect(take('a')).toBe(0); // the bucket never holds more than the limit
    expect(take('a')).toBe(1);
  });

  it('tells how long to wait at low rates', () => {
    const take = createRateLimiter(2, () => 0);
    take('a');
    take('a');
    expect(take('a')).toBe(30);
  });
});
