import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/**
 * Rate limits stay per socket address on every sign-in path, the two-factor step included, and the
 * per-account limit on every step that checks a secret: the password at sign-in, the authenticator code, a backup
 * code, the current password when changing it. (The provider callback's limits are in sign-in-oidc.test.ts.)
 */

const PASSWORD = 'correct-horse-9';
const ACCOUNT_ATTEMPTS = 3;
const TOO_MANY = /^Too many failed sign-in attempts for this account\. Try again in \d+ seconds\.$/;

/** The key the limiter stores for an account (sign-in-limits.ts hashes it). */
const throttleKey = (account: string) => crypto.createHash('sha256').update(account).digest('base64url');

function totpOf(uri: string): OTPAuth.TOTP {
  const parsed = OTPAuth.URI.parse(uri);
  if (!(parsed instanceof OTPAuth.TOTP)) throw new Error('not a TOTP URI');
  return parsed;
}

/**
 * A code for another time step than earlier ones. The server accepts one step either side of its own, so a right code
 * is taken from now or the next step, never the previous one: a step boundary passing between making the code and the
 * server checking it would put the previous step out of reach.
 */
const codeAt = (totp: OTPAuth.TOTP, stepOffset: number) => totp.generate({ timestamp: Date.now() + stepOffset * totp.period * 1000 });

interface Enrolled {
  email: string;
  userId: string;
  totp: OTPAuth.TOTP;
  backupCodes: string[];
}

