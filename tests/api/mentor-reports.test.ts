import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade } from './trades-support';
import { ownerRows, signedUpUser } from './mentor-support';

/**
 * A mentor reads every Reports tab of a trader over HTTP, on both databases: each answer is the trader's own for the
 * granted account, never one with the other account's trades in it. Nobody else reads them, a revoked grant ends them,
 * and nobody writes through them.
 */

const NO_TRADER = { error: 'Trader not found' };

/** Every report with a query that reads all of the trader's trades (before the account is added). */
const KINDS: Array<[kind: string, query: string]> = [
  ['overview', 'range=all-time'],
  ['equity', 'range=all-time'],
  ['breakdown', 'by=instrument'],
  ['excursions', 'range=all-time'],
  ['r', 'range=all-time'],
  ['mistakes', 'range=all-time'],
  ['playbooks', 'range=all-time'],
  ['heatmap', 'range=all-time'],
  ['depth', 'range=all-time'],
  ['calendar', 'year=2025'],
  ['distribution', 'of=pnl'],
  ['monthly-review', 'month=2025-03'],
];

describe.each(backends())("a mentor's read of the Reports tabs on %s", (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let mentor: ApiClient;
  let olly: ApiClient;
  let aliceId: string;
  let bobId: string;
  let granted: { id: string };
  let ungranted: { id: string };
  let grantId: string;

  const rows = (query: SQL) => ownerRows(app, query);
  const signedUp = (prefix: string) => signedUpUser(app, prefix);
  const mentorPath = (traderId: string, kind: string, query = '') => `/api/mentor/${traderId}/reports/${kind}${query ? `?${query}` : ''}`;
  const compareQuery = (extra: string) =>
    ['side=Long', 'symbol=NQ', 'range=this-month'].map((set, k) => `${'abc'[k]}=${encodeURIComponent(set + extra)}`).join('&') + '&by=hour';

  beforeAll(async () => {
    app = await startTestApp({ backend });
    const a = await signedUp('reports-alice');
    const b = await signedUp('reports-bob');
    [alice, aliceId, bobId] = [a.client, a.id, b.id];
    mentor = (await signedUp('reports-mara')).client;
    olly = (await signedUp('reports-olly')).client;
    granted = await createAccount(alice, 'Shown account');
    ungranted = await createAccount(alice, 'Private account');
    for (const t of [
      { date: '2025-03-03', symbol: 'NQ', side: 'Long', trade_type: 'Breakout', pnl: '300.10' },
      { date: '2025-03-04', symbol: 'ES', side: 'Short', trade_type: 'Reversal', period: 'PM', pnl: '-120.45', tags: ['FOMO'] },
      { date: '2025-03-10', symbol: 'MNQ', side: 'Long', trade_type: 'Breakout', pnl: '45.00', tags: ['A+'] },
    ]) {
      await createTrade(alice, { account_id: granted.id, ...t });
    }
    // The private account trades on the same days and wins big, with values of its own: any of it in a mentor's answer
    // shows in the figures or in the filter bar's choices.
    await createTrade(alice, { account_id: ungranted.id, date: '2025-03-03', symbol: 'YM', side: 'Long', pnl: '9999.00', tags: ['Secret'] });
    await createTrade(alice, { account_id: ungranted.id, date: '2025-03-05', symbol: 'YM', side: 'Short', pnl: '-5000.00', quantity: '7' });
    await createTrade(alice, { date: '2025-03-06', symbol: 'RTY', pnl: '777.00' });
    await createTrade(b.client, { account_id: (await createAccount(b.client, 'Bob main')).id, date: '2025-03-03', symbol: 'CL', pnl: '12.00' });
    const invite = await alice.post('/api/mentor-grants', { email: 'mara@example.com', account_ids: [granted.id] });
    expect(invite.status, JSON.stringify(invite.body)).toBe(201);
    grantId = invite.body.id as string;
    const accepted = await mentor.post('/api/mentor/accept', { token: new URL(invite.body.url).hash.slice(1) });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  });
  afterAll(() => app?.close());

  it("answers each report as the trader's own answer for the granted account, unlike the answer over all accounts", async () => {
    for (const [kind, query] of KINDS) {
      // The mentor asks first: a reports copy the mentor's read made is the trader's whole one, not a narrowed one.
      const seen = await mentor.get(mentorPath(aliceId, kind, query));
      expect(seen.status, `${kind}: ${JSON.stringify(seen.body)}`).toBe(200);
      const own = await alice.get(`/api/reports/${kind}?${query}&account=${granted.id}`);
      expect(own.status, kind).toBe(200);
      expect(seen.body, kind).toEqual(own.body);
      const everything = await alice.get(`/api/reports/${kind}?${query}`);
      expect(everything.status, kind).toBe(200);
      expect(seen.body, kind).not.toEqual(everything.body);
      // Asking for the granted account by its id is the same answer.
      expect((await mentor.get(mentorPath(aliceId, kind, `${query}&account=${granted.id}`))).body, kind).toEqual(own.body);
      // Nothing of the private account, of the trades without one, or of another trader, by name or by value.
      const text = JSON.stringify(seen.body);
      for (const secret of ['Private account', 'YM', 'RTY', 'CL', 'Secret', ungranted.id]) expect(text, `${kind} ${secret}`).not.toContain(secret);
    }
    const overview = (await mentor.get(mentorPath(aliceId, 'overview', 'range=all-time'))).body.overview;
    expect([overview.trades, overview.netCents]).toEqual([3, 30010 - 12045 + 4500]);
  });

  it('compares sets of the granted account only', async () => {
    const seen = await mentor.get(mentorPath(aliceId, 'compare', compareQuery('')));
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    const own = await alice.get(`/api/reports/compare?${compareQuery(`&account=${granted.id}`)}`);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(seen.body).toEqual(own.body);
    expect(seen.body).not.toEqual((await alice.get(`/api/reports/compare?${compareQuery('')}`)).body);
    expect(seen.body.sets[0].overview.trades).toBe(2);
  });

  it("lists the filter bar's choices from the granted account's trades only", async () => {
    const seen = await mentor.get(mentorPath(aliceId, 'options'));
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body).toMatchObject({ symbol: ['ES', 'MNQ', 'NQ'], side: ['Long', 'Short'], tag: ['A+', 'FOMO'], trades: 3 });
    const everything = (await alice.get('/api/reports/options')).body;
    expect(everything.symbol).toEqual(['ES', 'MNQ', 'NQ', 'RTY', 'YM']);
    expect(everything.trades).toBe(6);
    expect(everything.size).toContain(7);
    expect(seen.body.size).not.toContain(7);
  });

  it('answers an account that is not shared as one that does not exist', async () => {
    for (const account of [ungranted.id, 'unassigned', crypto.randomUUID()]) {
      for (const [kind, query] of KINDS) {
        const res = await mentor.get(mentorPath(aliceId, kind, `${query}&account=${account}`));
        expect(res, `${kind} ${account}`).toEqual({ status: 404, body: { error: 'Trading account not found' } });
      }
      const both = await mentor.get(mentorPath(aliceId, 'overview', `account=${granted.id}&account=${account}`));
      expect(both.status, account).toBe(404);
      const compare = await mentor.get(mentorPath(aliceId, 'compare', `a=side%3DLong&b=${encodeURIComponent(`account=${account}`)}`));
      expect(compare, account).toEqual({ status: 404, body: { error: 'Trading account not found' } });
    }
  });

  it('answers 404 to a signed-in user without a grant, and to the mentor for a trader who granted nothing', async () => {
    for (const [kind, query] of [...KINDS, ['options', ''] as [string, string]]) {
      expect(await olly.get(mentorPath(aliceId, kind, query)), kind).toEqual({ status: 404, body: NO_TRADER });
      expect(await mentor.get(mentorPath(bobId, kind, query)), kind).toEqual({ status: 404, body: NO_TRADER });
      // The trader's own id through the mentor's paths: she is not her own mentor.
      expect(await alice.get(mentorPath(aliceId, kind, query)), kind).toEqual({ status: 404, body: NO_TRADER });
    }
  });

  it('writes nothing through these paths', async () => {
    const before = await rows(sql`select * from saved_views where user_id = ${aliceId} order by id`);
    for (const kind of [...KINDS.map(([k]) => k), 'compare', 'options']) {
      for (const method of ['PUT', 'POST', 'PATCH', 'DELETE']) {
        const res = await mentor.json(method, mentorPath(aliceId, kind), { name: 'overwritten', filter: 'symbol=NQ' });
        expect([404, 405], `${method} ${kind}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
    }
    expect(await rows(sql`select * from saved_views where user_id = ${aliceId} order by id`)).toEqual(before);
  });

  it('ends every report on the request after the grant is revoked', async () => {
    expect((await mentor.get(mentorPath(aliceId, 'overview'))).status).toBe(200);
    expect((await alice.delete(`/api/mentor-grants/${grantId}`)).status).toBe(204);
    for (const [kind, query] of [...KINDS, ['compare', compareQuery('')] as [string, string], ['options', ''] as [string, string]]) {
      expect(await mentor.get(mentorPath(aliceId, kind, query)), kind).toEqual({ status: 404, body: NO_TRADER });
    }
    // The trader's own reports are untouched.
    expect((await alice.get('/api/reports/overview?range=all-time')).body.overview.trades).toBe(6);
  });
});
