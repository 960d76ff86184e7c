import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/**
 * Two-factor authentication with an authenticator app (TOTP) and backup codes, through better-auth's plugin
 * ("Account controls"): enrolment, sign-in with a code and with a backup code, and the per-address limit
 * on the second step.
 */

const PASSWORD = 'correct-horse-9';
const LIMIT = 4;

function totpOf(uri: string): OTPAuth.TOTP {
  const parsed = OTPAuth.URI.parse(uri);
  if (!(parsed instanceof OTPAuth.TOTP)) throw new Error('not a TOTP URI');
  return parsed;
}

/** A code for a time step other than the one a previous code used (better-auth accepts one step either side). */
const codeAt = (totp: OTPAuth.TOTP, stepOffset: number) => totp.generate({ timestamp: Date.now() + stepOffset * totp.period * 1000 });

async function enrol(app: TestApp): Promise<{ email: string; totp: OTPAuth.TOTP; backupCodes: string[]; client: ApiClient }> {
  const email = uniqueEmail('2fa');
  const client = app.client();
  expect((await client.signUp(email, PASSWORD)).status).toBe(200);
  const enabled = await client.post<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { password: PASSWORD });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  const totp = totpOf(enabled.body.totpURI);
  const confirmed = await client.post('/api/auth/two-factor/verify-totp', { code: totp.generate() });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { email, totp, backupCodes: enabled.body.backupCodes, client };
}

describe.each(backends())('two-factor authentication on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    // The per-account allowance out of the way: these tests count per address (the per-account limit on the second
    // factor is in sign-in-limits-steps.test.ts).
    app = await startTestApp({ backend, realPasswordHashing: true, env: { AUTH_RATE_LIMIT: String(LIMIT), AUTH_ACCOUNT_ATTEMPTS: '1000' } });
  });
  afterAll(() => app?.close());

  it('enrols with the password: an otpauth URI naming Edgebook and the email, and ten backup codes', async () => {
    const email = uniqueEmail('enrol');
    const client = app.client();
    await client.signUp(email, PASSWORD);
    expect((await client.post('/api/auth/two-factor/enable', { password: 'wrong-password-1' })).status).toBe(400);
    const { body } = await client.post<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { password: PASSWORD });
    const totp = totpOf(body.totpURI);
    expect(totp.issuer).toBe('Edgebook');
    expect(totp.label).toBe(email);
    expect(body.backupCodes).toHaveLength(10);
    expect(new Set(body.backupCodes).size).toBe(10);

    // Until a first code confirms the app is set up, sign-in asks for no second factor.
    const before = await app.client().signIn(email, PASSWORD);
    expect(before.body.twoFactorRedirect).toBeUndefined();
    expect((await client.post('/api/auth/two-factor/verify-totp', { code: '000000' })).status).toBe(401);
    expect((await client.post('/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
    expect((await client.get('/api/auth/get-session')).body.user.twoFactorEnabled).toBe(true);
  });

  it('signs in with the password and then a code; the password alone gives no session', async () => {
    const { email, totp } = await enrol(app);
    const browser = app.client();
    const first = await browser.signIn(email, PASSWORD);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect((await browser.get('/api/auth/get-session')).body).toBeNull();
    expect((await browser.get('/api/accounts')).status).toBe(401);

    const wrong = await browser.post('/api/auth/two-factor/verify-totp', { code: codeAt(totp, 10) });
    expect(wrong.status).toBe(401);
    const right = await browser.post('/api/auth/two-factor/verify-totp', { code: codeAt(totp, 1) });
    expect(right.status).toBe(200);
    expect((await browser.get('/api/auth/get-session')).body.user.email).toBe(email);
    expect((await browser.get('/api/accounts')).status).toBe(200);
  });

  it('accepts a code only after the password step of the same browser', async () => {
    const { totp } = await enrol(app);
    const stranger = app.client();
    const res = await stranger.post('/api/auth/two-factor/verify-totp', { code: totp.generate() });
    expect(res.status).toBe(401);
    expect((await stranger.get('/api/auth/get-session')).body).toBeNull();
  });

  it('signs in with a backup code, each code once', async () => {
    const { email, backupCodes } = await enrol(app);
    const browser = app.client();
    await browser.signIn(email, PASSWORD);
    expect((await browser.post('/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] })).status).toBe(200);
    expect((await browser.get('/api/auth/get-session')).body.user.email).toBe(email);

    const again = app.client();
    await again.signIn(email, PASSWORD);
    expect((await again.post('/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] })).status).toBe(401);
    expect((await again.get('/api/auth/get-session')).body).toBeNull();
    expect((await again.post('/api/auth/two-factor/verify-backup-code', { code: backupCodes[1] })).status).toBe(200);
  });

  it('limits the second step per client address, for codes and backup codes alike', async () => {
    const { email, totp } = await enrol(app);
    const attacker = app.client();
    expect((await attacker.signIn(email, PASSWORD)).body.twoFactorRedirect).toBe(true);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      statuses.push((await attacker.post('/api/auth/two-factor/verify-backup-code', { code: `guess-${i}-xxxx` })).status);
    }
    // AUTH_RATE_LIMIT per minute (4 here, not the plugin's own 3 per 10 s), then 429.
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
    expect((await attacker.post('/api/auth/two-factor/verify-totp', { code: codeAt(totp, 10) })).status).not.toBe(200);

    // The trader, from their own address, still gets in.
    const trader = app.client();
    await trader.signIn(email, PASSWORD);
    // The next step's code: were a step to end on the way, it is the current one (the window takes both).
    expect((await trader.post('/api/auth/two-factor/verify-totp', { code: codeAt(totp, 1) })).status).toBe(200);
  });

  it('turns off with the password; sign-in then needs the password only', async () => {
    const { email, client } = await enrol(app);
    expect((await client.post('/api/auth/two-factor/disable', { password: 'wrong-password-1' })).status).toBe(400);
    expect((await client.post('/api/auth/two-factor/disable', { password: PASSWORD })).status).toBe(200);
    const browser = app.client();
    const res = await browser.signIn(email, PASSWORD);
    expect(res.body.twoFactorRedirect).toBeUndefined();
    expect((await browser.get('/api/auth/get-session')).body.user.email).toBe(email);
  });
});
