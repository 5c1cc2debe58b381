import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.js';
import { createRateLimiter } from '../../server/rate.js';

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

describe('readConfig', () => {
  it('reads the rate limit and header size from flags or environment, off by default', () => {
    expect(readConfig([], {}).rateLimitPerMinute).toBe(0);
    expect(readConfig(['--rate-limit-per-minute', '120'], {}).rateLimitPerMinute).toBe(120);
    expect(readConfig([], { EVAP_RATE_LIMIT_PER_MINUTE: '30', EVAP_MAX_HEADER_BYTES: '32768' })).toMatchObject({ rateLimitPerMinute: 30, maxHeaderBytes: 32768 });
    expect(() => readConfig(['--rate-limit-per-minute=-1'], {})).toThrow(/integer from 0/);
    expect(() => readConfig(['--max-header-bytes', '0'], {})).toThrow(/integer from 1/);
  });

  it('bounds one client to a quarter of --max-concurrent (at least 1) unless --max-per-client says otherwise', () => {
    expect(readConfig([], {})).toMatchObject({ maxConcurrent: 64, maxPerClient: 16, stallTimeoutMs: 30_000 });
    expect(readConfig(['--max-concurrent', '8'], {}).maxPerClient).toBe(2);
    expect(readConfig([], { EVAP_MAX_CONCURRENT: '3' }).maxPerClient).toBe(1);
    expect(readConfig(['--max-concurrent', '8', '--max-per-client', '5'], {}).maxPerClient).toBe(5);
    expect(readConfig(['--max-concurrent', '8'], { EVAP_MAX_PER_CLIENT: '3' }).maxPerClient).toBe(3);
  });
});
