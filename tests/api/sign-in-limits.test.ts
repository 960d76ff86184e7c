import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, backends, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { sql } from 'drizzle-orm';
import { createSignInLimiter } from '../../src/server/auth/sign-in-limits';
import { startSmtpServer, type TestSmtp } from '../support/smtp';

/**
 * Per-account limits with back-off (guesses spread over many addresses), a TRUSTED_PROXIES setting
 * (behind a proxy every trader shared its address, and one attacker locked everyone out), and a sign-up that does
 * not reveal registered emails when SMTP is on.
 */
const ACCOUNT_ATTEMPTS = 3;

describe.each(backends())('per-account sign-in limit on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    // A per-address limit far above this test's attempts: only the per-account rule is in play.
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: '1000', AUTH_ACCOUNT_ATTEMPTS: String(ACCOUNT_ATTEMPTS) } });
  });
  afterAll(() => app?.close());

  async function registered(): Promise<string> {
    const email = uniqueEmail();
    expect((await app.client().signUp(email)).status).toBe(200);
    return email;
  }

  /** Each guess from a new loopback address, as a botnet would send them. */
  const guessFromNewAddress = (email: string, password = 'wrong-password-x') =>
    app.client().request('POST', '/api/auth/sign-in/email', { email, password });

  it('slows guesses spread over many addresses, and refuses even the right password meanwhile', async () => {
    const email = await registered();
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) statuses.push((await guessFromNewAddress(email)).status);
    expect(statuses).toEqual(Array(ACCOUNT_ATTEMPTS).fill(401));
    // The third failure put the account in back-off for 1 s; on a busy machine a password check can take that long,
    // so the back-off is stretched here (the delays themselves are checked on the limiter below).
    const throttle = () => app.server.database.db.execute(sql`update sign_in_throttle set blocked_until = now() + interval '30 seconds'`);
    await throttle();

    const blocked = await guessFromNewAddress(email, 'correct-horse-9');
    expect(blocked.status).toBe(429);
    const wait = Number(blocked.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(29);
    expect(wait).toBeLessThanOrEqual(30);
    expect(blocked.headers.get('x-retry-after')).toBe(String(wait));
    // The login page shows better-auth's `message`.
    expect((await blocked.json()).message).toBe(`Too many failed sign-in attempts for this account. Try again in ${wait} seconds.`);
    // The case of the email does not make a new account.
    expect((await guessFromNewAddress(email.toUpperCase())).status).toBe(429);

    await app.server.database.db.execute(sql`update sign_in_throttle set blocked_until = now()`);
    expect((await guessFromNewAddress(email, 'correct-horse-9')).status).toBe(200);
  });

  it('doubles the wait with each further failure, up to 15 minutes', async () => {
    const limiter = createSignInLimiter(app.server.database, ACCOUNT_ATTEMPTS);
    const account = `email:${uniqueEmail()}`;
    /** The database clock moves on: the block ends now. */
    const waitOut = () =>
      app.server.database.db.execute(sql`update sign_in_throttle set blocked_until = now(), updated_at = updated_at - interval '1 second'`);
    for (let i = 0; i < ACCOUNT_ATTEMPTS; i++) expect(await limiter.attempt(account)).toEqual({ allowed: true });
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const verdict = await limiter.attempt(account);
      expect(verdict.allowed).toBe(false);
      waits.push((verdict as { retryAfterSeconds: number }).retryAfterSeconds);
      await waitOut();
      expect(await limiter.attempt(account)).toEqual({ allowed: true });
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    await limiter.succeeded(account);
    expect(await limiter.attempt(account)).toEqual({ allowed: true });
  });

  it('counts a burst of parallel attempts as they arrive, so only the allowance gets through', async () => {
    const limiter = createSignInLimiter(app.server.database, ACCOUNT_ATTEMPTS);
    const account = `email:${uniqueEmail()}`;
    const verdicts = await Promise.all(Array.from({ length: 12 }, () => limiter.attempt(account)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(ACCOUNT_ATTEMPTS);
  });

  it('clears the count when the right password gets through, and leaves other accounts alone', async () => {
    const email = await registered();
    const neighbour = await registered();
    for (let i = 0; i < ACCOUNT_ATTEMPTS - 1; i++) expect((await guessFromNewAddress(email)).status).toBe(401);
    expect((await guessFromNewAddress(neighbour, 'correct-horse-9')).status).toBe(200);
    expect((await guessFromNewAddress(email, 'correct-horse-9')).status).toBe(200);
    // A fresh allowance after the success.
    for (let i = 0; i < ACCOUNT_ATTEMPTS - 1; i++) expect((await guessFromNewAddress(email)).status).toBe(401);
    expect((await guessFromNewAddress(email, 'correct-horse-9')).status).toBe(200);
  });

  it('keeps no email address in the table it counts with', async () => {
    const email = await registered();
    await guessFromNewAddress(email);
    const rows = await app.server.database.db.execute(sql`select key from sign_in_throttle`);
    const keys = JSON.stringify((rows as unknown as { rows: unknown[] }).rows);
    expect(keys).not.toContain('@');
    expect(keys.length).toBeGreaterThan(2);
  });
});

