/**
 * A token bucket per key (a client's address), in this process's memory: `capacity` requests at once, then one more
 * every `refillMs`. For public pages whose addresses hold a secret, so that guessing them is slow. Buckets that are
 * full again are forgotten, and no more than `maxKeys` are kept (the oldest go first), so a flood of addresses cannot
 * grow the map without end.
 */
export interface RateLimiter {
  /** Takes one request's token: 0 when allowed, else the seconds until one is back. */
  take(key: string, now?: number): number;
}

export function createRateLimiter(options: { capacity: number; refillMs: number; maxKeys?: number }): RateLimiter {
  const { capacity, refillMs } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key, now = Date.now()) {
      const bucket = buckets.get(key) ?? { tokens: capacity, at: now };
      const refilled = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.at) / refillMs);
      buckets.delete(key);
      if (refilled < 1) {
        buckets.set(key, { tokens: refilled, at: now });
        return Math.max(1, Math.ceil(((1 - refilled) * refillMs) / 1000));
      }
      buckets.set(key, { tokens: refilled - 1, at: now });
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
      return 0;
    },
  };
}
