import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedEmails, uniqueEmail } from '../tests/support/app';
import { linkIn, startSmtpServer, type TestSmtp } from '../tests/support/smtp';
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage } from './pages/auth-pages';
import { Shell } from './pages/shell';
import { eventually, useE2ESuite, waitForPath } from './support/scenario';

/**
 * Accounts with SMTP_URL set, in Chromium: real emails through a real SMTP server, confirmation before the first
 * sign-in, and a password reset whose link arrives by email.
 */

let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});

const suite = useE2ESuite(() => ({ env: { SMTP_URL: smtp.url, AUTH_RATE_LIMIT: '1000' } }));
const scenario = suite.scenario.bind(suite);

describe('accounts with SMTP', () => {
  it('asks a new trader to confirm their email, and lets them in only after the emailed link', async () => {
    const email = uniqueEmail('confirm');
    const password = 'correct-horse-9';
    const { page } = await scenario();
    const register = new RegisterPage(page);
    await register.goto();
    await register.register(email, password);
    await register.success.waitFor();
    expect((await register.success.innerText()).trim()).toContain('Check your email to confirm your account.');
    expect(new URL(page.url()).pathname).toBe('/register');

    const confirmation = await smtp.waitFor(email, /confirm/i);
    // The email went out by SMTP, not to the server log.
    expect(loggedEmails(suite.e2e.app.logs, email)).toEqual([]);

    // Before confirming: the unconfirmed notice, no session.
    const login = new LoginPage(page);
    await login.goto();
    await login.signIn(email, password);
    await login.unconfirmed.waitFor();
    expect(await login.unconfirmed.innerText()).toContain('Confirming Your Email');
    expect(await login.unconfirmed.innerText()).toContain('Your email address is not confirmed yet.');
    expect(new URL(page.url()).pathname).toBe('/login');
    // After one retry (3 s) it says to open the link, and offers to send it again.
    const resend = page.getByRole('button', { name: 'Resend confirmation email' });
    await resend.waitFor({ timeout: 10_000 });
    const confirmations = () => smtp.inbox.filter((m) => m.to.includes(email) && /confirm/i.test(m.subject));
    await eventually(() => confirmations().length).toBeGreaterThanOrEqual(1);
    const before = confirmations().length;
    await resend.click();
    await page.getByText('Confirmation email sent. Check your inbox.').waitFor();
    await eventually(() => confirmations().length).toBeGreaterThan(before);
    expect(confirmations()[0]).toBe(confirmation);

    // Following the newest link confirms the account and signs this browser in.
    await page.goto(linkIn(confirmations().at(-1)!));
    await waitForPath(page, '/');
    await new Shell(page).waitUntilReady();

    // And a fresh browser can now sign in with the password.
    const other = await scenario();
    const otherLogin = new LoginPage(other.page);
    await otherLogin.goto();
    await otherLogin.signIn(email, password);
    await waitForPath(other.page, '/');
    await new Shell(other.page).waitUntilReady();
  });

  it('emails a password-reset link by SMTP, and the link sets a new password', async () => {
    const email = uniqueEmail('smtp-reset');
    const client = suite.e2e.app.client();
    expect((await client.signUp(email, 'old-password-1')).status).toBe(200);
    const confirmation = await smtp.waitFor(email, /confirm/i);
    expect((await client.request('GET', linkIn(confirmation).slice(suite.e2e.app.url.length))).status).toBeLessThan(400);

    const { page } = await scenario();
    const forgot = new ForgotPasswordPage(page);
    await forgot.goto();
    await forgot.requestLink(email);
    await forgot.success.waitFor();
    expect((await forgot.success.innerText()).trim()).toBe('Password reset link sent! Check your email inbox.');

    const mail = await smtp.waitFor(email, /reset/i);
    expect(loggedEmails(suite.e2e.app.logs, email)).toEqual([]);
    await page.goto(linkIn(mail));
    await waitForPath(page, '/reset-password');
    const reset = new ResetPasswordPage(page);
    await reset.setPassword('new-password-2');
    await reset.success.waitFor();
    await waitForPath(page, '/login', 10_000);

    const login = new LoginPage(page);
    await login.signIn(email, 'new-password-2');
    await waitForPath(page, '/');
    await new Shell(page).waitUntilReady();
  });
});
