import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, loggedEmails, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/** Accounts on the embedded default: no SMTP, so accounts are confirmed at once and emails go to the server log. */
describe.each(backends())('accounts without SMTP on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    // Many sign-ins from few addresses: the rate limit has its own test.
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => app?.close());

  async function registered(password = 'correct-horse-9'): Promise<{ email: string; trader: ApiClient }> {
    const trader = app.client();
    const email = uniqueEmail();
    const res = await trader.signUp(email, password);
    expect(res.status).toBe(200);
    return { email, trader };
  }

  const resetLinkFor = (email: string) => {
    const emails = loggedEmails(app.logs, email).filter((e) => /reset/i.test(e.subject));
    expect(emails, `reset email for ${email} in the log`).toHaveLength(1);
    const link = /https?:\/\/\S+/.exec(emails[0]!.text)?.[0];
    expect(link).toBeDefined();
    return link!;
  };

  it('confirms a new account at once and signs it in', async () => {
    const { email, trader } = await registered();
    const session = await trader.get('/api/auth/get-session');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ email, emailVerified: true });
    expect((await trader.get('/api/preferences')).status).toBe(200);
    expect(loggedEmails(app.logs, email).filter((e) => /confirm/i.test(e.subject))).toEqual([]);
    expect((await app.client().get('/api/config')).body.emailVerification).toBe(false);
  });

  it('sets the session cookie HttpOnly and SameSite, so page scripts cannot read it', async () => {
    const trader = app.client();
    const res = await trader.request('POST', '/api/auth/sign-up/email', { email: uniqueEmail(), password: 'correct-horse-9', name: 'x' });
    expect(res.status).toBe(200);
    const sessionCookie = res.headers.getSetCookie().find((c) => /session_token=/.test(c));
    expect(sessionCookie).toBeDefined();
    expect(sessionCookie).toMatch(/;\s*HttpOnly/i);
    expect(sessionCookie).toMatch(/;\s*SameSite=(Lax|Strict)/i);
    expect(sessionCookie).toMatch(/;\s*Path=\//i);
  });

  it('refuses a wrong password with 401 and a message the login page can show', async () => {
    const { email } = await registered();
    const stranger = app.client();
    const res = await stranger.signIn(email, 'wrong-password-1');
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/invalid email or password/i);
    expect((await stranger.get('/api/preferences')).status).toBe(401);
    // An unknown email gets the same answer: the login form does not reveal who has an account.
    const unknown = await stranger.signIn(uniqueEmail(), 'wrong-password-1');
    expect(unknown).toEqual(res);
  });

  it('signs in with the right password on a second browser', async () => {
    const { email } = await registered();
    const laptop = app.client();
    expect((await laptop.signIn(email)).status).toBe(200);
    expect((await laptop.get('/api/accounts')).status).toBe(200);
  });

  it('ends the session on sign-out, for that browser only', async () => {
    const { email, trader } = await registered();
    const other = app.client();
    await other.signIn(email);
    const stolenCookie = trader.cookieHeader;

    expect((await trader.post('/api/auth/sign-out')).status).toBe(200);
    expect((await trader.get('/api/accounts')).status).toBe(401);
    // The old token itself is dead on the server, not merely forgotten by the browser.
    const replay = await app.client().request('GET', '/api/accounts', undefined, { cookie: stolenCookie });
    expect(replay.status).toBe(401);
    expect((await other.get('/api/accounts')).status).toBe(200);
  });

  it('resets a forgotten password through the link written to the log, once', async () => {
    const { email, trader } = await registered('old-password-1');
    const visitor = app.client();
    const request = await visitor.post('/api/auth/request-password-reset', { email, redirectTo: `${app.url}/reset-password` });
    expect(request.status).toBe(200);

    const link = resetLinkFor(email);
    expect(link.startsWith(app.url + '/')).toBe(true);
    const follow = await visitor.request('GET', link.slice(app.url.length));
    expect(follow.status).toBe(302);
    const location = new URL(follow.headers.get('location')!, app.url);
    expect(location.origin + location.pathname).toBe(`${app.url}/reset-password`);
    const token = location.searchParams.get('token');
    expect(token).toBeTruthy();

    const reset = await visitor.post('/api/auth/reset-password', { newPassword: 'new-password-2', token });
    expect(reset.status).toBe(200);

    expect((await app.client().signIn(email, 'old-password-1')).status).toBe(401);
    expect((await app.client().signIn(email, 'new-password-2')).status).toBe(200);
    // Sessions opened with the old password end with it.
    expect((await trader.get('/api/accounts')).status).toBe(401);

    const reuse = await visitor.post('/api/auth/reset-password', { newPassword: 'third-password-3', token });
    expect(reuse.status).toBe(400);
    expect((await app.client().signIn(email, 'third-password-3')).status).toBe(401);
    expect((await app.client().signIn(email, 'new-password-2')).status).toBe(200);
  });

  it('answers a reset request for an unknown email the same way, and writes no email', async () => {
    const email = uniqueEmail();
    const res = await app.client().post('/api/auth/request-password-reset', { email, redirectTo: `${app.url}/reset-password` });
    expect(res.status).toBe(200);
    expect(loggedEmails(app.logs, email)).toEqual([]);
  });

  it('refuses a password shorter than 8 characters on sign-up and on reset', async () => {
    const short = 'abcdefg';
    const signUp = await app.client().signUp(uniqueEmail(), short);
    expect(signUp.status).toBe(400);
    expect(signUp.body.message).toMatch(/password.*short/i);

    const { email } = await registered('old-password-1');
    const visitor = app.client();
    await visitor.post('/api/auth/request-password-reset', { email, redirectTo: `${app.url}/reset-password` });
    const follow = await visitor.request('GET', resetLinkFor(email).slice(app.url.length));
    const token = new URL(follow.headers.get('location')!, app.url).searchParams.get('token');
    const reset = await visitor.post('/api/auth/reset-password', { newPassword: short, token });
    expect(reset.status).toBe(400);
    expect(reset.body.message).toMatch(/password.*short/i);
    expect((await app.client().signIn(email, 'old-password-1')).status).toBe(200);
    // The refused attempt did not use the token up.
    expect((await visitor.post('/api/auth/reset-password', { newPassword: 'long-enough-2', token })).status).toBe(200);
  });

  it('treats an email address the same whatever its case', async () => {
    const email = uniqueEmail();
    const shouted = email.toUpperCase();
    expect((await app.client().signUp(shouted, 'first-password-1')).status).toBe(200);
    expect((await app.client().signIn(email, 'first-password-1')).status).toBe(200);
    expect((await app.client().signUp(email, 'other-password-2')).status).toBeGreaterThanOrEqual(400);
    expect((await app.client().signIn(shouted, 'other-password-2')).status).toBe(401);
  });

  it('refuses a second account with the same email', async () => {
    const { email } = await registered('first-password-1');
    const again = await app.client().signUp(email, 'other-password-2');
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect((await app.client().signIn(email, 'other-password-2')).status).toBe(401);
    expect((await app.client().signIn(email, 'first-password-1')).status).toBe(200);
  });
});
