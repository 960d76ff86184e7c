import crypto from 'node:crypto';
import type { Handler } from 'hono';
import type { Database } from '../db/client';
import type { AppEnv } from '../http/context';
import { databaseUnavailable } from '../http/errors';
import type { SessionCache } from '../http/session';
import { describeProblem, findInputProblem } from '../http/input-guard';
import { watchAuthFailures, type Auth } from './auth';
import { limitProviderCallback } from './provider-sign-in';
import { SIGN_IN_ENDPOINTS, tooManyAttemptsMessage, type SignInLimiter, type SignInSubjects } from './sign-in-limits';

const BASE_PATH = '/api/auth';

/**
 * /api/auth/*, handed to better-auth with three things it does not do itself:
 * - the client address it rate-limits by (x-real-ip) comes from the socket or a trusted proxy, never the client;
 * - its JSON bodies get the guard every other route has (a NUL in a name was a database error, a 500);
 * - every sign-in path counts against its account (sign-in-limits.ts), whatever address the attempt comes from; the
 *   return from Google or the OpenID provider too, once the provider has said who it is (provider-sign-in.ts).
 */
export function authHandler(auth: Auth, limiter: SignInLimiter, sessions: SessionCache, database: Pick<Database, 'ping'>): Handler<AppEnv> {
  const handle = forwardToAuth(auth, limiter, sessions);
  return async (c, next) => {
    const { result: response, databaseAway } = await watchAuthFailures(async () => handle(c, next));
    // better-auth answers a failed query with its own 500, which would read as a fault of ours (and the trader's
    // sign-in as refused): while the database is away it is a 503 with Retry-After like every other route's. The
    // ping covers a failure better-auth handled without its error hook.
    if (response instanceof Response && response.status >= 500 && (databaseAway || !(await database.ping().catch(() => false)))) {
      return databaseUnavailable(c);
    }
    return response;
  };
}

function forwardToAuth(auth: Auth, limiter: SignInLimiter, sessions: SessionCache): Handler<AppEnv> {
  return async (c) => {
    // Sign-out, password resets, profile changes...: whatever better-auth changes, no cached session outlives it, in
    // this process or another (cleared before, and everywhere after: a lookup racing the change stores nothing).
    const changes = !(c.req.method === 'GET' && c.req.path === `${BASE_PATH}/get-session`);
    if (changes) sessions.clear();
    const headers = new Headers(c.req.raw.headers);
    headers.delete('x-forwarded-for');
    headers.set('x-real-ip', c.var.clientIp);
    const callback = c.req.path.startsWith(`${BASE_PATH}/callback/`);
    if (c.req.method !== 'POST' || callback) {
      const forward = () => auth.handler(new Request(c.req.raw, { headers }));
      const response = callback ? await limitProviderCallback(limiter, forward) : await forward();
      if (changes) await sessions.revoke();
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
      if (problem) {
        const field = problem.field || 'body';
        return c.json({ error: describeProblem(problem), code: 'INVALID_INPUT', fields: [{ field, message: problem.message }] }, 400);
      }
    }

    const readAccount = SIGN_IN_ENDPOINTS[c.req.path.slice(BASE_PATH.length)];
    const account = readAccount ? await readAccount({ body: parsed, headers, subjects: signInSubjects(auth, headers) }) : null;
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
    await sessions.revoke();
    return response.status === 400 ? withField(response, c.req.path.slice(BASE_PATH.length)) : response;
  };
}

/**
 * The field of better-auth's own refusals, whose messages the sign-in pages show as they are ('Password too
 * short'): added as `fields`, as every other 400 of the API has it.
 */
const REFUSAL_FIELDS: Record<string, (endpoint: string) => string> = {
  PASSWORD_TOO_SHORT: (endpoint) => (endpoint === '/sign-up/email' ? 'password' : 'newPassword'),
  PASSWORD_TOO_LONG: (endpoint) => (endpoint === '/sign-up/email' ? 'password' : 'newPassword'),
  INVALID_PASSWORD: (endpoint) => (endpoint === '/change-password' ? 'currentPassword' : 'password'),
  INVALID_TOKEN: () => 'token',
  EMAIL_MISMATCH: () => 'email',
  EMAIL_ALREADY_VERIFIED: () => 'email',
  INVALID_EMAIL: () => 'email',
};

/** better-auth's validation says `[body.email] ...`: the field is named in the message already. */
const VALIDATION_FIELD = /^\[body\.([\w.]+)\] /;

async function withField(response: Response, endpoint: string): Promise<Response> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown; message?: unknown; fields?: unknown } | null;
  if (!body || typeof body.code !== 'string' || typeof body.message !== 'string' || body.fields !== undefined) return response;
  const field = REFUSAL_FIELDS[body.code]?.(endpoint) ?? VALIDATION_FIELD.exec(body.message)?.[1];
  if (!field) return response;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify({ ...body, fields: [{ field, message: body.message }] }), { status: 400, headers });
}

/** A refusal that still proved the password: the account's email is not confirmed yet. */
async function provedSecret(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: string } | null;
  return body?.code === 'EMAIL_NOT_VERIFIED';
}

/** Who a request to better-auth is for, read from better-auth's own records (its session, its two-factor cookie). */
function signInSubjects(auth: Auth, headers: Headers): SignInSubjects {
  return {
    async sessionUser() {
      const session = await auth.api.getSession({ headers }).catch(() => null);
      return session ? { id: session.user.id, email: session.user.email } : null;
    },
    async twoFactorUserId() {
      const context = await auth.$context;
      const identifier = signedCookie(headers, context.createAuthCookie('two_factor').name, context.secret);
      if (!identifier) return null;
      const record = await context.internalAdapter.findVerificationValue(identifier);
      return record && record.expiresAt > new Date() ? record.value : null;
    },
  };
}

/** A cookie's value if better-call signed it with `secret` (value.base64(HMAC-SHA256), URL-encoded), else null. */
function signedCookie(headers: Headers, name: string, secret: string): string | null {
  for (const part of (headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let raw: string;
    try {
      raw = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
    const dot = raw.lastIndexOf('.');
    if (dot < 1) return null;
    const value = raw.slice(0, dot);
    const given = Buffer.from(raw.slice(dot + 1), 'base64');
    const expected = crypto.createHmac('sha256', secret).update(value).digest();
    return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? value : null;
  }
  return null;
}
