import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { linkIn, startSmtpServer, type TestSmtp } from '../support/smtp';
import { createAccount, createTrade } from './trades-support';

/**
 * With SMTP configured, the two sides of a mentor's conversation hear of each other by real email: the invitation goes
 * to the mentor, a mentor's comment to the trader, the trader's reply to the mentor. A comment refused sends nothing.
 */
describe.each(backends())('mentor emails on %s', (backend) => {
  let smtp: TestSmtp;
  let app: TestApp;
  let trader: ApiClient;
  let mentor: ApiClient;
  let traderEmail: string;
  let mentorEmail: string;
  let traderId: string;
  let shownTrade: string;
  let hiddenTrade: string;

  /** Signs up and follows the confirmation link, as a trader on a server that sends email must. */
  const confirmedUser = async (prefix: string) => {
    const client = app.client();
    const email = uniqueEmail(prefix);
    expect((await client.signUp(email)).status).toBe(200);
    const link = linkIn(await smtp.waitFor(email, /confirm/i));
    expect((await client.request('GET', link.slice(app.url.length))).status).toBeLessThan(400);
    expect((await client.get('/api/accounts')).status).toBe(200);
    return { client, email };
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ backend, env: { SMTP_URL: smtp.url, EMAIL_FROM: 'Edgebook <journal@example.com>', AUTH_RATE_LIMIT: '1000' } });
    ({ client: trader, email: traderEmail } = await confirmedUser('mail-trader'));
    ({ client: mentor, email: mentorEmail } = await confirmedUser('mail-mentor'));
    traderId = String((await trader.get('/api/auth/get-session')).body.user.id);
    const shown = await createAccount(trader, 'Shown');
    const hidden = await createAccount(trader, 'Hidden');
    shownTrade = (await createTrade(trader, { account_id: shown.id, date: '2026-03-03', symbol: 'NQ', side: 'Long', pnl: 250.5 })).id;
    hiddenTrade = (await createTrade(trader, { account_id: hidden.id, date: '2026-03-03', symbol: 'YM', side: 'Long', pnl: 99 })).id;

    const grant = await trader.post('/api/mentor-grants', { email: mentorEmail, account_ids: [shown.id] });
    expect(grant.status).toBe(201);
    expect(grant.body.emailed).toBe(true);
    const invitation = await smtp.waitFor(mentorEmail, /invited you to mentor/);
    const token = new URL(linkIn(invitation)).hash.slice(1);
    expect((await mentor.post('/api/mentor/accept', { token })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  const mailsTo = (email: string) => smtp.inbox.filter((m) => m.to.includes(email));

  it("emails the trader a mentor's comment on a trade, with the trade, the words and the way back", async () => {
    const res = await mentor.post(`/api/mentor/${traderId}/comments`, { trade_id: shownTrade, body: 'Patient entry, sized right.' });
    expect(res.status).toBe(201);
    const mentorName = mentorEmail.split('@')[0]!;
    const mail = await smtp.waitFor(traderEmail, /commented on your trading/);
    expect(mail.subject).toBe(`${mentorName} commented on your trading`);
    expect(mail.text).toContain('your trade NQ Long, 2026-03-03');
    expect(mail.text).toContain('Patient entry, sized right.');
    expect(mail.text).toContain(`${app.url}/mentor`);
  });

  it("emails the mentor the trader's reply, and a day's comment names the day", async () => {
    const day = await mentor.post(`/api/mentor/${traderId}/comments`, { trade_date: '2026-03-04', body: 'Why no trades after the open?' });
    expect(day.status).toBe(201);
    await expect
      .poll(() => mailsTo(traderEmail).find((m) => m.text.includes('Why no trades after the open?'))?.text, { timeout: 10_000 })
      .toContain('your trading day 2026-03-04');

    const reply = await trader.post(`/api/mentor-comments/${day.body.id}/reply`, { body: 'News at 10:00, I stood aside.' });
    expect(reply.status).toBe(201);
    const mail = await smtp.waitFor(mentorEmail, /replied to your comment/);
    expect(mail.subject).toBe(`${traderEmail.split('@')[0]} replied to your comment`);
    expect(mail.text).toContain('their trading day 2026-03-04');
    expect(mail.text).toContain('News at 10:00, I stood aside.');
    expect(mail.text).toContain(`${app.url}/mentor/${traderId}`);
  });

  it('sends nothing for a comment it refuses (a trade of an account not granted)', async () => {
    const refused = await mentor.post(`/api/mentor/${traderId}/comments`, { trade_id: hiddenTrade, body: 'Should never be mailed' });
    expect(refused.status).toBe(404);
    // A later comment's email arriving means any email for the refused one would have arrived before it.
    expect((await mentor.post(`/api/mentor/${traderId}/comments`, { trade_date: '2026-03-05', body: 'Marker comment' })).status).toBe(201);
    await expect.poll(() => mailsTo(traderEmail).some((m) => m.text.includes('Marker comment')), { timeout: 10_000 }).toBe(true);
    expect(mailsTo(traderEmail).some((m) => m.text.includes('Should never be mailed'))).toBe(false);
  });
});