async function enrol(app: TestApp): Promise<Enrolled> {
  const email = uniqueEmail('steps');
  const client = app.client();
  expect((await client.signUp(email, PASSWORD)).status).toBe(200);
  const enabled = await client.post<{ totpURI: string; backupCodes: string[] }>('/api/auth/two-factor/enable', { password: PASSWORD });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  const totp = totpOf(enabled.body.totpURI);
  expect((await client.post('/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
  const { body } = await client.get<{ user: { id: string } }>('/api/auth/get-session');
  return { email, userId: body.user.id, totp, backupCodes: enabled.body.backupCodes };
}

describe.each(backends())('per-account limits on every sign-in step on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    // A per-address limit far above this test's attempts: only the per-account rule is in play.
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: '1000', AUTH_ACCOUNT_ATTEMPTS: String(ACCOUNT_ATTEMPTS) } });
  });
  afterAll(() => app?.close());

  const database = () => app.server.database.db;
  /** The account's back-off is stretched to 30 s: on a busy machine the 1 s after the last free attempt can pass. */
  const stretch = (account: string) =>
    database().execute(
      sql`update sign_in_throttle set blocked_until = now() + interval '30 seconds' where key = ${throttleKey(account)} and blocked_until is not null`,
    );
  const waitOut = (account: string) => database().execute(sql`update sign_in_throttle set blocked_until = now() where key = ${throttleKey(account)}`);
  const counted = async (account: string) => {
    const result = await database().execute(sql`select failures from sign_in_throttle where key = ${throttleKey(account)}`);
    return (result as unknown as { rows: Array<{ failures: number }> }).rows[0]?.failures ?? 0;
  };

  /** The attacker's browser signed in with the password; each guess then comes from a new address with its cookie. */
  async function pastThePassword(email: string): Promise<ApiClient> {
    const attacker = app.client();
    const first = await attacker.signIn(email, PASSWORD);
    expect(first.body.twoFactorRedirect).toBe(true);
    return attacker;
  }
  const guessFromNewAddress = (browser: ApiClient, path: string, body: unknown) =>
    app.client().request('POST', path, body, { cookie: browser.cookieHeader });

  it('limits authenticator codes per account from any address, and proving the password again buys no new guesses', async () => {
    const trader = await enrol(app);
    const account = `second-factor:${trader.userId}`;
    let attacker = await pastThePassword(trader.email);
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) {
      // The password again between guesses: it clears the password's count, not the code's.
      if (i > 0) attacker = await pastThePassword(trader.email);
      statuses.push((await guessFromNewAddress(attacker, '/api/auth/two-factor/verify-totp', { code: codeAt(trader.totp, 20 + i) })).status);
    }
    expect(statuses).toEqual(Array(ACCOUNT_ATTEMPTS).fill(401));
    expect(await counted(account)).toBe(ACCOUNT_ATTEMPTS);
    await stretch(account);

    // Meanwhile even the right code is refused, from the trader's own new address too, and signs nobody in.
    const trader2 = await pastThePassword(trader.email);
    const blocked = await trader2.request('POST', '/api/auth/two-factor/verify-totp', { code: codeAt(trader.totp, 1) });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect((await blocked.json()).message).toMatch(TOO_MANY);
    expect((await trader2.get('/api/auth/get-session')).body).toBeNull();

    // Once the wait is over the right code signs in and the count starts again.
    await waitOut(account);
    expect((await trader2.post('/api/auth/two-factor/verify-totp', { code: codeAt(trader.totp, 1) })).status).toBe(200);
    expect((await trader2.get<{ user: { email: string } }>('/api/auth/get-session')).body.user.email).toBe(trader.email);
    expect(await counted(account)).toBe(0);
  });

  it('counts backup codes with authenticator codes: one allowance for the second factor', async () => {
    const trader = await enrol(app);
    const account = `second-factor:${trader.userId}`;
    const attacker = await pastThePassword(trader.email);
    expect((await guessFromNewAddress(attacker, '/api/auth/two-factor/verify-totp', { code: codeAt(trader.totp, 20) })).status).toBe(401);
    for (let i = 1; i < ACCOUNT_ATTEMPTS; i++) {
      expect((await guessFromNewAddress(attacker, '/api/auth/two-factor/verify-backup-code', { code: `guess-${i}-abcde` })).status).toBe(401);
    }
    await stretch(account);
    const blocked = await guessFromNewAddress(attacker, '/api/auth/two-factor/verify-backup-code', { code: trader.backupCodes[0] });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).code).toBe('TOO_MANY_ATTEMPTS');

    await waitOut(account);
    const browser = await pastThePassword(trader.email);
    expect((await browser.post('/api/auth/two-factor/verify-backup-code', { code: trader.backupCodes[0] })).status).toBe(200);
    expect((await browser.get<{ user: { email: string } }>('/api/auth/get-session')).body.user.email).toBe(trader.email);
  });

  it('keeps one trader’s second-factor back-off from another’s', async () => {
    const victim = await enrol(app);
    const neighbour = await enrol(app);
    const attacker = await pastThePassword(victim.email);
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) {
      await guessFromNewAddress(attacker, '/api/auth/two-factor/verify-totp', { code: codeAt(victim.totp, 20 + i) });
    }
    await stretch(`second-factor:${victim.userId}`);
    const browser = await pastThePassword(neighbour.email);
    expect((await browser.post('/api/auth/two-factor/verify-totp', { code: codeAt(neighbour.totp, 1) })).status).toBe(200);
  });

  it('limits guesses at the current password with a stolen session, sharing the count of signing in with it', async () => {
    const email = uniqueEmail('change');
    const owner = app.client();
    expect((await owner.signUp(email, PASSWORD)).status).toBe(200);
    const account = `email:${email}`;
    const change = (browser: ApiClient, currentPassword: string, from = app.client()) =>
      from.request(
        'POST',
        '/api/auth/change-password',
        { currentPassword, newPassword: 'new-horse-42', revokeOtherSessions: true },
        { cookie: browser.cookieHeader },
      );

    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_ATTEMPTS - 1; i++) statuses.push((await change(owner, `wrong-password-${i}`)).status);
    // One wrong password at the sign-in form: the same count.
    statuses.push((await app.client().signIn(email, 'wrong-password-x')).status);
    expect(statuses).toEqual([...Array(ACCOUNT_ATTEMPTS - 1).fill(400), 401]);
    expect(await counted(account)).toBe(ACCOUNT_ATTEMPTS);
    await stretch(account);

    const blocked = await change(owner, PASSWORD);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toMatch(TOO_MANY);
    expect((await app.client().signIn(email, PASSWORD)).status).toBe(429);
    // The password was not changed meanwhile.
    await waitOut(account);
    expect((await app.client().signIn(email, 'new-horse-42')).status).toBe(401);

    await waitOut(account);
    expect((await change(owner, PASSWORD, owner)).status).toBe(200);
    expect(await counted(account)).toBe(0);
    expect((await app.client().signIn(email, 'new-horse-42')).status).toBe(200);
  });

  it('limits the password asked again to turn two-factor on or off', async () => {
    const email = uniqueEmail('toggle');
    const owner = app.client();
    expect((await owner.signUp(email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) {
      const res = await app
        .client()
        .request('POST', '/api/auth/two-factor/enable', { password: `wrong-password-${i}` }, { cookie: owner.cookieHeader });
      expect(res.status).toBe(400);
    }
    await stretch(`email:${email}`);
    expect((await owner.post('/api/auth/two-factor/enable', { password: PASSWORD })).status).toBe(429);
    expect((await owner.post('/api/auth/two-factor/disable', { password: PASSWORD })).status).toBe(429);
  });
});