describe.each(backends())('client addresses behind a trusted proxy on %s', (backend) => {
  const PROXY = '127.0.0.77';
  const LIMIT = 3;
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      backend,
      env: { AUTH_RATE_LIMIT: String(LIMIT), AUTH_ACCOUNT_ATTEMPTS: '1000', TRUSTED_PROXIES: `10.0.0.0/8, ${PROXY}` },
    });
  });
  afterAll(() => app?.close());

  const viaProxy = (client: string, email: string) =>
    new ApiClient(app.url, { 'x-forwarded-for': `${client}, 10.1.2.3` }, { localAddress: PROXY }).signIn(email, 'wrong-password-x');

  it('limits each client behind the proxy on its own: one attacker does not lock everyone out', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await viaProxy('203.0.113.66', uniqueEmail())).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    // Another trader behind the same proxy is not affected.
    expect((await viaProxy('198.51.100.7', uniqueEmail())).status).toBe(401);
    const logged = app.logs.filter((l) => l.msg === 'request' && l.path === '/api/auth/sign-in/email').map((l) => l.ip);
    expect(logged).toContain('203.0.113.66');
    expect(logged).toContain('198.51.100.7');
    expect(logged).not.toContain(PROXY);
  });

  it('ignores the forwarding header from a client that is not a listed proxy', async () => {
    const direct = app.client();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await direct.request(
        'POST',
        '/api/auth/sign-in/email',
        { email: uniqueEmail(), password: 'wrong-password-x' },
        { 'x-forwarded-for': `192.0.2.${i}` },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    const logged = app.logs.filter((l) => l.msg === 'request' && l.ip === direct.address);
    expect(logged.length).toBeGreaterThanOrEqual(LIMIT + 2);
  });

  it('refuses to start with a TRUSTED_PROXIES entry that is not an address or range', async () => {
    await expect(startTestApp({ backend: 'pglite', env: { TRUSTED_PROXIES: '10.0.0.0/8, proxy.local, 1.2.3.4/40' } })).rejects.toThrow(
      /TRUSTED_PROXIES: not an address or CIDR range: proxy\.local, 1\.2\.3\.4\/40/,
    );
  });
});

describe.each(backends())('sign-up with SMTP on %s', (backend) => {
  let smtp: TestSmtp;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ backend, env: { SMTP_URL: smtp.url, AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  /** The answer with what differs between any two sign-ups (the generated id, timestamps) taken out. */
  const shape = (res: { status: number; body: any }) => ({
    status: res.status,
    keys: Object.keys(res.body ?? {}).sort(),
    user: { ...res.body?.user, id: typeof res.body?.user?.id, createdAt: undefined, updatedAt: undefined },
  });

  it('answers a registered email exactly as a new one, and tells the owner by email instead', async () => {
    const taken = uniqueEmail();
    const first = await app.client().signUp(taken);
    expect(first.status).toBe(200);
    await smtp.waitFor(taken, /confirm/i);

    const again = await app.client().post('/api/auth/sign-up/email', { email: taken, password: 'other-pass-77', name: 'same' });
    const fresh = uniqueEmail();
    const brandNew = await app.client().post('/api/auth/sign-up/email', { email: fresh, password: 'other-pass-77', name: 'same' });
    expect(shape(again)).toEqual({ ...shape(brandNew), user: { ...shape(brandNew).user, email: taken } });
    expect(again.body.token ?? null).toBeNull();

    const notice = await smtp.waitFor(taken, /tried to create/i);
    expect(notice.text).toContain(`${app.url}/login`);
    // Nothing changed for the owner: their password still works once confirmed (not by the intruder's).
    expect((await app.client().signIn(taken, 'other-pass-77')).status).toBe(401);
  });
});
