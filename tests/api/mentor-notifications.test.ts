import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mentorViewsRepo } from '../../src/server/features/mentors/repo';
import { getTodayInZone } from '../../src/domain/dates';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { linkIn, startSmtpServer, type TestSmtp } from '../support/smtp';
import { PNG_BYTES, uploadAttachment } from './notes-support';
import { createAccount, createTrade } from './trades-support';
import { ownerRows } from './mentor-support';

/**
 * A mentor's reads tell the trader, on both databases and with SMTP configured: one row per mentor and day counts the
 * reads, the trader lists them and marks them seen, the day's first read emails the trader once, and a revoked mentor's
 * reads leave nothing. The mentor's screens open the shared images through their own route, and nothing else.
 */
describe.each(backends())("a mentor's views and images on %s", (backend) => {
  let smtp: TestSmtp;
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let mara: ApiClient;
  let olly: ApiClient;
  let aliceId: string;
  let aliceEmail: string;
  let maraName: string;
  let ollyName: string;
  let maraId: string;
  let maraGrant: string;
  let sharedTrade: string;
  let hiddenTrade: string;
  let journalDay: string;

  const rows = (query: SQL) => ownerRows(app, query);
  const viewRows = (mentorId: string) =>
    rows(
      sql`select day::text as day, view_count, first_seen_at, last_seen_at from mentor_views where user_id = ${aliceId} and mentor_id = ${mentorId}`,
    );
  /** The mentor's day row as it stands: any counted read moves its last read on. */
  const viewRow = async (mentorId: string) => JSON.stringify(await viewRows(mentorId));
  /** The mentor's last read moved back past the visit gap: their next read is a new visit. */
  const pause = (mentorId: string) =>
    rows(sql`update mentor_views set last_seen_at = last_seen_at - interval '31 minutes' where user_id = ${aliceId} and mentor_id = ${mentorId}`);
  const viewMails = (name: string) => smtp.inbox.filter((m) => m.to.includes(aliceEmail) && m.subject === `${name} viewed your journal`);

  /** Signs up and follows the confirmation link, as a user on a server that sends email must. */
  const confirmedUser = async (prefix: string) => {
    const client = app.client();
    const email = uniqueEmail(prefix);
    expect((await client.signUp(email)).status).toBe(200);
    const link = linkIn(await smtp.waitFor(email, /confirm/i));
    expect((await client.request('GET', link.slice(app.url.length))).status).toBeLessThan(400);
    const [row] = await rows(sql`select id from "user" where email = ${email}`);
    return { client, email, id: String(row!.id) };
  };
  const invite = async (mentor: ApiClient, email: string, accounts: string[], shareJournal: boolean) => {
    const grant = await alice.post('/api/mentor-grants', { email, account_ids: accounts, share_journal: shareJournal });
    expect(grant.status, JSON.stringify(grant.body)).toBe(201);
    const token = new URL(grant.body.url).hash.slice(1);
    expect((await mentor.post('/api/mentor/accept', { token })).status).toBe(200);
    return grant.body.id as string;
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({ backend, env: { SMTP_URL: smtp.url, EMAIL_FROM: 'Edgebook <journal@example.com>', AUTH_RATE_LIMIT: '1000' } });
    const a = await confirmedUser('views-alice');
    [alice, aliceId, aliceEmail] = [a.client, a.id, a.email];
    bob = (await confirmedUser('views-bob')).client;
    const m = await confirmedUser('views-mara');
    [mara, maraId, maraName] = [m.client, m.id, m.email.split('@')[0]!];
    const o = await confirmedUser('views-olly');
    [olly, ollyName] = [o.client, o.email.split('@')[0]!];
    const shown = await createAccount(alice, 'Shown');
    const hidden = await createAccount(alice, 'Hidden');
    journalDay = getTodayInZone(new Date(), 'America/New_York');
    sharedTrade = (await createTrade(alice, { account_id: shown.id, date: journalDay, symbol: 'NQ', side: 'Long', pnl: '120.00' })).id;
    hiddenTrade = (await createTrade(alice, { account_id: hidden.id, date: journalDay, symbol: 'YM', side: 'Long', pnl: '50.00' })).id;
    maraGrant = await invite(mara, m.email, [shown.id], false);
    await invite(olly, o.email, [shown.id], true);
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it("counts a mentor's reads of the day in one row, and emails the trader once for the day", async () => {
    expect(await viewRows(maraId)).toEqual([]);
    // The reports too, which their own feature serves under the mentor's address.
    for (const path of ['trades', 'reflect', 'prop', `trades/${sharedTrade}`, 'reports/overview']) {
      expect((await mara.get(`/api/mentor/${aliceId}/${path}`)).status, path).toBe(200);
    }
    // One visit: a screen's reads, and the next screen's within half an hour.
    const [row, ...more] = await viewRows(maraId);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ day: new Date().toISOString().slice(0, 10), view_count: 1 });
    expect(new Date(String(row!.last_seen_at)).getTime()).toBeGreaterThanOrEqual(new Date(String(row!.first_seen_at)).getTime());

    const mail = await smtp.waitFor(aliceEmail, /viewed your journal/);
    expect(mail.subject).toBe(`${maraName} viewed your journal`);
    expect(mail.text).toContain(`${app.url}/mentor`);
    // Reads after the first, a new visit after a pause, then a comment whose email arrives after any view email the
    // reads could have sent.
    await pause(maraId);
    expect((await mara.get(`/api/mentor/${aliceId}/reflect`)).status).toBe(200);
    expect((await mara.get(`/api/mentor/${aliceId}/trades`)).status).toBe(200);
    expect((await mara.post(`/api/mentor/${aliceId}/comments`, { trade_id: sharedTrade, body: 'Marker after the reads' })).status).toBe(201);
    await expect
      .poll(() => smtp.inbox.some((m) => m.to.includes(aliceEmail) && m.text.includes('Marker after the reads')), { timeout: 10_000 })
      .toBe(true);
    expect(viewMails(maraName)).toHaveLength(1);
    expect((await viewRows(maraId))[0]).toMatchObject({ view_count: 2 });
    // A report alone, which its own feature serves under the mentor's address, is a visit too.
    await pause(maraId);
    expect((await mara.get(`/api/mentor/${aliceId}/reports/overview`)).status).toBe(200);
    expect((await viewRows(maraId))[0]).toMatchObject({ view_count: 3 });
  });

  it('counts neither a refused read nor a write', async () => {
    const before = await viewRow(maraId);
    // The journal is not shared with this mentor: the same 404 as an unknown trader, and no view.
    expect((await mara.get(`/api/mentor/${aliceId}/journal`)).status).toBe(404);
    expect((await mara.get(`/api/mentor/${aliceId}/trades/${hiddenTrade}`)).status).toBe(404);
    expect((await mara.post(`/api/mentor/${aliceId}/comments`, { trade_id: sharedTrade, body: 'Not a view' })).status).toBe(201);
    // Another trader's id: no grant, nothing recorded for anybody.
    expect((await mara.get(`/api/mentor/${crypto.randomUUID()}/trades`)).status).toBe(404);
    expect(await viewRow(maraId)).toBe(before);
    expect(await rows(sql`select user_id from mentor_views where user_id <> ${aliceId}`)).toEqual([]);
  });

  it('shows the trader who viewed and when, counted as new until seen, and new again after another read', async () => {
    expect((await olly.get(`/api/mentor/${aliceId}/journal`)).status).toBe(200);
    // Mara's new comments count for her: her views are listed as new, counted once the comments are seen.
    const beforeSeen = (await alice.get('/api/mentor-views')).body;
    expect(beforeSeen.unseen).toBe(1);
    expect(beforeSeen.views.map((v: { new: boolean }) => v.new)).toEqual([true, true]);
    expect((await alice.post('/api/mentor-comments/seen')).status).toBe(204);
    const list = await alice.get('/api/mentor-views');
    expect(list.status).toBe(200);
    expect(list.body.unseen).toBe(2);
    const byName = new Map(list.body.views.map((v: { mentor_name: string }) => [v.mentor_name, v]));
    expect(byName.get(maraName)).toMatchObject({ mentor_id: maraId, day: new Date().toISOString().slice(0, 10), count: 3, new: true });
    expect(byName.get(ollyName)).toMatchObject({ count: 1, new: true });
    await smtp.waitFor(aliceEmail, new RegExp(`^${ollyName} viewed your journal$`));

    expect((await alice.post('/api/mentor-views/seen')).status).toBe(204);
    const seen = (await alice.get('/api/mentor-views')).body;
    expect(seen.unseen).toBe(0);
    expect(seen.views.every((v: { new: boolean }) => !v.new)).toBe(true);

    // A read after the trader looked is new again, on the same day's row.
    expect((await mara.get(`/api/mentor/${aliceId}/prop`)).status).toBe(200);
    const again = (await alice.get('/api/mentor-views')).body;
    expect(again.unseen).toBe(1);
    expect(again.views.find((v: { mentor_id: string }) => v.mentor_id === maraId)).toMatchObject({ count: 3, new: true });
    expect(again.views).toHaveLength(2);
  });

  it("shows another trader none of it, and their marking seen marks nothing of this trader's", async () => {
    expect(await bob.get('/api/mentor-views')).toEqual({ status: 200, body: { views: [], unseen: 0 } });
    expect((await bob.post('/api/mentor-views/seen')).status).toBe(204);
    expect((await alice.get('/api/mentor-views')).body.unseen).toBe(1);
    // The mentor's own transaction may not read the log at all.
    const refused = await app.server.database
      .withMentor(aliceId, maraId, (tx) => tx.execute(sql`select * from mentor_views`))
      .then(
        () => null,
        (err: Error & { cause?: Error }) => err.cause?.message ?? err.message,
      );
    expect(refused).toMatch(/permission denied/);
  });

  it("serves the mentor a shared trade's image with the trader's headers, and the Reflect tile points at it", async () => {
    const up = await uploadAttachment(alice, { trade_id: sharedTrade }, PNG_BYTES);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const file = String(up.body.url).split('/').pop()!;
    const viewsBefore = await viewRow(maraId);
    const res = await mara.request('GET', `/api/mentor/${aliceId}/attachments/files/${file}`);
    expect(res.status).toBe(200);
    // An image is part of a screen whose read counted already: it moves nothing on.
    expect(await viewRow(maraId)).toBe(viewsBefore);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG_BYTES)).toBe(true);
    // The trader's own address stays the trader's.
    expect((await mara.request('GET', up.body.url)).status).toBe(404);

    const reflect = (await mara.get(`/api/mentor/${aliceId}/reflect?period=month`)).body;
    const tile = reflect.reflections.find((r: { tradeId: string }) => r.tradeId === sharedTrade);
    expect(tile.imageUrl).toBe(`/api/mentor/${aliceId}/attachments/files/${file}`);
    // Another trader's mentor, and another trader, get nothing.
    expect((await bob.request('GET', `/api/mentor/${aliceId}/attachments/files/${file}`)).status).toBe(404);
  });

  it("answers 404 for an image of an account not shared, and a journal day's image only to a mentor it is shared with", async () => {
    const hidden = await uploadAttachment(alice, { trade_id: hiddenTrade }, PNG_BYTES);
    expect(hidden.status).toBe(201);
    const hiddenFile = String(hidden.body.url).split('/').pop()!;
    for (const mentor of [mara, olly]) {
      expect((await mentor.request('GET', `/api/mentor/${aliceId}/attachments/files/${hiddenFile}`)).status).toBe(404);
    }
    const day = await alice.json('PUT', `/api/journal/${journalDay}`, { content: 'Chart below' });
    expect(day.status, JSON.stringify(day.body)).toBe(200);
    const dayImage = await uploadAttachment(alice, { note_id: day.body.note.id }, PNG_BYTES);
    expect(dayImage.status, JSON.stringify(dayImage.body)).toBe(201);
    const dayFile = String(dayImage.body.url).split('/').pop()!;
    // Olly's grant shares the journal, Mara's does not.
    expect((await olly.request('GET', `/api/mentor/${aliceId}/attachments/files/${dayFile}`)).status).toBe(200);
    expect((await mara.request('GET', `/api/mentor/${aliceId}/attachments/files/${dayFile}`)).status).toBe(404);
    for (const bad of ['evil.svg', 'a.png', '..%2F..%2Favatars%2Fx.png']) {
      expect((await olly.request('GET', `/api/mentor/${aliceId}/attachments/files/${bad}`)).status, bad).toBe(404);
    }
  });

  it('records nothing and serves no image once the grant is revoked', async () => {
    const file = String((await alice.get(`/api/attachments?trade_id=${sharedTrade}`)).body[0].url)
      .split('/')
      .pop()!;
    expect((await mara.request('GET', `/api/mentor/${aliceId}/attachments/files/${file}`)).status).toBe(200);
    await pause(maraId);
    const before = await viewRow(maraId);
    expect((await alice.delete(`/api/mentor-grants/${maraGrant}`)).status).toBe(204);
    expect((await mara.request('GET', `/api/mentor/${aliceId}/attachments/files/${file}`)).status).toBe(404);
    for (const path of ['trades', 'reflect', 'prop']) expect((await mara.get(`/api/mentor/${aliceId}/${path}`)).status, path).toBe(404);
    expect(await viewRow(maraId)).toBe(before);
    // Even called straight, the statement adds nothing without a live grant.
    expect(await app.server.database.withUser(aliceId, (tx) => mentorViewsRepo(tx, aliceId).record(maraId, new Date()))).toBeNull();
    expect(await viewRow(maraId)).toBe(before);
  });
});
