import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimits } from '../db/schema';

/**
 * Token buckets for public pages whose addresses hold a secret (shared links) and for invitations tried by a signed-in
 * user, so that guessing secrets is slow: `capacity` requests at once, then one more every `refillMs`, per key (a
 * client's address, a user).
 *
 * The buckets live in the database, so several server processes on one PostgreSQL spend one bucket per key: two
 * processes each allowing the whole burst would double what a guesser gets. Each request is one atomic upsert. In
 * front of it each process keeps its own buckets in memory, counting only what the database let through; a process's
 * own bucket never holds fewer tokens than the shared one, give or take one a refused request took, so when it is empty
 * the request is refused without a write (a flood costs the database nothing once this process has spent the burst).
 */
export interface RateLimiter {
  /** Takes one request's token: 0 when allowed, else the seconds until one is back. */
  take(key: string, now?: number): Promise<number>;
}

export interface RateOptions {
  capacity: number;
  refillMs: number;
  /** Keys a process keeps in memory at most. */
  maxKeys?: number;
}

/** A process's own buckets: what this process alone has let through. */
export interface MemoryRateLimiter {
  take(key: string, now?: number): number;
}

/** Buckets that are full again are forgotten, and no more than `maxKeys` are kept (the least recently seen go first). */
export function createMemoryRateLimiter(options: RateOptions): MemoryRateLimiter {
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

/** Rows whose bucket is full again are deleted at most this often per limiter (and on its first request). */
export const PRUNE_EVERY_MS = 60_000;

/**
 * The limiter named `name` (its keys are apart from other limiters' keys). The key is stored only as a SHA-256 of the
 * name and the key, so the table never holds an address.
 */
export function createRateLimiter(database: Database, name: string, options: RateOptions): RateLimiter {
  const { capacity, refillMs } = options;
  const local = createMemoryRateLimiter(options);
  let prunedAt = -Infinity;
  const prune = async (now: number) => {
    prunedAt = now;
    await database.db.delete(rateLimits).where(sql`${rateLimits.fullAtMs} < ${now}`);
  };

  return {
    async take(key, now = Date.now()) {
      const localWait = local.take(key, now);
      if (localWait > 0) return localWait;
      if (now - prunedAt >= PRUNE_EVERY_MS) await prune(now);
      const hashed = crypto.createHash('sha256').update(`${name}\n${key}`).digest('base64url');
      // The bucket refilled up to `now` (a clock behind the last writer's counts nothing), less this request's token
      // when a whole one is there. One statement, so concurrent requests on any process each see the other's token gone.
      const refilled = sql`least(${capacity}::float8, b.tokens + greatest(0, ${now}::bigint - b.at_ms)::float8 / ${refillMs}::float8)`;
      const left = sql`(case when ${refilled} >= 1 then ${refilled} - 1 else ${refilled} end)`;
      const at = sql`greatest(b.at_ms, ${now}::bigint)`;
      const [row] = (
        (await database.db.execute(sql`
          insert into ${rateLimits} as b (key, tokens, at_ms, full_at_ms, allowed)
          values (${hashed}, ${capacity - 1}::float8, ${now}::bigint, ${now + refillMs}::bigint, true)
          on conflict (key) do update set
            tokens = ${left},
            at_ms = ${at},
            full_at_ms = ${at} + ceil((${capacity}::float8 - ${left}) * ${refillMs}::float8)::bigint,
            allowed = ${refilled} >= 1
          returning tokens, allowed`)) as unknown as { rows: Array<{ tokens: number | string; allowed: boolean }> }
      ).rows;
      if (!row || row.allowed) return 0;
      return Math.max(1, Math.ceil(((1 - Number(row.tokens)) * refillMs) / 1000));
    },
  };
}
