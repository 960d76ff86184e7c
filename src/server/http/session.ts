import type { MiddlewareHandler } from 'hono';
import type { Auth } from '../auth/auth';
import type { AppEnv } from './context';

/** Puts the signed-in user on the context, or answers 401. The user id never comes from the request body. */
export function requireUser(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const result = await auth.api.getSession({ headers: c.req.raw.headers });
    if (!result) return c.json({ error: 'Not authenticated' }, 401);
    c.set('user', { id: result.user.id, email: result.user.email, name: result.user.name });
    await next();
  };
}
