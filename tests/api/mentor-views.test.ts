import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, getStartOfWeekMonday, getTodayInZone } from '../../src/domain/dates';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade } from './trades-support';
import { ownerRows, signedUpUser } from './mentor-support';

/**
 * A mentor reads the trader's other screens over HTTP, on both databases: Reflect, the daily journal (only while a
 * live grant shares it) and the prop status, each over the granted accounts only and equal to what the trader's own
 * screen answers for those accounts. Nobody else reads them, and nobody writes through them.
 */

const NO_TRADER = { error: 'Trader not found' };
const today = () => getTodayInZone(new Date(), 'America/New_York');

describe.each(backends())("a mentor's read of Reflect, the journal and the prop status on %s", (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let mentor: ApiClient;
  let olly: ApiClient;
  let bob: ApiClient;
  let aliceId: string;
  let bobId: string;
  let granted: { id: string };
  let ungranted: { id: string };
  let grantedTrades: string[];
  let ungrantedTrade: string;
  let tradeDay: string;
  let noteDay: string;
  let firstGrant: string;

  const rows = (query: SQL) => ownerRows(app, query);
  const signedUp = (prefix: string) => signedUpUser(app, prefix);
  const propAccount = (name: string) => createAccount(alice, name, { kind: 'evaluation', size: 50000, starting_balance: '50000', firm: 'Topstep' });
  /** Alice invites the mentor to the granted account, and the mentor accepts: the grant's id. */
  const grantMentor = async (shareJournal: boolean) => {
    const res = await alice.post('/api/mentor-grants', { email: 'mara@example.com', account_ids: [granted.id], share_journal: shareJournal });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.share_journal).toBe(shareJournal);
    const accepted = await mentor.post('/api/mentor/accept', { token: new URL(res.body.url).hash.slice(1) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    return res.body.id as string;
  };
  const views = (traderId: string) => [
    `/api/mentor/${traderId}/reflect`,
    `/api/mentor/${traderId}/journal`,
    `/api/mentor/${traderId}/journal/${noteDay}`,
    `/api/mentor/${traderId}/prop`,
  ];

  beforeAll(async () => {
    app = await startTestApp({ backend });
    const a = await signedUp('views-alice');
    const b = await signedUp('views-bob');
    [alice, bob, aliceId, bobId] = [a.client, b.client, a.id, b.id];
    mentor = (await signedUp('views-mara')).client;
    olly = (await signedUp('views-olly')).client;
    granted = await propAccount('Shown eval');
    ungranted = await propAccount('Private eval');
    const monday = getStartOfWeekMonday(today());
    tradeDay = monday;
    noteDay = addDays(monday, 1);
    grantedTrades = [];
    for (const t of [
      { date: monday, symbol: 'NQ', side: 'Long', trade_type: 'Breakout', pnl: '300.10', notes: 'Waited for the sweep' },
      { date: monday, symbol: 'ES', side: 'Short', trade_type: 'Reversal', period: 'PM', pnl: '-120.45', tags: ['FOMO'] },
      { date: noteDay, symbol: 'MNQ', side: 'Long', trade_type: 'Breakout', pnl: '45.00' },
      // Last week's, for the comparison with the period before.
      { date: addDays(monday, -4), symbol: 'NQ', side: 'Long', trade_type: 'Breakout', pnl: '80.00' },
    ]) {
      grantedTrades.push((await createTrade(alice, { account_id: granted.id, ...t })).id);
    }
    // The private account trades on the same days, and wins big: any of it in a mentor's figure shows.
    ungrantedTrade = (await createTrade(alice, { account_id: ungranted.id, date: monday, symbol: 'YM', pnl: '9999.00', tags: ['Secret'] })).id;
    await createTrade(alice, { account_id: ungranted.id, date: addDays(monday, -4), symbol: 'YM', pnl: '-5000.00' });
    await createTrade(alice, { date: monday, symbol: 'RTY', pnl: '777.00' });
    expect((await alice.patch(`/api/reflections/${grantedTrades[0]}`, { followed_rules: true, tags: ['Patience'] })).status).toBe(200);
    expect((await alice.patch(`/api/reflections/${grantedTrades[1]}`, { followed_rules: false })).status).toBe(200);
    expect((await alice.patch(`/api/reflections/${ungrantedTrade}`, { followed_rules: false, description: 'not for the mentor' })).status).toBe(200);
    expect((await alice.json('PUT', `/api/journal/${noteDay}`, { content: 'Slept badly; sized down.' })).status).toBe(200);
    for (const account of [granted, ungranted]) {
      const res = await alice.json('PUT', `/api/prop/accounts/${account.id}/rules`, {
        rules: { profitTargetCents: 300_000, maxLoss: { amountCents: 200_000, trailing: 'static' } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const bobAccount = await createAccount(bob, 'Bob main');
    await createTrade(bob, { account_id: bobAccount.id, date: monday, symbol: 'ES', pnl: '12.00' });
    firstGrant = await grantMentor(false);
  });
  afterAll(() => app?.close());

  it("shows the mentor the trader's own Reflect answer for the granted account, and nothing of the others", async () => {
    for (const period of ['week', 'month', 'day']) {
      const own = await alice.get(`/api/reflections?period=${period}&account=${granted.id}`);
      expect(own.status).toBe(200);
      const all = await mentor.get(`/api/mentor/${aliceId}/reflect?period=${period}`);
      expect(all.status, JSON.stringify(all.body)).toBe(200);
      // 'all' is every granted account: the same trades and figures, named for what it is.
      // The insights are the trader's, in words for a mentor (about the trader, never "your rules").
      type Insight = { kind: string; text: string };
      const { account: _a, accountName: _n, insights: ownInsights, ...ownFigures } = own.body;
      const { account, accountName, insights, ...mentorFigures } = all.body;
      expect([account, accountName]).toEqual(['all', 'All shared accounts']);
      expect(mentorFigures).toEqual(ownFigures);
      expect((insights as Insight[]).map((i) => i.kind)).toEqual((ownInsights as Insight[]).map((i) => i.kind));
      for (const insight of insights as Insight[]) expect(insight.text).not.toMatch(/\byour\b/i);
      // Asking for the granted account by its id is the trader's answer key for key.
      const byId = (await mentor.get(`/api/mentor/${aliceId}/reflect?period=${period}&account=${granted.id}`)).body;
      expect({ ...byId, insights: undefined }).toEqual({ ...own.body, insights: undefined });
      expect(byId.insights).toEqual(insights);
    }
    const week = (await mentor.get(`/api/mentor/${aliceId}/reflect?period=week`)).body;
    expect(week.reflections.map((r: { tradeId: string }) => r.tradeId).sort()).toEqual(grantedTrades.slice(0, 3).sort());
    expect(week.statistics.totals.pnlCents).toBe(30010 - 12045 + 4500);
    expect(week.statistics.adherence.followed).toBe(1);
    const text = JSON.stringify(week);
    for (const secret of [ungrantedTrade, 'Secret', 'not for the mentor', 'RTY', 'YM']) expect(text).not.toContain(secret);
    // The private account, the trades without one, and another trader's account are as unknown as a made-up one.
    for (const account of [ungranted.id, 'unassigned', crypto.randomUUID()]) {
      expect((await mentor.get(`/api/mentor/${aliceId}/reflect?account=${account}`)).status, account).toBe(404);
    }
  });

  it('answers the journal as an unknown trader while no live grant shares it', async () => {
    expect(await mentor.get(`/api/mentor/${aliceId}/journal`)).toEqual({ status: 404, body: NO_TRADER });
    expect(await mentor.get(`/api/mentor/${aliceId}/journal/${noteDay}`)).toEqual({ status: 404, body: NO_TRADER });
    // The rest stays readable.
    expect((await mentor.get(`/api/mentor/${aliceId}/reflect`)).status).toBe(200);
  });

  it("shares the journal once a grant says so: every note, beside the granted account's trades only", async () => {
    const sharing = await grantMentor(true);
    const listed = (await alice.get('/api/mentor-grants')).body as Array<{ id: string; share_journal: boolean }>;
    expect(listed.find((g) => g.id === sharing)!.share_journal).toBe(true);
    expect(listed.find((g) => g.id === firstGrant)!.share_journal).toBe(false);

    const days = await mentor.get(`/api/mentor/${aliceId}/journal`);
    expect(days.status, JSON.stringify(days.body)).toBe(200);
    expect(days.body).toEqual((await alice.get(`/api/journal/days?account=${granted.id}`)).body);
    expect(days.body.days.find((d: { date: string }) => d.date === tradeDay)).toEqual({ date: tradeDay, trades: 2, pnl: '179.65', has_note: false });
    expect(days.body.days.find((d: { date: string }) => d.date === noteDay)).toEqual({ date: noteDay, trades: 1, pnl: '45.00', has_note: true });

    const day = await mentor.get(`/api/mentor/${aliceId}/journal/${noteDay}`);
    expect(day.status).toBe(200);
    expect(day.body).toEqual((await alice.get(`/api/journal/${noteDay}?account=${granted.id}`)).body);
    expect(day.body.note.content).toBe('Slept badly; sized down.');
    const monday = (await mentor.get(`/api/mentor/${aliceId}/journal/${tradeDay}`)).body;
    expect(monday.trades.map((t: { id: string }) => t.id).sort()).toEqual(grantedTrades.slice(0, 2).sort());
    expect(monday.pnl).toBe('179.65');
    expect((await mentor.get(`/api/mentor/${aliceId}/journal?account=${ungranted.id}`)).status).toBe(404);
    expect((await mentor.get(`/api/mentor/${aliceId}/journal/${tradeDay}?account=unassigned`)).status).toBe(404);

    // Revoking the grant that shared it ends the journal on the next request; the other grant still shows the rest.
    expect((await alice.delete(`/api/mentor-grants/${sharing}`)).status).toBe(204);
    expect(await mentor.get(`/api/mentor/${aliceId}/journal`)).toEqual({ status: 404, body: NO_TRADER });
    expect(await mentor.get(`/api/mentor/${aliceId}/journal/${noteDay}`)).toEqual({ status: 404, body: NO_TRADER });
    expect((await mentor.get(`/api/mentor/${aliceId}/prop`)).status).toBe(200);
  });

  it("shows the prop status of the granted accounts only, as the trader's own status reads", async () => {
    const own = (await alice.get('/api/prop/status')).body as { accounts: Array<{ account: { id: string } }> };
    expect(own.accounts.map((a) => a.account.id).sort()).toEqual([granted.id, ungranted.id].sort());
    const seen = await mentor.get(`/api/mentor/${aliceId}/prop`);
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body).toEqual({ accounts: own.accounts.filter((a) => a.account.id === granted.id) });
    expect(seen.body.accounts[0].profit_cents).toBe(30010 - 12045 + 4500 + 8000);
  });

  it('answers 404 to a signed-in user without a grant, and to the mentor for a trader who granted nothing', async () => {
    // The mentor reads them: the same paths answer only those the trader granted.
    for (const path of [`/api/mentor/${aliceId}/reflect`, `/api/mentor/${aliceId}/prop`]) expect((await mentor.get(path)).status, path).toBe(200);
    for (const path of views(aliceId)) expect(await olly.get(path), path).toEqual({ status: 404, body: NO_TRADER });
    for (const path of [...views(bobId), ...views(crypto.randomUUID())])
      expect(await mentor.get(path), path).toEqual({ status: 404, body: NO_TRADER });
    // Bob cannot read Alice through her id either.
    for (const path of views(aliceId)) expect((await bob.get(path)).status, path).toBe(404);
  });

  it('writes nothing through these paths', async () => {
    // Shared again for this test, so that each path reads before its writes are refused.
    const sharing = await grantMentor(true);
    for (const path of views(aliceId)) expect((await mentor.get(path)).status, path).toBe(200);
    const before = await rows(sql`select id, content, updated_at from notes where user_id = ${aliceId} order by id`);
    const overrides = await rows(sql`select * from trade_reflections where user_id = ${aliceId} order by trade_id`);
    const rules = await rows(sql`select * from prop_rule_sets where user_id = ${aliceId} order by id`);
    for (const path of [...views(aliceId), `/api/mentor/${aliceId}/reflect/${grantedTrades[0]}`, `/api/mentor/${aliceId}/prop/${granted.id}`]) {
      for (const method of ['PUT', 'POST', 'PATCH', 'DELETE']) {
        const res = await mentor.json(method, path, { content: 'overwritten', followed_rules: false, rules: { profitTargetCents: 1 } });
        expect([404, 405], `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
    }
    expect(await rows(sql`select id, content, updated_at from notes where user_id = ${aliceId} order by id`)).toEqual(before);
    expect(await rows(sql`select * from trade_reflections where user_id = ${aliceId} order by trade_id`)).toEqual(overrides);
    expect(await rows(sql`select * from prop_rule_sets where user_id = ${aliceId} order by id`)).toEqual(rules);
    expect((await alice.delete(`/api/mentor-grants/${sharing}`)).status).toBe(204);
  });

  it('ends every view on the request after the last grant is revoked', async () => {
    for (const path of [`/api/mentor/${aliceId}/reflect`, `/api/mentor/${aliceId}/prop`]) expect((await mentor.get(path)).status, path).toBe(200);
    expect((await alice.delete(`/api/mentor-grants/${firstGrant}`)).status).toBe(204);
    for (const path of views(aliceId)) expect(await mentor.get(path), path).toEqual({ status: 404, body: NO_TRADER });
  });
});
