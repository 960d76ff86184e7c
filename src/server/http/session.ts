import type { MiddlewareHandler } from 'hono';
import type { Auth } from '../auth/auth';
import type { Database } from '../db/client';
import type { AppEnv, SessionUser } from './context';

/**
 * Signed-in users of recent requests, by session cookie. Looking the session up in the database on every request was
 * one of the two largest costs of a request under load; a trader's browser sends several at once.
 * Entries live `ttlMs` at most and never past the session's own expiry. Whatever ends sessions (sign-out, revocation,
 * a password change or reset, account deletion) calls `revoke()`, which empties the cache of every process on the
 * database (PostgreSQL LISTEN/NOTIFY; the embedded database is one process), so a revoked session stops working at
 * once everywhere. While a process cannot hear that news (its listener is reconnecting) it caches nothing.
 * SESSION_CACHE_SECONDS sets `ttlMs` (0 turns the cache off).
 */
export interface SessionCache {
  get(key: string): SessionUser | undefined;
  /** Taken before a lookup and handed to `set`: a lookup that overlapped a revocation is not stored. */
  generation(): number;
  set(key: string, user: SessionUser, expiresAt: number, generation: number): void;
  /** Empties this process's cache. */
  clear(): void;
  /** Empties the cache of every process on the database. */
  revoke(): Promise<void>;
}

const MAX_ENTRIES = 10_000;

export function createSessionCache(
  ttlMs: number,
  database?: Pick<Database, 'sessionsChanged' | 'onSessionsChanged'> & Partial<Pick<Database, 'heldByWrite'>>,
): SessionCache {
  const entries = new Map<string, { user: SessionUser; until: number; expiresAt: number }>();
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
  };
  const signals = ttlMs > 0 ? database?.onSessionsChanged(clear) : undefined;
  const trusted = () => signals === undefined || signals.live();
  return {
    get(key) {
      if (!trusted()) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      const now = Date.now();
      // While a long write holds the embedded database's one connection, a session looked up before stays good until
      // its own expiry: its lookup would wait for the write (the server's statements never run inside a trader's
      // transaction), and any revocation empties the cache all the same.
      if (entry.until <= now && !(entry.expiresAt > now && database?.heldByWrite?.())) {
        entries.delete(key);
        return undefined;
      }
      return entry.user;
    },
    generation: () => generation,
    set(key, user, expiresAt, seen) {
      if (ttlMs <= 0 || seen !== generation || !trusted()) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { user, until: Math.min(Date.now() + ttlMs, expiresAt), expiresAt });
    },
    clear,
    async revoke() {
      clear();
      await database?.sessionsChanged();
    },
  };
}

/** better-auth's session cookie (its __Secure- name under https), the key of the cache. */
const SESSION_COOKIE = /(?:^|;\s*)((?:__Secure-)?better-auth\.session_token=[^;]+)/;

/** Puts the signed-in user on the context, or answers 401. The user id never comes from the request body. */
export function requireUser(auth: Auth, cache: SessionCache): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = SESSION_COOKIE.exec(c.req.header('cookie') ?? '')?.[1];
    if (!key) return c.json({ error: 'Not authenticated' }, 401);
    let user = cache.get(key);
    if (!user) {
      const generation = cache.generation();
      const result = await auth.api.getSession({ headers: c.req.raw.headers });
      if (!result) return c.json({ error: 'Not authenticated' }, 401);
      user = { id: result.user.id, email: result.user.email, name: result.user.name };
      cache.set(key, user, new Date(result.session.expiresAt).getTime(), generation);
    }
    c.set('user', user);
    await next();
  };
}
