import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, loggedEmails, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { linkIn, startSmtpServer, type TestSmtp } from '../support/smtp';

/** Accounts with SMTP_URL set: real emails through a real SMTP server, and confirmation before the first sign-in. */
describe.each(backends())('accounts with SMTP on %s', (backend) => {
  let smtp: TestSmtp;
  let app: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({
      backend,
      realPasswordHashing: true,
      env: { SMTP_URL: smtp.url, EMAIL_FROM: 'Edgebook <journal@example.com>', AUTH_RATE_LIMIT: '1000' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  const confirmations = (email: string) => smtp.inbox.filter((m) => m.to.includes(email) && /confirm/i.test(m.subject));

  it('says so in /api/config, so the register page can tell the trader to check their email', async () => {
    expect((await app.client().get('/api/config')).body.emailVerification).toBe(true);
  });

  it('emails a confirmation link on sign-up and does not sign in until it is followed', async () => {
    const email = uniqueEmail();
    const trader = app.client();
    const signUp = await trader.signUp(email);
    expect(signUp.status).toBe(200);
    expect(signUp.body.token ?? null).toBeNull();
    expect((await trader.get('/api/accounts')).status).toBe(401);

    const mail = await smtp.waitFor(email, /confirm/i);
    expect(mail.from).toBe('journal@example.com');
    // The email went out by SMTP, not to the log.
    expect(loggedEmails(app.logs, email)).toEqual([]);

    const early = await app.client().signIn(email);
    expect(early.status).toBe(403);
    expect(early.body.code).toBe('EMAIL_NOT_VERIFIED');

    const link = linkIn(mail);
    expect(link.startsWith(app.url + '/api/auth/verify-email?token=')).toBe(true);
    const verify = await trader.request('GET', link.slice(app.url.length));
    expect(verify.status).toBeLessThan(400);
    // Following the link signs that browser in.
    expect((await trader.get('/api/accounts')).status).toBe(200);

    const later = app.client();
    expect((await later.signIn(email)).status).toBe(200);
    expect((await later.get('/api/auth/get-session')).body.user).toMatchObject({ email, emailVerified: true });
  });

  it('resends the confirmation email on request, and the new link works', async () => {
    const email = uniqueEmail();
    const trader = app.client();
    await trader.signUp(email);
    await smtp.waitFor(email, /confirm/i);

    const resend = await trader.post('/api/auth/send-verification-email', { email, callbackURL: '/' });
    expect(resend.status).toBe(200);
    await expect.poll(() => confirmations(email).length).toBeGreaterThanOrEqual(2);
    const latest = confirmations(email).at(-1)!;
    const verify = await trader.request('GET', linkIn(latest).slice(app.url.length));
    expect(verify.status).toBeLessThan(400);
    expect((await app.client().signIn(email)).status).toBe(200);
  });

  it('does not confirm an account through a forged or altered link', async () => {
    const email = uniqueEmail();
    const trader = app.client();
    await trader.signUp(email);
    const link = linkIn(await smtp.waitFor(email, /confirm/i));
    const url = new URL(link);
    url.searchParams.set('token', url.searchParams.get('token')!.slice(0, -2) + 'xx');
    await trader.request('GET', url.pathname + url.search);
    expect((await app.client().signIn(email)).status).toBe(403);
  });

  it('emails a working password-reset link by SMTP', async () => {
    const email = uniqueEmail();
    const trader = app.client();
    await trader.signUp(email, 'old-password-1');
    await trader.request('GET', linkIn(await smtp.waitFor(email, /confirm/i)).slice(app.url.length));

    const visitor = app.client();
    expect((await visitor.post('/api/auth/request-password-reset', { email, redirectTo: `${app.url}/reset-password` })).status).toBe(200);
    const mail = await smtp.waitFor(email, /reset/i);
    expect(loggedEmails(app.logs, email)).toEqual([]);
    const follow = await visitor.request('GET', linkIn(mail).slice(app.url.length));
    expect(follow.status).toBe(302);
    const location = new URL(follow.headers.get('location')!, app.url);
    expect(location.pathname).toBe('/reset-password');
    const token = location.searchParams.get('token');

    // With SMTP the token travels only by email: whoever reads the server log must not be able to use it.
    expect(JSON.stringify(app.logs)).not.toContain(token);

    expect((await visitor.post('/api/auth/reset-password', { newPassword: 'new-password-2', token })).status).toBe(200);
    expect((await app.client().signIn(email, 'old-password-1')).status).toBe(401);
    expect((await app.client().signIn(email, 'new-password-2')).status).toBe(200);
  });
});
