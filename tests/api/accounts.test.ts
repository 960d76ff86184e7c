import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tradingAccount, tradingAccountList } from '../../src/contract/accounts';
import { trades } from '../../src/server/db/schema';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/** Trading accounts: validation, the one default, the delete guard. */
describe.each(backends())('trading accounts on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  async function newTrader(): Promise<{ id: string; client: ApiClient }> {
    const client = app.client();
    const res = await client.signUp(uniqueEmail());
    expect(res.status).toBe(200);
    return { id: res.body.user.id, client };
  }

  const defaults = async (client: ApiClient) =>
    ((await client.get('/api/accounts')).body as Array<{ id: string; is_default: boolean }>).filter((a) => a.is_default).map((a) => a.id);

  it("refuses a blank or missing name with 'Account name is required', naming the field", async () => {
    const { client } = await newTrader();
    for (const body of [{ name: '' }, { name: '   ' }, {}, { name: null }]) {
      const res = await client.post('/api/accounts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('name: Account name is required');
      expect(res.body.fields).toEqual([{ field: 'name', message: 'Account name is required' }]);
    }
    const created = await client.post('/api/accounts', { name: '  Futures  ' });
    expect(created.body.name).toBe('Futures');
    const rename = await client.patch(`/api/accounts/${created.body.id}`, { name: ' ' });
    expect(rename.status).toBe(400);
    expect(rename.body.fields).toEqual([{ field: 'name', message: 'Account name is required' }]);
    expect((await client.get('/api/accounts')).body.map((a: { name: string }) => a.name)).toEqual(['Futures']);
  });

  it('answers every accounts endpoint in the shape of the shared contract (src/contract/accounts.ts)', async () => {
    const { client } = await newTrader();
    // A strict schema: a field the server adds or drops without the contract fails here, not in the browser.
    const first = await client.post('/api/accounts', { name: 'Apex 50K', description: 'Evaluation' });
    expect(first.status).toBe(201);
    expect(tradingAccount.parse(first.body)).toMatchObject({ name: 'Apex 50K', description: 'Evaluation', is_default: true });
    const second = await client.post('/api/accounts', { name: 'Topstep' });
    expect(tradingAccount.parse(second.body).description).toBeNull();
    const renamed = await client.patch(`/api/accounts/${second.body.id}`, { name: 'Topstep 100K' });
    expect(renamed.status).toBe(200);
    expect(tradingAccount.parse(renamed.body).name).toBe('Topstep 100K');
    const made = await client.post(`/api/accounts/${second.body.id}/default`);
    expect(made.status).toBe(200);
    expect(tradingAccount.parse(made.body).is_default).toBe(true);
    const list = await client.get('/api/accounts');
    expect(
      tradingAccountList
        .parse(list.body)
        .map((a) => a.name)
        .sort(),
    ).toEqual(['Apex 50K', 'Topstep 100K']);
  });

  it('answers a malformed account id with 400 naming it, not a database error', async () => {
    const { client } = await newTrader();
    const res = await client.patch('/api/accounts/not-a-uuid', { name: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^id: /);
    expect((await client.delete('/api/accounts/1;drop')).status).toBe(400);
  });

  it("makes a trader's first account the default, and moves the default when asked", async () => {
    const { client } = await newTrader();
    const first = (await client.post('/api/accounts', { name: 'First' })).body;
    expect(first.is_default).toBe(true);
    const second = (await client.post('/api/accounts', { name: 'Second' })).body;
    expect(second.is_default).toBe(false);
    expect(await defaults(client)).toEqual([first.id]);

    const third = (await client.post('/api/accounts', { name: 'Third', is_default: true })).body;
    expect(third.is_default).toBe(true);
    expect(await defaults(client)).toEqual([third.id]);

    expect((await client.post(`/api/accounts/${second.id}/default`)).body).toMatchObject({ id: second.id, is_default: true });
    expect(await defaults(client)).toEqual([second.id]);
    expect((await client.patch(`/api/accounts/${first.id}`, { is_default: true })).status).toBe(200);
    expect(await defaults(client)).toEqual([first.id]);
  });

  it('keeps exactly one default when ten set-default requests race', async () => {
    const { client } = await newTrader();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await client.post('/api/accounts', { name: `Account ${i}` })).body.id);
    const results = await Promise.all(
      ids.map((id, i) => (i % 2 ? client.post(`/api/accounts/${id}/default`) : client.patch(`/api/accounts/${id}`, { is_default: true }))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const winners = await defaults(client);
    expect(winners).toHaveLength(1);
    expect(ids).toContain(winners[0]);
  });

  it('refuses to delete an account that a trade references, and deletes it once the trade is gone', async () => {
    const { id: userId, client } = await newTrader();
    const account = (await client.post('/api/accounts', { name: 'In use' })).body;
    const [trade] = await app.server.database.withUser(userId, (tx) =>
      tx.insert(trades).values({ userId, accountId: account.id, tradeDate: '2025-03-03T12:00:00Z', dayOfWeek: 'Monday', pnl: '42.00' }).returning(),
    );

    const refused = await client.delete(`/api/accounts/${account.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'Cannot delete account with existing trades',
      description: 'Please delete all trades for this account first',
    });
    expect((await client.get('/api/accounts')).body.map((a: { id: string }) => a.id)).toEqual([account.id]);

    await app.server.database.withUser(userId, (tx) => tx.delete(trades).where(eq(trades.id, trade!.id)));
    expect((await client.delete(`/api/accounts/${account.id}`)).status).toBe(204);
    expect((await client.get('/api/accounts')).body).toEqual([]);
    expect((await client.delete(`/api/accounts/${account.id}`)).status).toBe(404);
  });

  it('needs a signed-in trader for every account endpoint', async () => {
    const { client } = await newTrader();
    const account = (await client.post('/api/accounts', { name: 'Mine' })).body;
    const visitor = app.client();
    for (const [method, url] of [
      ['GET', '/api/accounts'],
      ['POST', '/api/accounts'],
      ['PATCH', `/api/accounts/${account.id}`],
      ['POST', `/api/accounts/${account.id}/default`],
      ['DELETE', `/api/accounts/${account.id}`],
    ] as const) {
      const res = await visitor.json(method, url, method === 'GET' || method === 'DELETE' ? undefined : { name: 'x' });
      expect(res, `${method} ${url}`).toEqual({ status: 401, body: { error: 'Not authenticated' } });
    }
    expect((await client.get('/api/accounts')).body.map((a: { name: string }) => a.name)).toEqual(['Mine']);
  });
});
