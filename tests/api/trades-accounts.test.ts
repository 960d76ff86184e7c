import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type TestApp } from '../support/app';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Trading accounts as the Trade Log uses them (ordered by
 * is_default desc then name): the delete guard, one default under concurrent requests, the order.
 */
describe.each(backends())('trading accounts for the trade log on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('refuses to delete an account that a trade references, with the spec message and description', async () => {
    const t = await newTrader(app, 'guard');
    const acct = await createAccount(t, 'In Use');
    const trade = await createTrade(t, { pnl: 5, account_id: acct.id });
    const res = await t.delete(`/api/accounts/${acct.id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: 'Cannot delete account with existing trades',
      description: 'Please delete all trades for this account first',
    });
    expect((await t.get('/api/accounts')).body.map((a: { id: string }) => a.id)).toEqual([acct.id]);
    expect((await t.get(`/api/trades/${trade.id}`)).body.account_id).toBe(acct.id);

    // Imported trades count too; once every trade is gone the account can go.
    await t.post('/api/trades/import', { account_id: acct.id, trades: [{ date: '2025-03-03', period: 'AM', pnl: 1 }] });
    expect((await t.delete(`/api/trades/${trade.id}`)).status).toBe(204);
    expect((await t.delete(`/api/accounts/${acct.id}`)).status).toBe(409);
    const rest = (await t.get(`/api/trades?account=${acct.id}`)).body.trades.map((x: { id: string }) => x.id);
    expect((await t.post('/api/trades/bulk-delete', { ids: rest })).body).toEqual({ deleted: 1 });
    expect((await t.delete(`/api/accounts/${acct.id}`)).status).toBe(204);
    expect((await t.get('/api/accounts')).body).toEqual([]);
  });

  it("another trader's trades do not block the delete, and another trader cannot delete the account", async () => {
    const [owner, stranger] = await Promise.all([newTrader(app, 'owner'), newTrader(app, 'stranger')]);
    const acct = await createAccount(owner, 'Mine');
    await createTrade(stranger, { pnl: 1 });
    expect((await stranger.delete(`/api/accounts/${acct.id}`)).status).toBe(404);
    expect((await owner.get('/api/accounts')).body).toHaveLength(1);
    expect((await owner.delete(`/api/accounts/${acct.id}`)).status).toBe(204);
  });

  it('keeps exactly one default when ten set-default requests race', async () => {
    const t = await newTrader(app, 'race');
    const accounts = [];
    for (let i = 0; i < 10; i++) accounts.push(await createAccount(t, `Account ${i}`));
    const results = await Promise.all(accounts.map((a) => t.post(`/api/accounts/${a.id}/default`)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const listed = (await t.get('/api/accounts')).body as Array<{ id: string; is_default: boolean }>;
    expect(listed.filter((a) => a.is_default)).toHaveLength(1);
    expect(listed[0]!.is_default).toBe(true);
  });

  it('keeps exactly one default when ten accounts are created at once, the first ones and "Set as default" ones alike', async () => {
    const t = await newTrader(app, 'burst');
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t.post('/api/accounts', { name: `Burst ${i}`, is_default: i % 2 === 0 })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    const listed = (await t.get('/api/accounts')).body as Array<{ is_default: boolean }>;
    expect(listed).toHaveLength(10);
    expect(listed.filter((a) => a.is_default)).toHaveLength(1);

    const fresh = await newTrader(app, 'fresh');
    await Promise.all(Array.from({ length: 6 }, (_, i) => fresh.post('/api/accounts', { name: `First ${i}` })));
    expect(((await fresh.get('/api/accounts')).body as Array<{ is_default: boolean }>).filter((a) => a.is_default)).toHaveLength(1);
  });

  it('lists the default first, then by name alphabetically regardless of case', async () => {
    const t = await newTrader(app, 'order');
    await createAccount(t, 'zeta'); // the first account becomes the default
    await createAccount(t, 'Charlie');
    await createAccount(t, 'alpha');
    await createAccount(t, 'Bravo');
    await createAccount(t, 'delta');
    expect((await t.get('/api/accounts')).body.map((a: { name: string }) => a.name)).toEqual(['zeta', 'alpha', 'Bravo', 'Charlie', 'delta']);
    const bravo = (await t.get('/api/accounts')).body.find((a: { name: string }) => a.name === 'Bravo');
    expect((await t.post(`/api/accounts/${bravo.id}/default`)).status).toBe(200);
    expect((await t.get('/api/accounts')).body.map((a: { name: string; is_default: boolean }) => [a.name, a.is_default])).toEqual([
      ['Bravo', true],
      ['alpha', false],
      ['Charlie', false],
      ['delta', false],
      ['zeta', false],
    ]);
  });

  it("renaming an account renames it on its trades; setting another trader's account default is a 404", async () => {
    const [t, stranger] = await Promise.all([newTrader(app, 'rename'), newTrader(app, 'stranger2')]);
    const acct = await createAccount(t, 'Old Name');
    const trade = await createTrade(t, { pnl: 1, account_id: acct.id });
    expect((await t.patch(`/api/accounts/${acct.id}`, { name: 'New Name' })).status).toBe(200);
    expect((await t.get(`/api/trades/${trade.id}`)).body.account_name).toBe('New Name');
    expect((await t.get('/api/trades?q=new%20name')).body.total).toBe(1);

    const theirs = await createAccount(stranger, 'Stranger Default');
    const second = await createAccount(stranger, 'Stranger Second');
    expect((await t.post(`/api/accounts/${second.id}/default`)).status).toBe(404);
    const strangerList = (await stranger.get('/api/accounts')).body as Array<{ id: string; is_default: boolean }>;
    expect(strangerList.find((a) => a.is_default)?.id).toBe(theirs.id);
  });

  it('an account deleted while trades are filed into it: either the delete is refused or the trade is, never a 500', async () => {
    const t = await newTrader(app, 'delrace');
    await createAccount(t, 'Keeper'); // the default, so the racing accounts are ordinary ones
    const outcomes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const acct = await createAccount(t, `Racing ${i}`);
      const loose = await createTrade(t, { pnl: i + 1 });
      const [assign, create, del] = await Promise.all([
        t.post('/api/trades/assign', { ids: [loose.id], account_id: acct.id }),
        t.post('/api/trades', { date: '2025-03-03', period: 'AM', pnl: 1, account_id: acct.id }),
        t.delete(`/api/accounts/${acct.id}`),
      ]);
      outcomes.add(`${assign.status}/${create.status}/${del.status}`);
      expect([200, 400]).toContain(assign.status);
      expect([201, 400]).toContain(create.status);
      expect([204, 409]).toContain(del.status);
      const exists = (await t.get('/api/accounts')).body.some((a: { id: string }) => a.id === acct.id);
      expect(exists).toBe(del.status === 409);
      // Whatever won, no trade points at an account that is gone.
      const filed = (await t.get(`/api/trades?account=${acct.id}`)).body.total;
      if (!exists) expect(filed).toBe(0);
      expect((await t.get(`/api/trades/${loose.id}`)).body.account_id).toBe(assign.status === 200 && exists ? acct.id : null);
      // Clean up so the next round starts from one account with no trades.
      const ids = (await t.get(`/api/trades?account=${acct.id}`)).body.trades.map((x: { id: string }) => x.id);
      if (ids.length) await t.post('/api/trades/bulk-delete', { ids });
      if (exists) expect((await t.delete(`/api/accounts/${acct.id}`)).status).toBe(204);
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it("refuses a blank account name with 'Account name is required'", async () => {
    const t = await newTrader(app, 'blank');
    const res = await t.post('/api/accounts', { name: '   ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('name: Account name is required');
  });
});
