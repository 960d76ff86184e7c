import crypto from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { verification } from '../db/schema';

/**
 * Captcha on sign-up: the widget's token goes to POST /api/verify-recaptcha, which asks
 * the provider once (a token is single-use there) and hands back a pass. The sign-up, by email or through Google or
 * the OpenID provider, must then present that pass; the server checks it itself, so a script that skips the widget
 * is refused.
 */

const SITEVERIFY: Record<'hcaptcha' | 'cloudflare-turnstile', string> = {
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
  'cloudflare-turnstile': 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
};
/** A pass is good for one sign-up within five minutes of solving the captcha. */
const PASS_TTL_MS = 5 * 60_000;
const VERIFY_TIMEOUT_MS = 10_000;
const PASS_PREFIX = 'captcha-pass:';

export class CaptchaUnavailableError extends Error {}

export function createCaptchaService(deps: { config: Config; database: Database }) {
  const { config, database } = deps;
  const captcha = config.captcha;

  /** Asks the provider whether the widget's token is good. Throws CaptchaUnavailableError when it cannot tell. */
  async function verifyWithProvider(token: string, remoteIp: string | undefined): Promise<boolean> {
    if (!captcha) return true;
    const url = config.CAPTCHA_VERIFY_URL ?? SITEVERIFY[captcha.provider];
    const fields: Record<string, string> = { secret: captcha.secretKey, response: token };
    if (remoteIp && remoteIp !== 'unknown') fields.remoteip = remoteIp;
    // hCaptcha wants a form body (and the site key it was solved for); Turnstile takes either, JSON is its documented one.
    const init: RequestInit =
      captcha.provider === 'hcaptcha'
        ? {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ ...fields, sitekey: captcha.siteKey }).toString(),
          }
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) };
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
    } catch (error) {
      throw new CaptchaUnavailableError(`captcha verification unreachable: ${(error as Error).message}`);
    }
    if (!response.ok) throw new CaptchaUnavailableError(`reCAPTCHA verification failed: ${response.status}`);
    const body = (await response.json().catch(() => null)) as { success?: unknown } | null;
    return body?.success === true;
  }

  const identifierOf = (pass: string) => PASS_PREFIX + crypto.createHash('sha256').update(pass).digest('base64url');

  return {
    enabled: captcha !== null,

    /** Verifies the widget's token; on success returns a one-time pass for the sign-up that follows. */
    async verifyToken(token: string, remoteIp: string | undefined): Promise<{ success: boolean; pass?: string }> {
      if (!captcha) return { success: true };
      if (!(await verifyWithProvider(token, remoteIp))) return { success: false };
      const pass = crypto.randomBytes(24).toString('base64url');
      await database.db.insert(verification).values({
        identifier: identifierOf(pass),
        // Only its hash is stored: a database reader cannot replay it.
        value: 'captcha',
        expiresAt: new Date(Date.now() + PASS_TTL_MS),
      });
      return { success: true, pass };
    },

    /** Uses up a pass; true when it was issued here, unused and not expired. */
    async consumePass(pass: string | null | undefined): Promise<boolean> {
      if (!captcha) return true;
      if (!pass || pass.length > 200) return false;
      const deleted = await database.db
        .delete(verification)
        .where(and(eq(verification.identifier, identifierOf(pass)), gt(verification.expiresAt, sql`now()`)))
        .returning({ id: verification.id });
      return deleted.length === 1;
    },
  };
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;
