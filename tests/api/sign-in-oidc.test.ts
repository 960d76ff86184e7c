import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/server/free-port';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { passIdentityProvider, startOidcServer, type OidcServer } from '../support/oidc-server';

/**
 * Google and any OpenID Connect provider, against a real OpenID provider on a loopback port: Google is
 * pointed at it with GOOGLE_ISSUER, the self-hoster's provider with OIDC_ISSUER. Every step goes over HTTP, as the
 * browser would: the app's sign-in start, the provider's sign-in form, the app's callback.
 */

const CALLBACK = '/auth-callback.html?next=%2F';
const ERROR_CALLBACK = '/auth-callback.html?next=%2Flogin';

interface Started {
  app: TestApp;
  idp: OidcServer;
  close(): Promise<void>;
}

async function startWithProvider(backend: 'pglite' | 'postgres', env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort('127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const idp = await startOidcServer({ redirectUris: [`${base}/api/auth/callback/oidc`, `${base}/api/auth/callback/google`] });
  const app = await startTestApp({
    backend,
    env: {
      PORT: String(port),
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: 'Authentik',
      GOOGLE_ISSUER: idp.issuer,
      GOOGLE_CLIENT_ID: idp.clientId,
      GOOGLE_CLIENT_SECRET: idp.clientSecret,
      ...env,
    },
  });
  return { app, idp, close: async () => (await app.close(), await idp.close()) };
}

/** Starts a sign-in at the app; returns the provider's authorization URL. */
async function startSignIn(client: ApiClient, provider: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await client.request(
    'POST',
    '/api/auth/sign-in/social',
    { provider, callbackURL: CALLBACK, errorCallbackURL: ERROR_CALLBACK, ...extra },
    headers,
  );
  const body = (await res.json()) as { url?: string; message?: string; code?: string };
  return { status: res.status, url: body.url, body };
}

/** The app's callback: where it sends the browser afterwards (pathname and query). */
async function finishAtApp(client: ApiClient, callbackUrl: string) {
  const url = new URL(callbackUrl);
  const res = await client.request('GET', url.pathname + url.search);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!, client.baseUrl);
  return { path: location.pathname, params: location.searchParams };
}

async function signInThroughProvider(client: ApiClient, provider: string, email: string, action: 'allow' | 'deny' = 'allow', extra = {}) {
  const started = await startSignIn(client, provider, extra);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const back = await passIdentityProvider(started.url!, { email, action });
  return finishAtApp(client, back);
}

async function sessionEmail(client: ApiClient): Promise<string | null> {
  const { body } = await client.get<{ user: { email: string; id: string } } | null>('/api/auth/get-session');
  return body?.user.email ?? null;
}

describe('without Google or an OpenID provider configured', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('offers neither button and refuses to start either sign-in', async () => {
    const { body } = await app.client().get('/api/config');
    expect(body).toMatchObject({ googleSignIn: false, oidc: null });
    for (const provider of ['google', 'oidc']) {
      const started = await startSignIn(app.client(), provider);
      expect(started.status).toBe(404);
      expect(started.url).toBeUndefined();
    }
  });
});

