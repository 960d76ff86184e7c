import type { MiddlewareHandler } from 'hono';
import type { Auth } from '../auth/auth';
import type { AppEnv, SessionUser } from './context';

/**
 * Signed-in users of recent requests, by session cookie. Looking the session up in the database on every request was
 * one of the two largest costs of a request under load (issue 13 point 7); a trader's browser sends several at once.
 * Entries live `ttlMs` at most and never past the session's own expiry. Any sign-in, sign-out, password or profile
 * change through /api/auth in this process clears the cache (auth/handler.ts); another process may accept a session
 * that was just signed out for at most `ttlMs` (SESSION_CACHE_SECONDS, 0 turns the cache off).
 */
export interface SessionCache {
  get(key: string): SessionUser | undefined;
  set(key: string, user: SessionUser, expiresAt: number): void;
  clear(): void;
}

const MAX_ENTRIES = 10_000;

export function createSessionCache(ttlMs: number): SessionCache {
  const entries = new Map<string, { user: SessionUser; until: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.until <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.user;
    },
    set(key, user, expiresAt) {
      if (ttlMs <= 0) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(key, { user, until: Math.min(Date.now() + ttlMs, expiresAt) });
    },
    clear: () => entries.clear(),
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
      const result = await auth.api.getSession({ headers: c.req.raw.headers });
      if (!result) return c.json({ error: 'Not authenticated' }, 401);
      user = { id: result.user.id, email: result.user.email, name: result.user.name };
      cache.set(key, user, new Date(result.session.expiresAt).getTime());
    }
    c.set('user', user);
    await next();
  };
}
