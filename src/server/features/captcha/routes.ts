import { Hono } from 'hono';
import { verifyCaptchaInput, type CaptchaVerdict } from '../../../contract/account';
import type { AppDeps, AppEnv } from '../../http/context';
import { clientAddress } from '../../http/client-address';
import { readJson } from '../../http/validate';
import { CaptchaUnavailableError } from '../../auth/captcha';

/**
 * POST /api/verify-recaptcha {token} -> {success}, plus a one-time `pass` for the sign-up
 * that follows. A provider that cannot be reached answers 502, which the form shows as
 * 'reCAPTCHA verification failed: 502'.
 */
export function captchaRoutes({ captcha, logger }: AppDeps) {
  return new Hono<AppEnv>().post('/', async (c) => {
    const { token } = await readJson(c, verifyCaptchaInput);
    try {
      return c.json((await captcha.verifyToken(token, clientAddress(c))) satisfies CaptchaVerdict);
    } catch (error) {
      if (!(error instanceof CaptchaUnavailableError)) throw error;
      logger.warn({ reason: error.message }, 'captcha verification unavailable');
      return c.json({ success: false, error: 'Captcha verification is unavailable. Please try again.' } satisfies CaptchaVerdict, 502);
    }
  });
}
