import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/free-port';
import { uniqueEmail } from '../tests/support/app';
import { passIdentityProvider, startOidcServer, type OidcServer } from '../tests/support/oidc-server';
import { IntroPage, LoginPage, RegisterPage } from './pages/auth-pages';
import { AccountSettings, SignInFlow } from './pages/account-settings';
import { seriousA11yViolations } from './support/a11y';
import { createAccount, PASSWORD, signedInAccount } from './support/accounts';
import { eventually, useAppTheme, useE2ESuite, waitForPath } from './support/scenario';

/**
 * Sign-in a self-hoster can trust, in Chromium: Google and an OpenID Connect provider against a real
 * OpenID server on a loopback port, two-factor sign-in, and the account controls in Profile Settings.
 */

let idp: OidcServer | undefined;
const suite = useE2ESuite(async () => {
  const port = await freePort('127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  idp = await startOidcServer({ redirectUris: [`${base}/api/auth/callback/oidc`, `${base}/api/auth/callback/google`] });
  return {
    env: {
      PORT: String(port),
      AUTH_RATE_LIMIT: '1000',
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: 'Authentik',
      GOOGLE_ISSUER: idp.issuer,
      GOOGLE_CLIENT_ID: idp.clientId,
      GOOGLE_CLIENT_SECRET: idp.clientSecret,
    },
  };
});
afterAll(() => idp?.close());
const scenario = suite.scenario.bind(suite);

async function userCount(): Promise<number> {
  const result = await suite.e2e.app.server.database.db.execute(sql`select count(*)::int as n from "user"`);
  return Number((result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
}

async function enrolTwoFactor(email: string): Promise<{ totp: OTPAuth.TOTP; backupCodes: string[] }> {
  const client = suite.e2e.app.client();
  await client.signIn(email, PASSWORD);
  const { body } = await client.post<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { password: PASSWORD });
  const totp = OTPAuth.URI.parse(body.totpURI) as OTPAuth.TOTP;
  expect((await client.post('/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
  return { totp, backupCodes: body.backupCodes };
}

describe('Google and OpenID Connect', () => {
  it('a new trader signs up through the OpenID provider from /login and lands on the dashboard; next time it is the same account', async () => {
    const email = uniqueEmail('authentik');
    idp!.addUser({ email, name: 'Ada Authentik', emailVerified: true });
    const before = await userCount();

    const { page } = await scenario();
    const login = new LoginPage(page);
    const flow = new SignInFlow(page);
    await login.goto();
    await flow.providerButton('Sign in with Authentik').click();
    await page.waitForURL((url) => url.origin === idp!.issuer);
    await flow.atProvider(email);
    await waitForPath(page, '/');
    await page.getByRole('button', { name: 'Profile settings' }).waitFor();
    expect(await userCount()).toBe(before + 1);

    const returning = await scenario();
    await new LoginPage(returning.page).goto();
    await new SignInFlow(returning.page).providerButton('Sign in with Authentik').click();
    await new SignInFlow(returning.page).atProvider(email);
    await waitForPath(returning.page, '/');
    expect(await userCount()).toBe(before + 1);
  });

  it("'Sign up with Google' on /register goes through Google and into the app", async () => {
    const email = uniqueEmail('google');
    idp!.addUser({ email, name: 'Grace Google', emailVerified: true });
    const { page } = await scenario();
    await new RegisterPage(page).goto();
    const flow = new SignInFlow(page);
    await flow.providerButton('Sign up with Google').click();
    await flow.atProvider(email);
    await waitForPath(page, '/');
    const session = await page.evaluate(() => fetch('/api/auth/get-session').then((r) => r.json()));
    expect(session.user).toMatchObject({ email, name: 'Grace Google' });
  });

  it('cancelling at the provider comes back to /login with a message and no session', async () => {
    const email = uniqueEmail('cancel');
    idp!.addUser({ email, name: 'Cancel', emailVerified: true });
    const { page } = await scenario();
    const flow = new SignInFlow(page);
    await new LoginPage(page).goto();
    await flow.providerButton('Sign in with Authentik').click();
    await flow.atProvider(email, 'Cancel');
    await waitForPath(page, '/login');
    await eventually(() => flow.error.textContent()).toBe('Authentik sign-in was cancelled.');
    const session = await page.evaluate(() => fetch('/api/auth/get-session').then((r) => r.json()));
    expect(session).toBeNull();
  });

  it("a callback whose state this browser did not start is refused: 'Failed to sign in with Google. Please try again.'", async () => {
    const email = uniqueEmail('state');
    idp!.addUser({ email, name: 'Attacker', emailVerified: true });
    // An attacker starts a Google sign-in with their own account and stops at the callback (login CSRF) ...
    const attacker = suite.e2e.app.client();
    const started = await attacker.post<{ url: string }>('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: '/auth-callback.html?next=%2F&provider=google',
      errorCallbackURL: '/auth-callback.html?next=%2Flogin&provider=google',
    });
    const callback = await passIdentityProvider(started.body.url, { email, action: 'allow' });
    // ... and makes the victim's browser open it: its state is not this browser's.
    const { page } = await scenario();
    const flow = new SignInFlow(page);
    await page.goto(callback);
    await waitForPath(page, '/login');
    await eventually(() => flow.error.textContent()).toBe('Failed to sign in with Google. Please try again.');
    const session = await page.evaluate(() => fetch('/api/auth/get-session').then((r) => r.json()));
    expect(session).toBeNull();
  });

  it('does not let an unverified provider email take over an existing password account', async () => {
    const account = await createAccount(suite.e2e.app, 'taken');
    idp!.addUser({ email: account.email, name: 'Impostor', emailVerified: false });
    const { page } = await scenario();
    const flow = new SignInFlow(page);
    await new LoginPage(page).goto();
    await flow.providerButton('Sign in with Authentik').click();
    await flow.atProvider(account.email);
    await waitForPath(page, '/login');
    await eventually(() => flow.error.textContent()).toContain('did not confirm the address is yours');
  });

  it('an account in sign-in back-off is refused through the provider too, and /login says how long to wait', async () => {
    const account = await createAccount(suite.e2e.app, 'backoff');
    idp!.addUser({ email: account.email, name: 'Owner', emailVerified: true });
    // Wrong passwords from elsewhere have put the account in back-off for five minutes.
    const key = crypto.createHash('sha256').update(`email:${account.email}`).digest('base64url');
    await suite.e2e.app.server.database.db.execute(
      sql`insert into sign_in_throttle (key, failures, blocked_until, last_attempt, updated_at) values (${key}, 9, now() + interval '300 seconds', 'e2e', now())`,
    );
    const { page } = await scenario();
    const flow = new SignInFlow(page);
    await new LoginPage(page).goto();
    await flow.providerButton('Sign in with Authentik').click();
    await flow.atProvider(account.email);
    await waitForPath(page, '/login');
    await eventually(() => flow.error.textContent()).toBe('Too many failed sign-in attempts for this account. Try again in 5 minutes.');
    const session = await page.evaluate(() => fetch('/api/auth/get-session').then((r) => r.json()));
    expect(session).toBeNull();
  });

  it('the sign-in and sign-up pages with provider buttons pass axe in both themes', async () => {
    for (const colorScheme of ['dark', 'light'] as const) {
      const { page, context } = await scenario({ colorScheme });
      await useAppTheme(context, colorScheme);
      for (const path of ['/login', '/register']) {
        await page.goto(path);
        await page
          .getByRole('button', { name: 'Sign in with Authentik' })
          .or(page.getByRole('button', { name: 'Sign up with Authentik' }))
          .waitFor();
        expect(await seriousA11yViolations(page), `${path} ${colorScheme}`).toEqual([]);
      }
    }
  });
});

describe('two-factor sign-in', () => {
  it('asks for the authenticator code after the password, refuses a wrong one, and signs in with the right one', async () => {
    const account = await createAccount(suite.e2e.app, 'totp');
    const { totp } = await enrolTwoFactor(account.email);
    const { page } = await scenario();
    const login = new LoginPage(page);
    const flow = new SignInFlow(page);
    await login.goto();
    await login.signIn(account.email, account.password);
    await flow.twoFactorStep.waitFor();
    await page.getByRole('heading', { name: 'Two-Factor Authentication' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await flow.enterSecondFactor(totp.generate({ timestamp: Date.now() + 10 * 30_000 }));
    await eventually(() => flow.error.textContent()).toBe('Invalid code. Please try again.');
    await flow.enterSecondFactor(totp.generate({ timestamp: Date.now() + 30_000 }));
    await waitForPath(page, '/');
  });

  it('signs in with a backup code instead', async () => {
    const account = await createAccount(suite.e2e.app, 'backup');
    const { backupCodes } = await enrolTwoFactor(account.email);
    const { page } = await scenario();
    const login = new LoginPage(page);
    const flow = new SignInFlow(page);
    await login.goto();
    await login.signIn(account.email, account.password);
    await page.getByTestId('two-factor-switch').click();
    await page.getByLabel('Backup code').waitFor();
    await flow.enterSecondFactor(backupCodes[3]!);
    await waitForPath(page, '/');
  });
});

describe('account controls in Profile Settings', () => {
  it('turns on two-factor authentication: password, QR code and key, a first code, then backup codes', async () => {
    const { page, context } = await scenario();
    const account = await signedInAccount(suite.e2e.app, context, 'enrol');
    const settings = new AccountSettings(page);
    await settings.open('Security');
    const dialog = settings.dialog;
    await dialog.getByTestId('two-factor-enable').click();
    await dialog.getByTestId('two-factor-password').fill(account.password);
    await dialog.getByTestId('two-factor-password-submit').click();
    await dialog.getByTestId('two-factor-qr').locator('svg').waitFor();
    const secret = (await dialog.getByTestId('two-factor-secret').innerText()).trim();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    await dialog.getByTestId('two-factor-enrol-code').fill(totp.generate());
    await dialog.getByTestId('two-factor-enrol-submit').click();
    const codes = (await dialog.getByTestId('backup-codes').locator('pre').innerText()).trim().split('\n');
    expect(codes).toHaveLength(10);
    await dialog.getByTestId('backup-codes-done').click();
    await eventually(() => dialog.getByTestId('two-factor-status').textContent()).toBe('On');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The next sign-in asks for a code.
    const next = await suite.e2e.app.client().signIn(account.email, account.password);
    expect(next.body.twoFactorRedirect).toBe(true);
  });

  it('lists this device among the sessions and signs another one out', async () => {
    const { page, context } = await scenario();
    const account = await signedInAccount(suite.e2e.app, context, 'sessions');
    const phone = suite.e2e.app.client();
    await phone.request(
      'POST',
      '/api/auth/sign-in/email',
      { email: account.email, password: account.password },
      { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1' },
    );
    const settings = new AccountSettings(page);
    await settings.open('Security');
    // This browser's session (the sign-up's own) and the phone's.
    const rows = settings.dialog.getByTestId('session-row');
    await eventually(() => rows.count()).toBe(2);
    await settings.dialog.getByTestId('session-row').filter({ hasText: 'Safari on iOS' }).getByRole('button', { name: 'Sign out' }).click();
    await eventually(() => rows.count()).toBe(1);
    expect((await phone.get('/api/auth/get-session')).body).toBeNull();
    await settings.dialog.getByTestId('session-row').filter({ hasText: 'This device' }).waitFor();
  });

  it('exports everything as one JSON file, then deletes the account after the email is typed again', async () => {
    const { page, context } = await scenario();
    const account = await signedInAccount(suite.e2e.app, context, 'leaving');
    const settings = new AccountSettings(page);
    await settings.open('Your Data');
    const [download] = await Promise.all([page.waitForEvent('download'), settings.dialog.getByTestId('export-all').click()]);
    expect(download.suggestedFilename()).toMatch(/^edgebook-export-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    expect(exported.user.email).toBe(account.email);
    expect(exported.tables.trades.length).toBeGreaterThan(0);

    await settings.dialog.getByTestId('delete-account').click();
    const confirm = page.getByRole('dialog', { name: 'Delete your account?' });
    const button = confirm.getByTestId('delete-account-confirm');
    await confirm.getByTestId('delete-account-email').fill('someone-else@example.com');
    expect(await button.isDisabled()).toBe(true);
    await confirm.getByTestId('delete-account-email').fill(account.email);
    await button.click();
    await waitForPath(page, '/intro');
    // The intro marks itself seen once drawn; leaving before its code has loaded would skip that, as a trader cannot.
    await new IntroPage(page).getStarted.waitFor();
    expect((await suite.e2e.app.client().signIn(account.email, account.password)).status).toBe(401);
    await page.goto('/');
    await waitForPath(page, '/login');
  });
});
