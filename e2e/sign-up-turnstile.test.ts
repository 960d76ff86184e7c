import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/free-port';
import { uniqueEmail } from '../tests/support/app';
import { startCaptchaVerifyServer, type CaptchaVerifyServer } from '../tests/support/captcha-verify-server';
import { startOidcServer, type OidcServer } from '../tests/support/oidc-server';
import { SignInFlow } from './pages/account-settings';
import { RegisterPage } from './pages/auth-pages';
import { seriousA11yViolations } from './support/a11y';
import { routeCaptchaWidget } from './support/captcha-stand-in';
import { eventually, useE2ESuite, waitForPath } from './support/scenario';

/**
 * Cloudflare Turnstile on /register and on 'Sign up with Google', without the
 * internet: the server verifies against a local stand-in for Turnstile's siteverify, Chromium gets a stand-in for
 * the widget script at its real URL, and Google is a local OpenID provider.
 */
let verify: CaptchaVerifyServer | undefined;
let idp: OidcServer | undefined;
const suite = useE2ESuite(async () => {
  verify = await startCaptchaVerifyServer();
  const port = await freePort('127.0.0.1');
  idp = await startOidcServer({ redirectUris: [`http://127.0.0.1:${port}/api/auth/callback/google`] });
  return {
    env: {
      PORT: String(port),
      AUTH_RATE_LIMIT: '1000',
      CAPTCHA_PROVIDER: 'cloudflare-turnstile',
      CAPTCHA_SITE_KEY: 'e2e-turnstile-site',
      CAPTCHA_SECRET_KEY: 'e2e-turnstile-secret',
      CAPTCHA_VERIFY_URL: verify.url,
      GOOGLE_ISSUER: idp.issuer,
      GOOGLE_CLIENT_ID: idp.clientId,
      GOOGLE_CLIENT_SECRET: idp.clientSecret,
    },
  };
});
afterAll(async () => {
  await verify?.close();
  await idp?.close();
});
const scenario = suite.scenario.bind(suite);

describe('Turnstile on register', () => {
  it('keeps Create Account and Sign up with Google disabled until the widget passes, then signs the trader up', async () => {
    const { page, context } = await scenario();
    await routeCaptchaWidget(context, 'cloudflare-turnstile');
    const register = new RegisterPage(page);
    await register.goto();
    await register.email.fill(uniqueEmail('turnstile'));
    await register.password.fill('correct-horse-9');
    await register.confirmation.fill('correct-horse-9');
    await page.getByTestId('captcha-solve').waitFor();
    const google = new SignInFlow(page).providerButton('Sign up with Google');
    expect(await register.submit.isDisabled()).toBe(true);
    expect(await google.isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByTestId('captcha-solve').click();
    await eventually(() => register.submit.isDisabled()).toBe(false);
    // Turnstile's siteverify takes the secret and the widget's token (no site key, unlike hCaptcha).
    expect(verify!.requests.at(-1)!.fields).toMatchObject({ secret: 'e2e-turnstile-secret', response: expect.stringMatching(/^pass-browser-/) });
    await register.submit.click();
    await waitForPath(page, '/');
  });

  it('signs a new trader up through Google once the widget has passed', async () => {
    const email = uniqueEmail('google-turnstile');
    idp!.addUser({ email, name: 'Grace Trader', emailVerified: true });
    const { page, context } = await scenario();
    await routeCaptchaWidget(context, 'cloudflare-turnstile');
    const register = new RegisterPage(page);
    await register.goto();
    await page.getByTestId('captcha-solve').click();
    const flow = new SignInFlow(page);
    const google = flow.providerButton('Sign up with Google');
    await eventually(() => google.isDisabled()).toBe(false);
    await google.click();
    await flow.atProvider(email);
    await waitForPath(page, '/');
    const session = await page.evaluate(() => fetch('/api/auth/get-session').then((r) => r.json()));
    expect(session.user).toMatchObject({ email, name: 'Grace Trader' });
  });
});
