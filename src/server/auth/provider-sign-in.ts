import { AsyncLocalStorage } from 'node:async_hooks';
import { APIError } from 'better-auth/api';
import { TOO_MANY_ATTEMPTS_CODE } from '../../domain/sign-in';
import { emailAccount, type SignInLimiter } from './sign-in-limits';

/**
 * The per-account limit on the return from Google or the OpenID provider (/api/auth/callback/:id). Which account it
 * is for is known only inside better-auth, once the provider has answered, so the handler runs the callback with a
 * record of it in async-local storage, and two of better-auth's hooks fill it in (auth.ts):
 * - the provider's profile (mapProfileToUser) says which email the provider vouches for: a callback that got that far
 *   and was refused (an unverified email claiming an existing account, for one) counts as a failed attempt at it;
 * - the session about to be created says which account is signing in: an account in back-off is refused there, as
 *   its password would be, and a sign-in that gets through clears the count, as a right password does.
 */
interface ProviderCallback {
  /** The account of the email the provider vouched for. */
  vouchedFor: string | null;
  /** The account a session is being created for, counted already. */
  signingIn: string | null;
}

const callbacks = new AsyncLocalStorage<ProviderCallback>();

/** Runs a provider callback through better-auth, then settles the account's count by how it ended. */
export async function limitProviderCallback(limiter: SignInLimiter, run: () => Promise<Response>): Promise<Response> {
  const callback: ProviderCallback = { vouchedFor: null, signingIn: null };
  const response = await callbacks.run(callback, run);
  if (callback.signingIn) {
    if (setsSession(response)) await limiter.succeeded(callback.signingIn);
  } else if (callback.vouchedFor && redirectsWithError(response)) {
    await limiter.attempt(callback.vouchedFor);
  }
  return response;
}

/** For the provider's mapProfileToUser: the email the provider vouches for (verified or not). */
export function noteProviderProfile(profile: { email?: unknown }) {
  const callback = callbacks.getStore();
  if (callback && typeof profile.email === 'string' && profile.email.trim()) callback.vouchedFor = emailAccount(profile.email);
}

/**
 * For better-auth's session.create.before: inside a provider callback, counts the sign-in at the account's email and
 * refuses it while the account is in back-off. The callback turns the error into a redirect to the sign-in page with
 * ?error=too_many_attempts&error_description=<seconds>.
 */
export async function checkProviderSession(limiter: SignInLimiter, email: string | undefined) {
  const callback = callbacks.getStore();
  if (!callback || !email) return;
  const account = emailAccount(email);
  const verdict = await limiter.attempt(account);
  if (!verdict.allowed) {
    callback.vouchedFor = null; // counted already: the refusal is not a second failure
    throw new APIError('TOO_MANY_REQUESTS', { code: TOO_MANY_ATTEMPTS_CODE, message: String(verdict.retryAfterSeconds) });
  }
  callback.signingIn = account;
}

const SESSION_COOKIE = /^(?:__Secure-)?better-auth\.session_token=[^;]+/;

function setsSession(response: Response): boolean {
  return response.headers.getSetCookie().some((line) => SESSION_COOKIE.test(line) && !/max-age=0/i.test(line));
}

function redirectsWithError(response: Response): boolean {
  const location = response.headers.get('location');
  if (!location) return false;
  try {
    return new URL(location, 'http://localhost').searchParams.has('error');
  } catch {
    return false;
  }
}