describe.each(backends())('per-address limits on every sign-in step on %s', (backend) => {
  const LIMIT = 3;
  let app: TestApp;
  beforeAll(async () => {
    // A per-account allowance far above this test's attempts: only the per-address rule is in play.
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: String(LIMIT), AUTH_ACCOUNT_ATTEMPTS: '1000' } });
  });
  afterAll(() => app?.close());

  it('limits password guesses per address, whichever accounts they are at', async () => {
    const attacker = app.client();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push((await attacker.signIn(uniqueEmail(), 'wrong-password-x')).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
    // Another address is not affected.
    expect((await app.client().signIn(uniqueEmail(), 'wrong-password-x')).status).toBe(401);
  });

  it('limits the authenticator code and backup codes per address, each step on its own', async () => {
    const trader = await enrol(app);
    const attacker = app.client();
    expect((await attacker.signIn(trader.email, PASSWORD)).body.twoFactorRedirect).toBe(true);
    const codes: number[] = [];
    for (let i = 0; i < LIMIT; i++)
      codes.push((await attacker.post('/api/auth/two-factor/verify-totp', { code: codeAt(trader.totp, 20 + i) })).status);
    codes.push((await attacker.post('/api/auth/two-factor/verify-totp', { code: codeAt(trader.totp, 1) })).status);
    expect(codes).toEqual([...Array(LIMIT).fill(401), 429]);
    // A new challenge (better-auth allows five codes per challenge): only the address limit is in play.
    expect((await attacker.signIn(trader.email, PASSWORD)).body.twoFactorRedirect).toBe(true);
    const backups: number[] = [];
    for (let i = 0; i < LIMIT; i++)
      backups.push((await attacker.post('/api/auth/two-factor/verify-backup-code', { code: `guess-${i}-abcde` })).status);
    backups.push((await attacker.post('/api/auth/two-factor/verify-backup-code', { code: trader.backupCodes[0] })).status);
    expect(backups).toEqual([...Array(LIMIT).fill(401), 429]);
    expect((await attacker.get('/api/auth/get-session')).body).toBeNull();

    // The trader, from their own address, still gets in.
    const own = app.client();
    expect((await own.signIn(trader.email, PASSWORD)).body.twoFactorRedirect).toBe(true);
    expect((await own.post('/api/auth/two-factor/verify-backup-code', { code: trader.backupCodes[0] })).status).toBe(200);
  });

  it('limits changing the password per address', async () => {
    const email = uniqueEmail('change');
    const owner = app.client();
    expect((await owner.signUp(email, PASSWORD)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      statuses.push((await owner.post('/api/auth/change-password', { currentPassword: `wrong-password-${i}`, newPassword: 'new-horse-42' })).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(400), 429]);
    // The same session from another address is not limited by this one's count.
    const elsewhere = await app
      .client()
      .request('POST', '/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'new-horse-42' }, { cookie: owner.cookieHeader });
    expect(elsewhere.status).toBe(200);
  });
});
