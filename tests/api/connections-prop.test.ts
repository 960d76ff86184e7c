import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPropTemplate } from '../../src/domain/prop/templates';
import { backends, type ApiClient } from '../support/app';
import { createAccount } from './trades-support';
import { account, KEY, MNQ, OTHER_KEY, plus, roundTrip, startConnectedApp, syncNow, weekdayAgo, type ConnectedApp } from './connections-support';

/**
 * A TopstepX account mapped to a trading account may make that account a prop account
 * with its firm's rule set, the template offered from the size the account's name or balance says. The
 * prop account and its rules are made in the mapping's transaction, or nothing is; the trader may decline.
 */
describe.each(backends())('mapping a broker account as a prop account, on %s', (backend) => {
  let ctx: ConnectedApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let connection: { id: string; accounts: Array<{ id: string; name: string; suggested_template_id: string | null; account_id: string | null }> };
  let bobsConnection: typeof connection;
  const day = weekdayAgo(2);

  beforeAll(async () => {
    ctx = await startConnectedApp(backend);
    ctx.px.accounts = [
      account(4001, '50KTC-V2-4001', 'alice.px', { balance: 51_250.5 }),
      account(4002, 'PRAC-V2-4002', 'alice.px', { balance: 150_000 }),
      account(4003, 'TEST_ACCOUNT_4003', 'alice.px', { balance: 98_400 }),
      account(4004, 'TEST_ACCOUNT_4004', 'alice.px', { balance: 70_000 }),
      account(4005, '150KTC-V2-4005', 'alice.px', { balance: 150_000 }),
      account(5001, 'EXPRESS-V2-5001', 'bob.px'),
    ];
    ctx.px.trades = roundTrip(4001, MNQ, { side: 'Long', entries: [[1, 20_000, plus(day, 0)]], exits: [[1, 20_010, plus(day, 5)]] });
    [alice, bob] = await Promise.all([ctx.trader('alice'), ctx.trader('bob')]);
    connection = (await alice.post('/api/connections', { user_name: 'alice.px', api_key: KEY })).body;
    bobsConnection = (await bob.post('/api/connections', { user_name: 'bob.px', api_key: OTHER_KEY })).body;
  });
  afterAll(() => ctx?.close());

  const broker = (c: typeof connection, name: string) => c.accounts.find((a) => a.name === name)!;
  const mapping = (client: ApiClient, c: typeof connection, name: string, body: Record<string, unknown>) =>
    client.patch(`/api/connections/${c.id}/broker-accounts/${broker(c, name).id}`, body);
  const tradingAccount = async (client: ApiClient, id: string) =>
    (
      (await client.get('/api/accounts')).body as Array<{
        id: string;
        kind: string;
        firm: string | null;
        size: string | null;
        starting_balance: string;
      }>
    ).find((a) => a.id === id)!;
  const ruleSetOf = async (client: ApiClient, id: string) => {
    const res = await client.get(`/api/prop/accounts/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.rule_set as { template_id: string | null; rules: unknown; starts_on: string | null; active: boolean } | null;
  };

  it("offers the template the account's name or balance says, none for a practice account or a size without a plan", () => {
    expect(connection.accounts.map((a) => [a.name, a.suggested_template_id])).toEqual([
      ['150KTC-V2-4005', 'topstep-combine-150k'],
      ['50KTC-V2-4001', 'topstep-combine-50k'],
      ['PRAC-V2-4002', null],
      ['TEST_ACCOUNT_4003', 'topstep-combine-100k'],
      ['TEST_ACCOUNT_4004', null],
    ]);
    expect(bobsConnection.accounts.map((a) => a.suggested_template_id)).toEqual(['topstep-express-funded-50k']);
  });

  it('takes the offer: the mapping, the prop account and its rules in one request; its status counts the synced trades', async () => {
    const target = await createAccount(alice, 'Combine 50K');
    const res = await mapping(alice, connection, '50KTC-V2-4001', {
      account_id: target.id,
      sync_from: day.toISOString().slice(0, 10),
      prop: { template_id: 'topstep-combine-50k' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(broker(res.body, '50KTC-V2-4001').account_id).toBe(target.id);
    expect(await tradingAccount(alice, target.id)).toMatchObject({
      kind: 'evaluation',
      firm: 'Topstep',
      size: '50000.00',
      starting_balance: '50000.00',
    });
    const template = findPropTemplate('topstep-combine-50k')!;
    expect(await ruleSetOf(alice, target.id)).toMatchObject({ template_id: template.id, starts_on: null, active: true, rules: template.rules });

    const synced = await syncNow(ctx, alice, connection.id);
    expect(synced.last_outcome).toMatchObject({ status: 'ok', added: 1 });
    const status = (await alice.get('/api/prop/status')).body.accounts as Array<{
      account: { id: string };
      trades: number;
      state: string;
      profit_cents: number;
    }>;
    // 10 points of MNQ ($20) less $0.74 of fees.
    expect(status.find((s) => s.account.id === target.id)).toMatchObject({ trades: 1, state: 'ok', profit_cents: 1926 });
  });

  it('declined: the mapping alone, the trading account stays as it was', async () => {
    const target = await createAccount(alice, 'Practice');
    const res = await mapping(alice, connection, 'PRAC-V2-4002', { account_id: target.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(broker(res.body, 'PRAC-V2-4002').account_id).toBe(target.id);
    expect(await tradingAccount(alice, target.id)).toMatchObject({ kind: 'personal', firm: null, size: null, starting_balance: '10000.00' });
    expect(await ruleSetOf(alice, target.id)).toBeNull();
    // Taken later, on the account already mapped: prop alone is enough.
    const later = await mapping(alice, connection, 'PRAC-V2-4002', { prop: { template_id: 'topstep-combine-150k' } });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(await tradingAccount(alice, target.id)).toMatchObject({ kind: 'evaluation', size: '150000.00', starting_balance: '150000.00' });
    expect((await ruleSetOf(alice, target.id))?.template_id).toBe('topstep-combine-150k');
  });

  it('refuses a bad template or a prop account without a trading account, naming the field, and changes nothing', async () => {
    const target = await createAccount(alice, 'Untouched');
    const bad = await mapping(alice, connection, 'TEST_ACCOUNT_4003', { account_id: target.id, prop: { template_id: 'topstep-combine-75k' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('prop.template_id: no such template');
    expect(bad.body.fields).toEqual([{ field: 'prop.template_id', message: 'no such template' }]);
    expect((await mapping(alice, connection, 'TEST_ACCOUNT_4003', { account_id: target.id, prop: {} })).body.error).toBe(
      'prop.template_id: is required',
    );
    expect(
      (await mapping(alice, connection, 'TEST_ACCOUNT_4003', { account_id: target.id, prop: { template_id: 'topstep-combine-50k', size: 1 } })).body
        .error,
    ).toBe('prop.size: is not a field of this request');
    const unmapped = await mapping(alice, connection, 'TEST_ACCOUNT_4003', { account_id: null, prop: { template_id: 'topstep-combine-100k' } });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.fields).toEqual([{ field: 'prop', message: 'needs a trading account' }]);

    const after = (await alice.get(`/api/connections/${connection.id}`)).body;
    expect(broker(after, 'TEST_ACCOUNT_4003').account_id).toBeNull();
    expect(await tradingAccount(alice, target.id)).toMatchObject({ kind: 'personal', firm: null });
    expect(await ruleSetOf(alice, target.id)).toBeNull();
  });

  it("another trader's ids: not found, and their account is not made a prop account", async () => {
    const bobs = await createAccount(bob, 'Bob funded');
    const aliceTarget = await createAccount(alice, 'Alice spare');
    // Alice names bob's trading account.
    const theirAccount = await mapping(alice, connection, 'TEST_ACCOUNT_4003', {
      account_id: bobs.id,
      prop: { template_id: 'topstep-combine-100k' },
    });
    expect(theirAccount.status).toBe(400);
    expect(theirAccount.body.error).toBe('account_id: Trading account not found');
    // Alice names bob's connection and broker account, with her own trading account.
    const theirConnection = await alice.patch(`/api/connections/${bobsConnection.id}/broker-accounts/${bobsConnection.accounts[0]!.id}`, {
      account_id: aliceTarget.id,
      prop: { template_id: 'topstep-express-funded-50k' },
    });
    expect(theirConnection.status).toBe(404);
    const mixed = await alice.patch(`/api/connections/${connection.id}/broker-accounts/${bobsConnection.accounts[0]!.id}`, {
      account_id: aliceTarget.id,
      prop: { template_id: 'topstep-express-funded-50k' },
    });
    expect(mixed.status).toBe(404);
    expect(await tradingAccount(bob, bobs.id)).toMatchObject({ kind: 'personal', firm: null });
    expect(await ruleSetOf(bob, bobs.id)).toBeNull();
    expect(await tradingAccount(alice, aliceTarget.id)).toMatchObject({ kind: 'personal', firm: null });
    expect(await ruleSetOf(alice, aliceTarget.id)).toBeNull();
    expect((await bob.get(`/api/connections/${bobsConnection.id}`)).body.accounts[0].account_id).toBeNull();
  });

  it('all or nothing: a trading account taken, or the rules failing to save, leaves the mapping and the account as they were', async () => {
    const taken = await createAccount(alice, 'Already synced');
    expect((await mapping(alice, connection, '150KTC-V2-4005', { account_id: taken.id })).status).toBe(200);
    const conflict = await mapping(alice, connection, 'TEST_ACCOUNT_4004', { account_id: taken.id, prop: { template_id: 'topstep-combine-50k' } });
    expect(conflict.status).toBe(409);
    expect(await tradingAccount(alice, taken.id)).toMatchObject({ kind: 'personal' });
    expect(await ruleSetOf(alice, taken.id)).toBeNull();

    // A failure at the last statement (the rule set's insert), after the mapping and the account were written.
    const target = await createAccount(alice, 'Fails');
    const db = ctx.app.server.database.db;
    await db.execute(
      sql.raw(`
      create or replace function prop_test_fail() returns trigger language plpgsql as $$
      begin
        if new.account_id = '${target.id}' then raise exception 'forced failure of the rule set'; end if;
        return new;
      end $$
    `),
    );
    await db.execute(sql.raw('create trigger prop_test_fail before insert on prop_rule_sets for each row execute function prop_test_fail()'));
    try {
      const failed = await mapping(alice, connection, 'TEST_ACCOUNT_4004', { account_id: target.id, prop: { template_id: 'topstep-combine-50k' } });
      expect(failed.status).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger prop_test_fail on prop_rule_sets'));
      await db.execute(sql.raw('drop function prop_test_fail()'));
    }
    expect(broker((await alice.get(`/api/connections/${connection.id}`)).body, 'TEST_ACCOUNT_4004').account_id).toBeNull();
    expect(await tradingAccount(alice, target.id)).toMatchObject({ kind: 'personal', firm: null, size: null, starting_balance: '10000.00' });
    expect(await ruleSetOf(alice, target.id)).toBeNull();
    // The same request without the fault does it all.
    expect(
      (await mapping(alice, connection, 'TEST_ACCOUNT_4004', { account_id: target.id, prop: { template_id: 'topstep-combine-50k' } })).status,
    ).toBe(200);
    expect(await tradingAccount(alice, target.id)).toMatchObject({ kind: 'evaluation', firm: 'Topstep', size: '50000.00' });
  });
});
