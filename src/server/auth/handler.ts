import type { Handler } from 'hono';
import type { AppEnv } from '../http/context';
import type { SessionCache } from '../http/session';
import { describeProblem, findInputProblem } from '../http/input-guard';
import type { Auth } from './auth';
import { SIGN_IN_ENDPOINTS, tooManyAttemptsMessage, type SignInLimiter } from './sign-in-limits';

const BASE_PATH = '/api/auth';

/**
 * /api/auth/*, handed to better-auth with three things it does not do itself:
 * - the client address it rate-limits by (x-real-ip) comes from the socket or a trusted proxy, never the client;
 * - its JSON bodies get the guard every other route has (a NUL in a name was a database error, a 500);
 * - every sign-in path counts against its account (sign-in-limits.ts), whatever address the attempt comes from.
 */
export function authHandler(auth: Auth, limiter: SignInLimiter, sessions: SessionCache): Handler<AppEnv> {
  return async (c) => {
    // Sign-out, password resets, profile changes...: whatever better-auth changes, no cached session outlives it
    // (cleared before, and again after, so a request racing the change cannot cache the old state).
    const changes = !(c.req.method === 'GET' && c.req.path === `${BASE_PATH}/get-session`);
    if (changes) sessions.clear();
    const headers = new Headers(c.req.raw.headers);
    headers.delete('x-forwarded-for');
    headers.set('x-real-ip', c.var.clientIp);
    if (c.req.method !== 'POST') {
      const response = await auth.handler(new Request(c.req.raw, { headers }));
      if (changes) sessions.clear();
      return response;
    }

    // Read once, within the body limit, and handed on as text.
    const body = await c.req.text();
    let parsed: unknown;
    if (/^application\/json/i.test(c.req.header('content-type') ?? '')) {
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = undefined; // better-auth answers malformed JSON itself
      }
      const problem = findInputProblem(parsed);
      if (problem) return c.json({ error: describeProblem(problem), code: 'INVALID_INPUT' }, 400);
    }

    const readAccount = SIGN_IN_ENDPOINTS[c.req.path.slice(BASE_PATH.length)];
    const account = readAccount ? await readAccount({ body: parsed, headers }) : null;
    if (account) {
      const verdict = await limiter.attempt(account);
      if (!verdict.allowed) {
        const seconds = String(verdict.retryAfterSeconds);
        return c.json({ code: 'TOO_MANY_ATTEMPTS', message: tooManyAttemptsMessage(verdict.retryAfterSeconds) }, 429, {
          'Retry-After': seconds,
          'X-Retry-After': seconds,
        });
      }
    }
    const response = await auth.handler(new Request(c.req.raw.url, { method: 'POST', headers, body }));
    if (account && (response.ok || (await provedSecret(response)))) await limiter.succeeded(account);
    sessions.clear();
    return response;
  };
}

/** A refusal that still proved the password: the account's email is not confirmed yet. */
async function provedSecret(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body = (await response.clone().json().catch(() => null)) as { code?: string } | null;
  return body?.code === 'EMAIL_NOT_VERIFIED';
}