describe.each([
  ['only an OpenID provider', ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'], 'oidc', 'google'],
  ['only Google', ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'], 'google', 'oidc'],
] as const)('with %s configured', (_, unset, offered, absent) => {
  let s: Started;
  beforeAll(async () => {
    s = await startWithProvider('pglite', Object.fromEntries(unset.map((name) => [name, ''])));
  });
  afterAll(() => s?.close());

  it('offers that button only, starts that sign-in only, and signs a trader in through it', async () => {
    const { body } = await s.app.client().get('/api/config');
    expect(body).toMatchObject(offered === 'oidc' ? { googleSignIn: false, oidc: { name: 'Authentik' } } : { googleSignIn: true, oidc: null });
    const refused = await startSignIn(s.app.client(), absent);
    expect(refused.status).toBe(404);
    expect(refused.url).toBeUndefined();

    const email = uniqueEmail(offered);
    s.idp.addUser({ email, name: 'Only One', emailVerified: true });
    const browser = s.app.client();
    expect((await signInThroughProvider(browser, offered, email)).params.get('error')).toBeNull();
    expect(await sessionEmail(browser)).toBe(email);
  });
});

describe.each(backends())('Google and OpenID Connect sign-in on %s', (backend) => {
  let s: Started;
  beforeAll(async () => {
    s = await startWithProvider(backend);
  });
  afterAll(() => s?.close());

  it('says which providers are configured, by the names the buttons show', async () => {
    const { body } = await s.app.client().get('/api/config');
    expect(body).toMatchObject({ googleSignIn: true, oidc: { name: 'Authentik' } });
  });

  it.each(['oidc', 'google'])('signs a new trader up through %s, then signs the same trader in again', async (provider) => {
    const email = uniqueEmail(provider);
    s.idp.addUser({ email, name: 'Ada Trader', emailVerified: true });

    const browser = s.app.client();
    const first = await signInThroughProvider(browser, provider, email);
    expect(first.path).toBe('/auth-callback.html');
    expect(first.params.get('next')).toBe('/');
    expect(first.params.get('error')).toBeNull();
    const session = await browser.get<{ user: { id: string; email: string; name: string } }>('/api/auth/get-session');
    expect(session.body.user).toMatchObject({ email, name: 'Ada Trader' });
    // The trader's data routes work with that session.
    expect((await browser.get('/api/accounts')).status).toBe(200);

    const again = s.app.client();
    await signInThroughProvider(again, provider, email);
    const second = await again.get<{ user: { id: string } }>('/api/auth/get-session');
    expect(second.body.user.id).toBe(session.body.user.id);
  });

  it('lands on the error page with access_denied and no session when the person cancels at the provider', async () => {
    const email = uniqueEmail('denied');
    s.idp.addUser({ email, name: 'Denied', emailVerified: true });
    const browser = s.app.client();
    const back = await signInThroughProvider(browser, 'oidc', email, 'deny');
    expect(back.path).toBe('/auth-callback.html');
    expect(back.params.get('next')).toBe('/login');
    expect(back.params.get('error')).toBe('access_denied');
    expect(await sessionEmail(browser)).toBeNull();
  });

  it('refuses a callback whose state was altered, or that another browser started', async () => {
    const email = uniqueEmail('state');
    s.idp.addUser({ email, name: 'State', emailVerified: true });

    const victim = s.app.client();
    const started = await startSignIn(victim, 'oidc');
    const back = new URL(await passIdentityProvider(started.url!, { email, action: 'allow' }));
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const refused = await finishAtApp(victim, tampered.toString());
    expect(refused.params.get('error')).toMatch(/state/);
    expect(await sessionEmail(victim)).toBeNull();

    // The genuine callback, replayed by a browser that did not start the sign-in (login CSRF), is refused too.
    const attacker = s.app.client();
    const replayed = await finishAtApp(attacker, back.toString());
    expect(replayed.params.get('error')).toMatch(/state/);
    expect(await sessionEmail(attacker)).toBeNull();
  });

  it.each(['oidc', 'google'])('links %s to an existing password account only when the provider says the email is verified', async (provider) => {
    const email = uniqueEmail('linked');
    const owner = s.app.client();
    expect((await owner.signUp(email)).status).toBe(200);
    const { body: own } = await owner.get<{ user: { id: string } }>('/api/auth/get-session');

    s.idp.addUser({ email, name: 'Impostor', emailVerified: false });
    const impostor = s.app.client();
    const refused = await signInThroughProvider(impostor, provider, email);
    expect(refused.params.get('error')).toBe('account_not_linked');
    expect(await sessionEmail(impostor)).toBeNull();

    s.idp.addUser({ email, name: 'Owner', emailVerified: true });
    const linked = s.app.client();
    await signInThroughProvider(linked, provider, email);
    const { body } = await linked.get<{ user: { id: string } }>('/api/auth/get-session');
    expect(body.user.id).toBe(own.user.id);
    // The password still works too.
    expect((await s.app.client().signIn(email)).status).toBe(200);
  });
});

describe('sign-in limits per client address on the provider steps', () => {
  let s: Started;
  beforeAll(async () => {
    s = await startWithProvider('pglite', { AUTH_RATE_LIMIT: '3' });
  });
  afterAll(() => s?.close());

  it('limits starting a provider sign-in and its callback per address', async () => {
    const client = s.app.client();
    const starts: number[] = [];
    for (let i = 0; i < 4; i++) starts.push((await startSignIn(client, 'oidc')).status);
    expect(starts).toEqual([200, 200, 200, 429]);

    const callbacks: number[] = [];
    const prober = s.app.client();
    for (let i = 0; i < 4; i++) {
      callbacks.push((await prober.request('GET', `/api/auth/callback/oidc?code=guess-${i}&state=guess-${i}`)).status);
    }
    expect(callbacks).toEqual([302, 302, 302, 429]);
    // Another address is not affected.
    expect((await startSignIn(s.app.client(), 'oidc')).status).toBe(200);
  });
});

describe.each(backends())('per-account sign-in limits on the provider callback on %s', (backend) => {
  const ATTEMPTS = 2;
  let s: Started;
  beforeAll(async () => {
    s = await startWithProvider(backend, { AUTH_RATE_LIMIT: '1000', AUTH_ACCOUNT_ATTEMPTS: String(ATTEMPTS) });
  });
  afterAll(() => s?.close());

  const throttleKey = (email: string) => crypto.createHash('sha256').update(`email:${email}`).digest('base64url');
  const stretch = (email: string) =>
    s.app.server.database.db.execute(
      sql`update sign_in_throttle set blocked_until = now() + interval '30 seconds' where key = ${throttleKey(email)} and blocked_until is not null`,
    );
  const waitOut = (email: string) =>
    s.app.server.database.db.execute(sql`update sign_in_throttle set blocked_until = now() where key = ${throttleKey(email)}`);

  it('counts a refused provider sign-in against the account, and refuses even a good one during the back-off', async () => {
    const email = uniqueEmail('vouched');
    const owner = s.app.client();
    expect((await owner.signUp(email)).status).toBe(200);
    // A provider that does not confirm the address claims the password account: each refusal is a failed attempt.
    s.idp.addUser({ email, name: 'Impostor', emailVerified: false });
    for (let i = 0; i < ATTEMPTS; i++)
      expect((await signInThroughProvider(s.app.client(), 'oidc', email)).params.get('error')).toBe('account_not_linked');
    await stretch(email);
    // The password is refused meanwhile, as after wrong passwords...
    expect((await s.app.client().signIn(email)).status).toBe(429);
    // ...and so is the provider, even once it vouches for the address; the login page is told how long to wait.
    s.idp.addUser({ email, name: 'Owner', emailVerified: true });
    const browser = s.app.client();
    const refused = await signInThroughProvider(browser, 'oidc', email);
    expect(refused.path).toBe('/auth-callback.html');
    expect(refused.params.get('error')).toBe('too_many_attempts');
    expect(Number(refused.params.get('error_description'))).toBeGreaterThanOrEqual(29);
    expect(await sessionEmail(browser)).toBeNull();

    // After the wait the provider signs the owner in and the count starts again.
    await waitOut(email);
    const later = s.app.client();
    expect((await signInThroughProvider(later, 'oidc', email)).params.get('error')).toBeNull();
    expect(await sessionEmail(later)).toBe(email);
    const rows = await s.app.server.database.db.execute(sql`select 1 from sign_in_throttle where key = ${throttleKey(email)}`);
    expect((rows as unknown as { rows: unknown[] }).rows).toHaveLength(0);
  });

  it('counts a new trader’s provider sign-in by email too, and leaves other accounts alone', async () => {
    const email = uniqueEmail('fresh');
    const neighbour = uniqueEmail('neighbour');
    s.idp.addUser({ email, name: 'Fresh', emailVerified: true });
    s.idp.addUser({ email: neighbour, name: 'Neighbour', emailVerified: true });
    // Wrong passwords at the new trader's email (no password account exists yet: the guesses count all the same).
    for (let i = 0; i < ATTEMPTS; i++) expect((await s.app.client().signIn(email, 'wrong-password-x')).status).toBe(401);
    await stretch(email);
    const browser = s.app.client();
    expect((await signInThroughProvider(browser, 'google', email)).params.get('error')).toBe('too_many_attempts');
    expect(await sessionEmail(browser)).toBeNull();

    const other = s.app.client();
    expect((await signInThroughProvider(other, 'google', neighbour)).params.get('error')).toBeNull();
    expect(await sessionEmail(other)).toBe(neighbour);
  });
});
