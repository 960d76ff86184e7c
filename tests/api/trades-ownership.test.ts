import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, listAll, newTrader } from './trades-support';

/**
 * "Every endpoint ... never answers another user's row". Bob aims every trades, accounts and
 * trade-preferences endpoint at Alice's ids; each answer is a 404, a 400 or no effect, and Alice's data is the same
 * afterwards, byte for byte.
 */
describe.each(backends())("another trader's ids through every endpoint on %s", (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceAccount: { id: string };
  let aliceTradeIds: string[];
  let bobAccount: { id: string };
  let bobTradeId: string;
  let before: Awaited<ReturnType<typeof snapshot>>;

  async function snapshot(client: ApiClient) {
    return {
      trades: await listAll(client),
      stats: (await client.get('/api/trades/stats')).body,
      unassigned: (await client.get('/api/trades/unassigned-count')).body,
      accounts: (await client.get('/api/accounts')).body,
      preferences: (await client.get('/api/trade-preferences')).body,
      exported: (await client.get('/api/trades/export')).body,
    };
  }

  async function remove(client: ApiClient, type: string, value: string) {
    const body = JSON.stringify({ type, value });
    const res = await client.request('DELETE', '/api/trade-preferences', { type, value }, { 'content-length': String(Buffer.byteLength(body)) });
    return { status: res.status, body: await res.json() };
  }

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
    aliceAccount = await createAccount(alice, 'Alice Secret Account');
    await createAccount(alice, 'Alice Second');
    const trades = [
      await createTrade(alice, {
        pnl: 100,
        account_id: aliceAccount.id,
        notes: 'alice private note',
        trade_type: 'Alice Setup',
        period: 'Alice Session',
      }),
      await createTrade(alice, { pnl: -40, date: '2025-03-04' }),
      await createTrade(alice, { pnl: 0, date: '2025-03-05', tags: 'alice-tag' }),
    ];
    aliceTradeIds = trades.map((t) => t.id);
    await alice.post('/api/trade-preferences', { type: 'trade_type', value: 'Alice Setup' });
    await alice.post('/api/trade-preferences', { type: 'session', value: 'Alice Session' });
    bobAccount = await createAccount(bob, 'Bob Account');
    bobTradeId = (await createTrade(bob, { pnl: 5 })).id;
    before = await snapshot(alice);
  });
  afterAll(() => app?.close());

  it('reads: list, search, stats, one trade, unassigned count, export show nothing of Alice', async () => {
    const byAccount = await bob.get(`/api/trades?account=${aliceAccount.id}`);
    expect(byAccount.body).toEqual({ trades: [], next_cursor: null, total: 0 });
    for (const q of ['alice', 'Secret', 'private']) {
      expect((await bob.get(`/api/trades?q=${q}`)).body.total).toBe(0);
      expect((await bob.get(`/api/trades/stats?q=${q}`)).body.summary.trades).toBe(0);
    }
    expect((await bob.get(`/api/trades/stats?account=${aliceAccount.id}`)).body.summary.trades).toBe(0);
    expect((await bob.get('/api/trades/stats')).body.summary.trades).toBe(1);
    for (const id of aliceTradeIds) expect((await bob.get(`/api/trades/${id}`)).status).toBe(404);
    expect((await bob.get('/api/trades/unassigned-count')).body).toEqual({ count: 1 });
    expect((await bob.get('/api/trades/export')).body.map((t: { id: string }) => t.id)).toEqual([bobTradeId]);
    expect((await bob.get('/api/accounts')).body.map((a: { id: string }) => a.id)).toEqual([bobAccount.id]);
  });

  it("preferences: Bob's removals and additions change only Bob's lists, and Alice's trades do not guard Bob's options", async () => {
    expect((await remove(bob, 'trade_type', 'Alice Setup')).status).toBe(200);
    expect((await remove(bob, 'trade_type', 'A/A+')).status).toBe(200);
    expect((await remove(bob, 'session', 'Alice Session')).status).toBe(200);
    expect((await remove(bob, 'tag', 'NQ')).status).toBe(200);
    expect((await bob.post('/api/trade-preferences', { type: 'trade_type', value: 'Alice Setup' })).status).toBe(201);
  });

  it('writes on trades: create, patch, delete, bulk delete, assign, import are refused or touch nothing of Alice', async () => {
    const create = await bob.post('/api/trades', { date: '2025-03-03', period: 'AM', account_id: aliceAccount.id });
    expect(create.status).toBe(400);
    for (const id of aliceTradeIds) {
      expect((await bob.patch(`/api/trades/${id}`, { pnl: -999, notes: 'bob was here' })).status).toBe(404);
      expect((await bob.patch(`/api/trades/${id}`, { account_id: bobAccount.id })).status).toBe(404);
      expect((await bob.delete(`/api/trades/${id}`)).status).toBe(404);
    }
    expect((await bob.patch(`/api/trades/${bobTradeId}`, { account_id: aliceAccount.id })).status).toBe(400);
    expect((await bob.post('/api/trades/bulk-delete', { ids: aliceTradeIds })).body).toEqual({ deleted: 0 });
    expect((await bob.post('/api/trades/assign', { ids: aliceTradeIds, account_id: bobAccount.id })).body).toEqual({ assigned: 0 });
    expect((await bob.post('/api/trades/assign', { ids: [bobTradeId], account_id: aliceAccount.id })).status).toBe(400);
    const imported = await bob.post('/api/trades/import', {
      account_id: aliceAccount.id,
      trades: [{ id: aliceTradeIds[0], date: '2025-03-03', period: 'AM', pnl: 1 }],
    });
    expect(imported.status).toBe(400);
    // Re-importing Alice's own export into Bob's account creates Bob's copies, never touches Alice's rows.
    const copy = await bob.post('/api/trades/import', { account_id: bobAccount.id, trades: before.exported });
    expect(copy.status).toBe(201);
    expect(copy.body.imported).toBe(3);
    const bobTrades = await listAll(bob);
    expect(bobTrades.some((t) => aliceTradeIds.includes(t.id))).toBe(false);
    // Those copies are Bob's: now his own trades guard his own 'Alice Setup' option.
    expect((await remove(bob, 'trade_type', 'Alice Setup')).status).toBe(409);
  });

  it('writes on accounts: rename, set default, delete answer 404', async () => {
    expect((await bob.patch(`/api/accounts/${aliceAccount.id}`, { name: 'pwned' })).status).toBe(404);
    expect((await bob.post(`/api/accounts/${aliceAccount.id}/default`)).status).toBe(404);
    expect((await bob.delete(`/api/accounts/${aliceAccount.id}`)).status).toBe(404);
  });

  it("leaves Alice's trades, statistics, accounts, preferences and export exactly as they were", async () => {
    expect(await snapshot(alice)).toEqual(before);
  });
});
