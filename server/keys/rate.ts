// An optional per-key rate limit: a token bucket per key digest, refilled continuously at N requests a minute.

/** Takes one request from the bucket of `id`; returns 0 when allowed, else the seconds to wait before retrying (asynchronously when the buckets are in another process). */
export type RateLimiter = (id: string) => number | Promise<number>;

/** A limiter allowing `perMinute` requests a minute per id, in bursts of up to `perMinute`; ids are key digests, never keys. */
export function createRateLimiter(perMinute: number, now: () => number = () => performance.now()): (id: string) => number {
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>(); // one entry per accepted key: bounded by the key ring
  return (id) => {
    const t = now();
    const bucket = buckets.get(id) ?? { tokens: perMinute, at: t };
    bucket.tokens = Math.min(perMinute, bucket.tokens + (t - bucket.at) * perMs);
    bucket.at = t;
    buckets.set(id, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
  };
}
