import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade } from './trades-support';
import { ownerRows, signedUpUser } from './mentor-support';

/**
 * A mentor's seat over HTTP on both databases: a trader invites a mentor to chosen accounts; the mentor, signed in as
 * themselves, accepts once and then reads those accounts' trades and nothing else, writes nothing but comments, and
 * loses every access on the request after a revocation. The invite's secret is long, stored only hashed, and a wrong
 * one is answered as an unknown one.
 */
describe.each(backends())('a mentor on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let mentor: ApiClient;
  let bob: ApiClient;
  let olly: ApiClient;
  let aliceId: string;
  let bobId: string;
  let mentorId: string;
  let granted: { id: string; name: string };
  let ungranted: { id: string; name: string };
  let grantedTrade: string;
  let grantedLoss: string;
  let ungrantedTrade: string;
  let bobTrade: string;

  const rows = (query: SQL) => ownerRows(app, query);
  const signedUp = (prefix: string) => signedUpUser(app, prefix);
  const invite = async (accountIds: string[], email = uniqueEmail('mentor')) => {
    const res = await alice.post('/api/mentor-grants', { email, account_ids: accountIds });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; url: string; emailed: boolean; accounts: Array<{ id: string; name: string }>; accepted_at: string | null };
  };
  const tokenOf = (url: string) => new URL(url).hash.slice(1);
  const accept = (client: ApiClient, token: string) => client.post('/api/mentor/accept', { token });

  beforeAll(async () => {
    app = await startTestApp({ backend });
    const a = await signedUp('mentor-alice');
    const m = await signedUp('mentor-mara');
    const b = await signedUp('mentor-bob');
    const o = await signedUp('mentor-olly');
    [alice, mentor, bob, olly] = [a.client, m.client, b.client, o.client];
    [aliceId, bobId, mentorId] = [a.id, b.id, m.id];
    granted = await createAccount(alice, 'Shown to mentor');
    ungranted = await createAccount(alice, 'Private account');
    grantedTrade = (
      await createTrade(alice, { account_id: granted.id, date: '2026-03-03', symbol: 'NQ', side: 'Long', pnl: 250.5, notes: 'granted win' })
    ).id;
    grantedLoss = (await createTrade(alice, { account_id: granted.id, date: '2026-03-04', symbol: 'ES', side: 'Short', pnl: -100.25 })).id;
    ungrantedTrade = (await createTrade(alice, { account_id: ungranted.id, date: '2026-03-03', symbol: 'YM', side: 'Long', pnl: 999 })).id;
    const bobAccount = await createAccount(bob, 'Bob main');
    bobTrade = (await createTrade(bob, { account_id: bobAccount.id, date: '2026-03-03', symbol: 'RTY', pnl: 42 })).id;
  });
  afterAll(() => app?.close());

  it('an invite carries 256 random bits, shown once, and the database keeps only its SHA-256', async () => {
    const grants = await Promise.all([1, 2].map(() => invite([granted.id])));
    const tokens = grants.map((g) => tokenOf(g.url));
    expect(grants[0]!.url).toMatch(new RegExp(`^${app.url}/mentor/accept#[A-Za-z0-9_-]{43}$`));
    expect(new Set(tokens).size).toBe(2);
    for (const token of tokens) expect(Buffer.from(token, 'base64url').length).toBe(32);
    // No SMTP here: the link is the trader's to copy, and it never goes to the log.
    expect(grants[0]!.emailed).toBe(false);
    for (const [i, grant] of grants.entries()) {
      const [row] = await rows(sql`select * from mentor_grants where id = ${grant.id}`);
      const hash = crypto.createHash('sha256').update(tokens[i]!).digest('hex');
      expect(row!.token_hash).toBe(hash);
      expect(row!.token_lookup).toBe(hash.slice(0, 16));
    }
    const all = JSON.stringify(await rows(sql`select * from mentor_grants`));
    for (const token of tokens) expect(all).not.toContain(token);
    expect(JSON.stringify(app.logs)).not.toContain(tokens[0]);
    const listed = (await alice.get('/api/mentor-grants')).body as Array<{ id: string }>;
    expect(listed.map((g) => g.id)).toEqual(expect.arrayContaining(grants.map((g) => g.id)));
    expect(JSON.stringify(listed)).not.toContain(tokens[0]);
  });

  it("only the trader's own accounts can be granted, and only the trader lists and revokes their grants", async () => {
    const bobsAccount = (await bob.get('/api/accounts')).body[0].id as string;
    const stolen = await alice.post('/api/mentor-grants', { email: uniqueEmail('m'), account_ids: [bobsAccount] });
    expect(stolen.status).toBe(400);
    const grant = await invite([granted.id]);
    expect(((await bob.get('/api/mentor-grants')).body as Array<{ id: string }>).map((g) => g.id)).not.toContain(grant.id);
    expect((await bob.delete(`/api/mentor-grants/${grant.id}`)).status).toBe(404);
    const [row] = await rows(sql`select revoked_at from mentor_grants where id = ${grant.id}`);
    expect(row!.revoked_at).toBeNull();
  });

  it('limits how many invitations one user may try: a burst of 30, then 429 with Retry-After', async () => {
    const guesser = (await signedUp('mentor-guesser')).client;
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) answers.push((await accept(guesser, crypto.randomBytes(32).toString('base64url'))).status);
    expect(answers.every((status) => status === 404)).toBe(true);
    const refused = await guesser.request('POST', '/api/mentor/accept', { token: crypto.randomBytes(32).toString('base64url') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user is not held back by the first one's guesses.
    expect((await accept(olly, crypto.randomBytes(32).toString('base64url'))).status).toBe(404);
  });

  describe('once accepted', () => {
    let grantId: string;
    let token: string;

    beforeAll(async () => {
      const grant = await invite([granted.id]);
      grantId = grant.id;
      token = tokenOf(grant.url);
      const accepted = await accept(mentor, token);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect(accepted.body).toMatchObject({ trader_id: aliceId, accounts: [{ id: granted.id, name: 'Shown to mentor' }] });
    });

    it('binds to the mentor who accepted: accepting again is fine for them, and refused to anyone else as an unknown invite', async () => {
      expect((await accept(mentor, token)).status).toBe(200);
      const unknown = await accept(olly, crypto.randomBytes(32).toString('base64url'));
      const taken = await accept(olly, token);
      expect(unknown.status).toBe(404);
      expect(taken).toEqual(unknown);
      // The trader cannot be their own mentor either.
      expect(await accept(alice, tokenOf((await invite([granted.id])).url))).toEqual(unknown);
      const [row] = await rows(sql`select mentor_user_id from mentor_grants where id = ${grantId}`);
      expect(row!.mentor_user_id).toBe(mentorId);
      expect((await olly.get(`/api/mentor/${aliceId}/trades`)).status).toBe(404);
      expect(((await olly.get('/api/mentor/traders')).body as unknown[]).length).toBe(0);
    });

    it('a guessed, altered or malformed token is answered as an unknown one', async () => {
      const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
      const answers = await Promise.all(
        [flipped, crypto.randomBytes(32).toString('base64url'), 'short', token.slice(0, 42) + '!'].map((t) => accept(olly, t)),
      );
      for (const answer of answers) expect(answer).toEqual({ status: 404, body: { error: 'Invitation not found' } });
      const [row] = await rows(sql`select count(*)::int as n from mentor_grants where mentor_user_id is not null and user_id = ${aliceId}`);
      expect(row!.n).toBe(1);
    });

    it("lists the trader, and reads the granted account's trades, never the others", async () => {
      const traders = (await mentor.get('/api/mentor/traders')).body as Array<{ trader_id: string; accounts: Array<{ id: string }> }>;
      expect(traders).toEqual([{ trader_id: aliceId, name: expect.any(String), accounts: [{ id: granted.id, name: 'Shown to mentor' }] }]);

      const page = await mentor.get(`/api/mentor/${aliceId}/trades`);
      expect(page.status).toBe(200);
      // Newest first, as the Trade Log lists.
      expect(page.body.trades.map((t: { id: string }) => t.id)).toEqual([grantedLoss, grantedTrade]);
      expect(page.body.total).toBe(2);
      expect(JSON.stringify(page.body)).not.toContain(ungrantedTrade);
      const second = await mentor.get(`/api/mentor/${aliceId}/trades?limit=1&offset=1`);
      expect(second.body.trades.map((t: { id: string }) => t.id)).toEqual([grantedTrade]);

      // Asking for the other account by name is the same 404 as an account that does not exist.
      expect((await mentor.get(`/api/mentor/${aliceId}/trades?account=${ungranted.id}`)).status).toBe(404);
      expect((await mentor.get(`/api/mentor/${aliceId}/trades?account=${granted.id}`)).body.total).toBe(2);

      expect((await mentor.get(`/api/mentor/${aliceId}/trades/${grantedTrade}`)).body).toMatchObject({
        id: grantedTrade,
        notes: 'granted win',
        pnl: '250.50',
      });
      const hidden = await mentor.get(`/api/mentor/${aliceId}/trades/${ungrantedTrade}`);
      expect(hidden).toEqual({ status: 404, body: { error: 'Trade not found' } });
      // Another trader's trade through the granting trader's id: as unknown.
      expect((await mentor.get(`/api/mentor/${aliceId}/trades/${bobTrade}`)).status).toBe(404);

      const overview = await mentor.get(`/api/mentor/${aliceId}/reports/overview?range=all-time`);
      expect(overview.status).toBe(200);
      expect(overview.body.overview.trades).toBe(2);
      expect(overview.body.overview.netCents).toBe(25050 - 10025);
    });

    it('cannot read a trader who granted them nothing', async () => {
      for (const path of [
        `/api/mentor/${bobId}/trades`,
        `/api/mentor/${bobId}/trades/${bobTrade}`,
        `/api/mentor/${bobId}/reports/overview`,
        `/api/mentor/${bobId}/comments`,
      ]) {
        expect(await mentor.get(path), path).toEqual({ status: 404, body: { error: 'Trader not found' } });
      }
      expect((await mentor.post(`/api/mentor/${bobId}/comments`, { trade_id: bobTrade, body: 'hi' })).status).toBe(404);
      expect((await rows(sql`select id from mentor_comments where user_id = ${bobId}`)).length).toBe(0);
    });

    it("writes nothing of the trader's: every write with their ids is refused and the rows stay as they were", async () => {
      const before = await rows(sql`select * from trades where user_id = ${aliceId} order by id`);
      const accountsBefore = await rows(sql`select * from trading_accounts where user_id = ${aliceId} order by id`);
      const writes: Array<[string, string, unknown]> = [
        ['PATCH', `/api/trades/${grantedTrade}`, { pnl: '1.00' }],
        ['DELETE', `/api/trades/${grantedTrade}`, undefined],
        ['PUT', `/api/trades/${grantedTrade}/fills`, { fills: [] }],
        ['PUT', `/api/trade-playbooks/${grantedTrade}`, { playbook_id: null }],
        ['PATCH', `/api/reflections/${grantedTrade}`, { followed_rules: true }],
        ['PATCH', `/api/accounts/${granted.id}`, { name: 'Taken' }],
        ['DELETE', `/api/accounts/${granted.id}`, undefined],
        ['POST', `/api/accounts/${granted.id}/default`, {}],
        ['PUT', `/api/mentor/${aliceId}/trades/${grantedTrade}`, { pnl: '1.00' }],
        ['DELETE', `/api/mentor/${aliceId}/trades/${grantedTrade}`, undefined],
        ['POST', `/api/mentor/${aliceId}/trades`, { symbol: 'NQ' }],
      ];
      for (const [method, path, body] of writes) {
        const res = await mentor.json(method, path, body);
        expect([403, 404], `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
      // The bulk endpoints answer for the mentor's own (empty) journal: none of the trader's trades is touched.
      expect((await mentor.post('/api/trades/bulk-delete', { ids: [grantedTrade] })).body).toEqual({ deleted: 0 });
      expect((await mentor.post('/api/trades/bulk-risk', { ids: [grantedTrade], risk: { kind: 'amount', amount: '100' } })).body).toEqual({
        updated: 0,
      });
      expect(await rows(sql`select * from trades where user_id = ${aliceId} order by id`)).toEqual(before);
      expect(await rows(sql`select * from trading_accounts where user_id = ${aliceId} order by id`)).toEqual(accountsBefore);
    });

    it("a mentor's comment on a trade or a day reaches the trader, who answers and marks it seen", async () => {
      const onTrade = await mentor.post(`/api/mentor/${aliceId}/comments`, { trade_id: grantedTrade, body: 'Good patience on the entry.' });
      expect(onTrade.status, JSON.stringify(onTrade.body)).toBe(201);
      const onDay = await mentor.post(`/api/mentor/${aliceId}/comments`, { trade_date: '2026-03-04', body: 'Stop after two losses.' });
      expect(onDay.status).toBe(201);
      // Not on a trade they cannot see, and not on both or neither.
      expect((await mentor.post(`/api/mentor/${aliceId}/comments`, { trade_id: ungrantedTrade, body: 'peek' })).status).toBe(404);
      expect((await mentor.post(`/api/mentor/${aliceId}/comments`, { body: 'nowhere' })).status).toBe(400);

      const inbox = await alice.get('/api/mentor-comments');
      expect(inbox.status).toBe(200);
      const bodies = inbox.body.comments.map((c: { body: string }) => c.body);
      expect(bodies).toEqual(expect.arrayContaining(['Good patience on the entry.', 'Stop after two losses.']));
      expect(bodies).not.toContain('peek');
      expect(inbox.body.unseen).toBe(2);
      expect(inbox.body.comments.find((c: { id: string }) => c.id === onTrade.body.id)).toMatchObject({
        trade_id: grantedTrade,
        trade_label: 'NQ Long, 2026-03-03',
        from_mentor: true,
        seen_at: null,
      });
      // Bob sees none of it.
      expect((await bob.get('/api/mentor-comments')).body).toEqual({ comments: [], unseen: 0 });
      expect((await bob.post(`/api/mentor-comments/${onTrade.body.id}/reply`, { body: 'not mine' })).status).toBe(404);

      const reply = await alice.post(`/api/mentor-comments/${onTrade.body.id}/reply`, { body: 'Thanks, will keep it.' });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ parent_id: onTrade.body.id, trade_id: grantedTrade, from_mentor: false });
      const thread = (await mentor.get(`/api/mentor/${aliceId}/comments`)).body as Array<{ body: string }>;
      expect(thread.map((c) => c.body)).toEqual(expect.arrayContaining(['Thanks, will keep it.', 'Good patience on the entry.']));

      expect((await alice.post('/api/mentor-comments/seen')).status).toBe(204);
      expect((await alice.get('/api/mentor-comments')).body.unseen).toBe(0);
    });

    it('revocation ends every access on the next request, and the invite cannot be accepted again', async () => {
      expect((await mentor.get(`/api/mentor/${aliceId}/trades`)).status).toBe(200);
      expect((await alice.delete(`/api/mentor-grants/${grantId}`)).status).toBe(204);
      for (const path of [
        `/api/mentor/${aliceId}/trades`,
        `/api/mentor/${aliceId}/trades/${grantedTrade}`,
        `/api/mentor/${aliceId}/reports/overview`,
        `/api/mentor/${aliceId}/comments`,
      ]) {
        expect((await mentor.get(path)).status, path).toBe(404);
      }
      expect((await mentor.post(`/api/mentor/${aliceId}/comments`, { trade_id: grantedTrade, body: 'still here?' })).status).toBe(404);
      expect((await mentor.get('/api/mentor/traders')).body).toEqual([]);
      expect((await accept(mentor, token)).status).toBe(404);
      const listed = ((await alice.get('/api/mentor-grants')).body as Array<{ id: string; revoked_at: string | null }>).find(
        (g) => g.id === grantId,
      )!;
      expect(listed.revoked_at).not.toBeNull();
    });
  });
});
