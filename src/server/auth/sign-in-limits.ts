import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { signInThrottle } from '../db/schema';

/**
 * Per-account sign-in limits with back-off. The per-address limit (better-auth's rate limiter,
 * AUTH_RATE_LIMIT) stops one client guessing; this one stops guesses spread over many addresses at one account:
 * after AUTH_ACCOUNT_ATTEMPTS attempts without a success, each further attempt must wait twice as long as the last
 * (1 s, 2 s, 4 s ... up to 15 minutes). A success clears the count. Every attempt counts the moment it arrives, so
 * a burst of parallel guesses cannot all slip in before the first failure is recorded. Counts live in the
 * database, so every app process shares them.
 *
 * Every way of proving a password or a second factor goes through here: SIGN_IN_ENDPOINTS names each one and how
 * to tell which account it is for. A new sign-in path (passkeys...) adds its line. The return from Google or the
 * OpenID provider names its account only once the provider has answered, so it is counted from inside better-auth
 * (provider-sign-in.ts), with the same limiter and the same keys.
 *
 * The keys: `email:<address>` for the password, whether it is typed to sign in or by a signed-in trader (change
 * it, turn two-factor on or off), and for a provider sign-in of that address; `second-factor:<user id>` for the
 * authenticator code and the backup codes. The second factor counts apart, because proving the password clears the
 * email's count: one shared count would let an attacker who knows the password buy new guesses at the code.
 */

/** What the handler can tell about who a request is for, from better-auth's own records (handler.ts). */
export interface SignInSubjects {
  /** The user of the request's session cookie, if it is signed in. */
  sessionUser(): Promise<{ id: string; email: string } | null>;
  /** The user a pending two-factor sign-in is for (better-auth's signed two_factor cookie), if any. */
  twoFactorUserId(): Promise<string | null>;
}

export type AccountKeyReader = (request: { body: unknown; headers: Headers; subjects: SignInSubjects }) => string | null | Promise<string | null>;

export const emailAccount = (email: string) => `email:${email.trim().toLowerCase()}`;

const emailKey: AccountKeyReader = ({ body }) => {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === 'string' && email.trim() ? emailAccount(email) : null;
};

/** The claims of a JSON Web Token, unverified (better-auth verifies the signature; this only picks the counter). */
function jwtClaims(token: unknown): Record<string, unknown> | null {
  if (typeof token !== 'string') return null;
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * A sign-in with the provider's ID token in the body names its account in the token. The usual start, a redirect to
 * the provider, names none and proves nothing: it is limited per address only.
 */
const idTokenKey: AccountKeyReader = ({ body }) => {
  const email = jwtClaims((body as { idToken?: { token?: unknown } } | null)?.idToken?.token)?.email;
  return typeof email === 'string' && email.trim() ? emailAccount(email) : null;
};

/** The authenticator code or a backup code: at sign-in for the two-factor cookie's user, at enrolment the session's. */
const secondFactorKey: AccountKeyReader = async ({ subjects }) => {
  const user = (await subjects.sessionUser())?.id ?? (await subjects.twoFactorUserId());
  return user ? `second-factor:${user}` : null;
};

/** The password of a signed-in trader: the same count as signing in with it, so a stolen session guesses no faster. */
const sessionPasswordKey: AccountKeyReader = async ({ subjects }) => {
  const user = await subjects.sessionUser();
  return user ? emailAccount(user.email) : null;
};

/** better-auth paths (under /api/auth) that check a secret, and the account each attempt is for. */
export const SIGN_IN_ENDPOINTS: Record<string, AccountKeyReader> = {
  '/sign-in/email': emailKey,
  '/sign-in/social': idTokenKey,
  '/two-factor/verify-totp': secondFactorKey,
  '/two-factor/verify-backup-code': secondFactorKey,
  '/two-factor/verify-otp': secondFactorKey,
  '/change-password': sessionPasswordKey,
  '/two-factor/enable': sessionPasswordKey,
  '/two-factor/disable': sessionPasswordKey,
  '/two-factor/get-totp-uri': sessionPasswordKey,
  '/two-factor/generate-backup-codes': sessionPasswordKey,
};

const FIRST_DELAY_SECONDS = 1;
export const MAX_DELAY_SECONDS = 15 * 60;
/** A count left alone this long starts again from zero. */
const FORGET_AFTER = '1 day';

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SignInLimiter {
  /** Counts an attempt at `account`; refuses it while the account is in back-off. */
  attempt(account: string): Promise<AttemptVerdict>;
  /** The attempt proved the secret: the count starts again. */
  succeeded(account: string): Promise<void>;
}

const hashKey = (account: string) => crypto.createHash('sha256').update(account).digest('base64url');

export function createSignInLimiter(database: Database, freeAttempts: number): SignInLimiter {
  return {
    async attempt(account) {
      const key = hashKey(account);
      const attempt = crypto.randomUUID();
      // One statement: refused while blocked (the row is left as it is), else counted, and from the free
      // attempts on the next one is blocked for a doubling delay. Only a counted attempt leaves its id in the row
      // (comparing clocks instead failed on PGlite, whose now() can repeat between statements).
      const result = await database.db.execute(sql`
        insert into ${signInThrottle} as t (key, failures, blocked_until, last_attempt, updated_at)
        values (${key}, 1, case when 1 >= ${freeAttempts}::int then now() + ${FIRST_DELAY_SECONDS} * interval '1 second' end, ${attempt}, now())
        on conflict (key) do update set
          failures = case
            when t.blocked_until > now() then t.failures
            when t.updated_at < now() - ${FORGET_AFTER}::interval then 1
            else t.failures + 1 end,
          blocked_until = case
            when t.blocked_until > now() then t.blocked_until
            when t.updated_at < now() - ${FORGET_AFTER}::interval then null
            when t.failures + 1 >= ${freeAttempts}::int
              then now() + least(${MAX_DELAY_SECONDS}, ${FIRST_DELAY_SECONDS} * power(2, least(t.failures + 1 - ${freeAttempts}::int, 20))) * interval '1 second'
            end,
          last_attempt = case when t.blocked_until > now() then t.last_attempt else ${attempt} end,
          updated_at = case when t.blocked_until > now() then t.updated_at else now() end
        returning last_attempt = ${attempt} as counted, ceil(extract(epoch from (blocked_until - now())))::int as wait`);
      const [row] = (result as unknown as { rows: Array<{ counted: boolean; wait: number | null }> }).rows;
      if (!row || row.counted) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, row.wait ?? 1) };
    },
    async succeeded(account) {
      await database.db.execute(sql`delete from ${signInThrottle} where key = ${hashKey(account)}`);
    },
  };
}

export { tooManyAttemptsMessage } from '../../domain/sign-in';
