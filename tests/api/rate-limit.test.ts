import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, nextLoopbackAddress, startTestApp, uniqueEmail, type TestApp } from '../support/app';

/**
 * Sign-in and password reset are limited per client address, taken from the socket. The limit is 4 here, not
 * better-auth's built-in 3, so a server that ignored AUTH_RATE_LIMIT would fail.
 */
const LIMIT = 4;

/** Headers an attacker rotates to look like a new client on every request. */
const forged = (i: number): Record<string, string> => ({
  'x-forwarded-for': `203.0.113.${i}`,
  'x-real-ip': `198.51.100.${i}`,
  'cf-connecting-ip': `192.0.2.${i}`,
  'x-client-ip': `192.0.2.${100 + i}`,
  forwarded: `for=192.0.2.${200 + i}`,
});

describe.each(backends())('auth rate limits on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    // The per-account limit (sign-in-limits.test.ts) would also stop these guesses at one email: out of the way here.
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: String(LIMIT), AUTH_ACCOUNT_ATTEMPTS: '1000' } });
  });
  afterAll(() => app?.close());

  async function registeredEmail(): Promise<string> {
    const email = uniqueEmail();
    expect((await app.client().signUp(email)).status).toBe(200);
    return email;
  }

  it('blocks sign-in from one client after the limit, whatever forwarding headers it sends', async () => {
    const email = await registeredEmail();
    const attacker = app.client();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const res = await attacker.request('POST', '/api/auth/sign-in/email', { email, password: `guess-${i}-xxxx` }, forged(i));
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('x-retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429, 429, 429]);
    // Even the right password waits: the limit stops guessing, not just wrong guesses.
    const right = await attacker.request('POST', '/api/auth/sign-in/email', { email, password: 'correct-horse-9' }, forged(99));
    expect(right.status).toBe(429);

    // The bucket is the attacker's alone: another client signs in as usual.
    expect((await app.client().signIn(email)).status).toBe(200);
  });

  it('blocks password-reset requests from one client after the limit, whatever forwarding headers it sends', async () => {
    const email = await registeredEmail();
    const spammer = app.client();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await spammer.request('POST', '/api/auth/request-password-reset', { email, redirectTo: `${app.url}/reset-password` }, forged(i));
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    const resetEmails = app.logs.filter((l) => (l.email as { to?: string } | undefined)?.to === email);
    expect(resetEmails).toHaveLength(LIMIT);

    const neighbour = app.client();
    expect((await neighbour.post('/api/auth/request-password-reset', { email, redirectTo: `${app.url}/reset-password` })).status).toBe(200);
  });

  it('counts sign-in attempts per client address, not per email or browser session', async () => {
    const address = nextLoopbackAddress();
    const emails = await Promise.all(Array.from({ length: 2 }, registeredEmail));
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) {
      // A fresh cookie jar each time, and alternating accounts: only the address stays the same.
      const browser = app.client({ address });
      statuses.push((await browser.signIn(emails[i % 2]!, 'wrong-password-x')).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(401), 429]);
  });
});
