import { afterAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../tests/support/app';
import { startCaptchaVerifyServer, type CaptchaVerifyServer } from '../tests/support/captcha-verify-server';
import { RegisterPage } from './pages/auth-pages';
import { seriousA11yViolations } from './support/a11y';
import { routeCaptchaWidget } from './support/captcha-stand-in';
import { eventually, useE2ESuite, waitForPath } from './support/scenario';

/**
 * Captcha on /register, without the internet: the server verifies against a local
 * stand-in for hCaptcha's siteverify, and Chromium gets a stand-in for hCaptcha's widget script at its real URL.
 */
let verify: CaptchaVerifyServer | undefined;
const suite = useE2ESuite(async () => {
  verify = await startCaptchaVerifyServer();
  return {
    env: {
      AUTH_RATE_LIMIT: '1000',
      CAPTCHA_PROVIDER: 'hcaptcha',
      CAPTCHA_SITE_KEY: 'e2e-site-key',
      CAPTCHA_SECRET_KEY: 'e2e-secret',
      CAPTCHA_VERIFY_URL: verify.url,
    },
  };
});
afterAll(() => verify?.close());
const scenario = suite.scenario.bind(suite);

async function fillForm(register: RegisterPage, email: string) {
  await register.email.fill(email);
  await register.password.fill('correct-horse-9');
  await register.confirmation.fill('correct-horse-9');
}

describe('captcha on register', () => {
  it('keeps Create Account disabled until the widget passes, then signs the trader up', async () => {
    const { page, context } = await scenario();
    await routeCaptchaWidget(context, 'hcaptcha');
    const register = new RegisterPage(page);
    await register.goto();
    await fillForm(register, uniqueEmail('human'));
    await page.getByTestId('captcha-solve').waitFor();
    expect(await register.submit.isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByTestId('captcha-solve').click();
    await eventually(() => register.submit.isDisabled()).toBe(false);
    expect(verify!.requests.at(-1)!.fields).toMatchObject({ secret: 'e2e-secret', sitekey: 'e2e-site-key' });
    await register.submit.click();
    await waitForPath(page, '/');
  });

  it("shows 'hCaptcha verification failed. Please try again.' and clears the token when the provider says no", async () => {
    const { page, context } = await scenario();
    await routeCaptchaWidget(context, 'hcaptcha');
    const register = new RegisterPage(page);
    await register.goto();
    await fillForm(register, uniqueEmail('robot'));
    await page.evaluate(() => {
      (window as unknown as { __captchaToken: string }).__captchaToken = 'robot-token';
    });
    await page.getByTestId('captcha-solve').click();
    await eventually(() => page.getByTestId('auth-error').textContent()).toBe('hCaptcha verification failed. Please try again.');
    expect(await register.submit.isDisabled()).toBe(true);

    // Solving it properly afterwards works.
    await page.evaluate(() => {
      delete (window as unknown as { __captchaToken?: string }).__captchaToken;
    });
    await page.getByTestId('captcha-solve').click();
    await eventually(() => register.submit.isDisabled()).toBe(false);
  });
});
