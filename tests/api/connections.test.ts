import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerConnections, brokerFills } from '../../src/server/db/schema';
import { secretBinding } from '../../src/server/features/connections/secret-box';
import { backends, type ApiClient } from '../support/app';
import { importFile } from './imports-support';
import { createAccount, listAll, type TradeDto } from './trades-support';
import {
  account,
  dayOf,
  KEY,
  MES,
  MNQ,
  NQ,
  OTHER_KEY,
  plus,
  roundTrip,
  startConnectedApp,
  syncNow,
  topstepxExport,
  weekdayAgo,
  type ConnectedApp,
} from './connections-support';

/**
 * TopstepX connected by user name and API key, against a stand-in of the ProjectX Gateway API written from
 * its documentation (tests/support/projectx-server.ts), on both databases.
 */
describe.each(backends())('broker connections on %s', (backend) => {
  let ctx: ConnectedApp;
  let alice: ApiClient;
  let bob: ApiClient;
  const day = weekdayAgo(3);

  beforeAll(async () => {
    ctx = await startConnectedApp(backend);
    ctx.px.accounts = [
      account(1001, '50KTC-V2-1001', 'alice.px'),
      account(1002, 'PRAC-V2-1002', 'alice.px', { active: false, canTrade: false, balance: 48_250.5 }),
      account(1003, '50KTC-V2-1003', 'alice.px'),
      account(2001, 'EXPRESS-V2-2001', 'bob.px'),
    ];
    [alice, bob] = await Promise.all([ctx.trader('alice'), ctx.trader('bob')]);
  });
  afterAll(async () => {
    // Whatever happened above, the key never reached an answer or a log line.
    expect(ctx.answers.join('\n')).not.toContain(KEY);
    expect(ctx.answers.join('\n')).not.toContain(OTHER_KEY);
    expect(JSON.stringify(ctx.app.logs)).not.toContain(KEY);
    expect(JSON.stringify(ctx.app.logs)).not.toContain(OTHER_KEY);
    await ctx?.close();
  });

  const connect = async (client: ApiClient, userName: string, apiKey: string) => {
    const res = await client.post('/api/connections', { user_name: userName, api_key: apiKey });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const map = async (client: ApiClient, connectionId: string, brokerAccountId: string, body: Record<string, unknown>) => {
    const res = await client.patch(`/api/connections/${connectionId}/broker-accounts/${brokerAccountId}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const byName = (connection: { accounts: Array<{ name: string; id: string; account_id: string | null }> }, name: string) =>
    connection.accounts.find((a) => a.name === name)!;

  it('tests the key, connects, keeps the key only as ciphertext bound to its row, and never answers it', async () => {
    const wrong = await alice.post('/api/connections/test', { user_name: 'alice.px', api_key: 'not-the-key' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'broker-credentials', fields: [{ field: 'user_name' }, { field: 'api_key' }] });
    expect(wrong.body.error).toBe('TopstepX refused this user name and API key. Check both in TopstepX (Settings, API), then connect again.');
    expect((await alice.post('/api/connections/test', { user_name: 'alice.px' })).body.error).toBe('api_key: is required');

    const test = await alice.post('/api/connections/test', { user_name: 'alice.px', api_key: KEY });
    expect(test.status).toBe(200);
    expect(test.body.accounts.map((a: { name: string; active: boolean }) => [a.name, a.active])).toEqual([
      ['50KTC-V2-1001', true],
      ['PRAC-V2-1002', false],
      ['50KTC-V2-1003', true],
    ]);
    // A test saves nothing.
    expect((await alice.get('/api/connections')).body.connections).toEqual([]);

    const connection = await connect(alice, 'alice.px', KEY);
    expect(connection).toMatchObject({
      provider: 'topstepx',
      provider_label: 'TopstepX',
      user_name: 'alice.px',
      status: 'connected',
      last_outcome: null,
    });
    expect(connection.accounts.map((a: { name: string; balance: string; account_id: null }) => [a.name, a.balance, a.account_id])).toEqual([
      ['50KTC-V2-1001', '50000.00', null],
      ['50KTC-V2-1003', '50000.00', null],
      ['PRAC-V2-1002', '48250.50', null],
    ]);
    // The same login twice is refused.
    expect((await alice.post('/api/connections', { user_name: 'alice.px', api_key: KEY })).status).toBe(409);

    const [row] = await ctx.app.server.database.db.select().from(brokerConnections).where(eq(brokerConnections.id, connection.id));
    expect(row!.secret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(row!.secret).not.toContain(KEY);
    const box = ctx.app.server.connections.box;
    expect(box.open(row!.secret, secretBinding(row!.id, row!.userId))).toBe(KEY);
    // Bound to its row: the same ciphertext under another trader's or connection's name does not open.
    expect(() => box.open(row!.secret, secretBinding(row!.id, 'someone-else'))).toThrow('can no longer be read');

    // The trader's export of everything they own leaves the key out, even encrypted.
    const exported = await alice.get('/api/account/export');
    expect(exported.status).toBe(200);
    expect(exported.body.tables.broker_connections).toHaveLength(1);
    expect(JSON.stringify(exported.body)).not.toContain(row!.secret);
    expect(exported.body.tables.broker_connections[0]).not.toHaveProperty('secret');
  });

  it("syncs a chosen period: FIFO round trips with the API's fees on the exchange's trading day; a re-sync adds nothing", async () => {
    const journal = await createAccount(alice, 'Combine 1001');
    const [connection] = (await alice.get('/api/connections')).body.connections;
    ctx.px.trades.push(
      // A scale-in: 2 MNQ, one exit.
      ...roundTrip(1001, MNQ, {
        side: 'Long',
        entries: [
          [1, 20000, plus(day, 0, 0, 250)],
          [1, 20001, plus(day, 0, 30)],
        ],
        exits: [[2, 20003.5, plus(day, 5)]],
      }),
      ...roundTrip(1001, MES, { side: 'Short', entries: [[1, 5600, plus(day, 10)]], exits: [[1, 5602, plus(day, 20)]] }),
      // The gateway's own symbol for the E-mini Nasdaq (ENQ), journaled as NQ at $20 a point.
      ...roundTrip(1001, NQ, { side: 'Long', entries: [[1, 21000, plus(day, 30)]], exits: [[1, 21005.25, plus(day, 40)]] }),
      // Still open at the sync: not a trade yet.
      ...roundTrip(1001, MNQ, { side: 'Long', entries: [[1, 20010, plus(day, 50)]], exits: [] }),
    );
    const mapped = await map(alice, connection.id, byName(connection, '50KTC-V2-1001').id, { account_id: journal.id, sync_from: dayOf(day) });
    expect(byName(mapped, '50KTC-V2-1001')).toMatchObject({ account_id: journal.id, sync_from: dayOf(day), fetched_until: null });

    const started = await alice.post(`/api/connections/${connection.id}/sync`);
    expect(started.status).toBe(202);
    expect(started.body.sync.running).toBe(true);
    const done = await syncNowResult(connection.id);
    expect(done.last_outcome).toMatchObject({ status: 'ok', trigger: 'manual', added: 3, duplicates: 0, fills: 8, open_positions: 1, message: null });
    expect(done.sync).toEqual({ running: false, started_at: null, progress: null });
    expect(byName(done, '50KTC-V2-1001')).toMatchObject({ last_sync_status: 'ok', last_sync_added: 3, last_error: null });

    const trades = await listAll(alice, `account=${journal.id}`);
    const view = (t: TradeDto) => [
      t.symbol,
      t.contract,
      t.side,
      t.quantity,
      t.entry_price,
      t.exit_price,
      t.gross_pnl,
      t.commission,
      t.pnl,
      t.date,
      t.import_source,
    ];
    expect(trades.map(view).sort()).toEqual(
      [
        ['MES', 'MESM5', 'Short', '1.00000000', '5600.00000000', '5602.00000000', '-10.00', '0.74', '-10.74', dayOf(day), 'topstepx-api'],
        ['MNQ', 'MNQM5', 'Long', '2.00000000', '20000.50000000', '20003.50000000', '12.00', '1.48', '10.52', dayOf(day), 'topstepx-api'],
        ['NQ', 'NQM5', 'Long', '1.00000000', '21000.00000000', '21005.25000000', '105.00', '2.80', '102.20', dayOf(day), 'topstepx-api'],
      ].sort(),
    );
    expect(trades.find((t) => t.symbol === 'MNQ')!.entry_time).toBe(plus(day, 0, 0, 250));

    // Again: nothing new, nothing twice.
    const again = await syncNow(ctx, alice, connection.id);
    expect(again.last_outcome).toMatchObject({ status: 'ok', added: 0 });
    expect(await listAll(alice, `account=${journal.id}`)).toHaveLength(3);

    // Minutes ago (after that sync read), the open position closed and a new trade followed: the next sync reads
    // from where the last one stopped and adds exactly those two.
    const recent = new Date(Date.now() - 5 * 60_000);
    const close = roundTrip(1001, MNQ, { side: 'Long', entries: [], exits: [[1, 20012, plus(recent, 0)]] });
    ctx.px.trades.push(
      ...close,
      ...roundTrip(1001, MES, {
        side: 'Long',
        entries: [[2, 5590, plus(recent, 1)]],
        exits: [
          [1, 5591, plus(recent, 2)],
          [1, 5592.5, plus(recent, 3)],
        ],
      }),
    );
    const later = await syncNow(ctx, alice, connection.id);
    expect(later.last_outcome).toMatchObject({ status: 'ok', added: 2, open_positions: 0 });
    const all = await listAll(alice, `account=${journal.id}`);
    expect(all).toHaveLength(5);
    expect(
      all
        .filter((t) => t.symbol === 'MNQ')
        .map((t) => [t.entry_price, t.exit_price, t.pnl])
        .sort(),
    ).toEqual([
      ['20000.50000000', '20003.50000000', '10.52'],
      ['20010.00000000', '20012.00000000', '3.26'],
    ]);
    // Every fill is kept, once.
    const fills = await ctx.app.server.database.db
      .select()
      .from(brokerFills)
      .where(eq(brokerFills.brokerAccountId, byName(connection, '50KTC-V2-1001').id));
    expect(fills).toHaveLength(12);
  });

  it("a trade synced and the same trade from TopstepX's CSV export are one trade, whichever comes first", async () => {
    const [connection] = (await alice.get('/api/connections')).body.connections;
    const second = weekdayAgo(2);
    const trips = [
      {
        contract: 'MNQM5',
        side: 'Long' as const,
        size: 1,
        entry: [20100, plus(second, 0, 12, 400)] as [number, string],
        exit: [20104, plus(second, 3, 9, 800)] as [number, string],
        fees: 0.74,
      },
      {
        contract: 'MESM5',
        side: 'Short' as const,
        size: 1,
        entry: [5650.25, plus(second, 10, 1)] as [number, string],
        exit: [5648, plus(second, 12, 59, 999)] as [number, string],
        fees: 0.74,
      },
    ];
    const fillsOf = (accountId: number) =>
      trips.flatMap((t) =>
        roundTrip(accountId, t.contract === 'MNQM5' ? MNQ : MES, {
          side: t.side,
          entries: [[t.size, t.entry[0], t.entry[1]]],
          exits: [[t.size, t.exit[0], t.exit[1]]],
        }),
      );
    const csv = topstepxExport(trips);

    // The export first, then the sync: the sync finds both trades stored and adds none.
    const exportFirst = await createAccount(alice, 'Combine 1003');
    const imported = await importFile(alice, { account_id: exportFirst.id, format: 'topstepx-trades' }, csv);
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body.imported).toBe(2);
    ctx.px.trades.push(...fillsOf(1003));
    await map(alice, connection.id, byName(connection, '50KTC-V2-1003').id, { account_id: exportFirst.id, sync_from: dayOf(second) });
    const synced = await syncNow(ctx, alice, connection.id);
    expect(synced.last_outcome).toMatchObject({ status: 'ok', added: 0, duplicates: 2 });
    expect(await listAll(alice, `account=${exportFirst.id}`)).toHaveLength(2);

    // The sync first (bob's funded account), then the export: the import counts both as duplicates.
    const bobJournal = await createAccount(bob, 'Express');
    const bobs = await connect(bob, 'bob.px', OTHER_KEY);
    ctx.px.trades.push(...fillsOf(2001));
    await map(bob, bobs.id, bobs.accounts[0].id, { account_id: bobJournal.id, sync_from: dayOf(second) });
    const first = await syncNow(ctx, bob, bobs.id);
    expect(first.last_outcome).toMatchObject({ status: 'ok', added: 2, duplicates: 0 });
    const after = await importFile(bob, { account_id: bobJournal.id, format: 'topstepx-trades' }, csv);
    expect(after.body).toMatchObject({ imported: 0, duplicates: 2 });
    expect(await listAll(bob, `account=${bobJournal.id}`)).toHaveLength(2);
  });

  it("another trader's connection ids get 404 and change nothing; a trading account of another trader cannot be mapped", async () => {
    const [aliceConnection] = (await alice.get('/api/connections')).body.connections;
    const brokerAccount = byName(aliceConnection, '50KTC-V2-1001');
    const before = (await alice.get(`/api/connections/${aliceConnection.id}`)).body;
    for (const [method, path, body] of [
      ['GET', `/api/connections/${aliceConnection.id}`, undefined],
      ['PATCH', `/api/connections/${aliceConnection.id}`, { api_key: OTHER_KEY }],
      ['DELETE', `/api/connections/${aliceConnection.id}`, undefined],
      ['POST', `/api/connections/${aliceConnection.id}/sync`, {}],
      ['PATCH', `/api/connections/${aliceConnection.id}/broker-accounts/${brokerAccount.id}`, { account_id: null }],
    ] as const) {
      const res = await bob.json(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ error: 'Connection not found' });
    }
    const [bobConnection] = (await bob.get('/api/connections')).body.connections;
    expect((await bob.get('/api/connections')).body.connections.map((c: { id: string }) => c.id)).toEqual([bobConnection.id]);
    // Alice's broker account under bob's connection id is no account of his either.
    expect((await bob.patch(`/api/connections/${bobConnection.id}/broker-accounts/${brokerAccount.id}`, { account_id: null })).status).toBe(404);
    // Bob cannot send his TopstepX account into Alice's trading account.
    const alicesJournal = brokerAccount.account_id ?? before.accounts.find((a: { account_id: string | null }) => a.account_id)!.account_id;
    const refused = await bob.patch(`/api/connections/${bobConnection.id}/broker-accounts/${bobConnection.accounts[0].id}`, {
      account_id: alicesJournal,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('account_id: Trading account not found');
    const unchanged = (await alice.get(`/api/connections/${aliceConnection.id}`)).body;
    expect(unchanged.accounts).toEqual(before.accounts);
    expect(unchanged.user_name).toBe('alice.px');
  });

  it('one TopstepX account per trading account; removing the connection deletes the key and keeps the trades', async () => {
    const [connection] = (await alice.get('/api/connections')).body.connections;
    const taken = byName(connection, '50KTC-V2-1001').account_id;
    const clash = await alice.patch(`/api/connections/${connection.id}/broker-accounts/${byName(connection, 'PRAC-V2-1002').id}`, {
      account_id: taken,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('That trading account already receives 50KTC-V2-1001: give PRAC-V2-1002 a trading account of its own.');
    expect(
      (await alice.patch(`/api/connections/${connection.id}/broker-accounts/${byName(connection, 'PRAC-V2-1002').id}`, { sync_from: '2026-02-30' }))
        .body.error,
    ).toBe('sync_from: must be a date as yyyy-MM-dd');

    const tradesBefore = await listAll(alice, `account=${taken}`);
    expect((await alice.delete(`/api/connections/${connection.id}`)).status).toBe(204);
    expect((await alice.get('/api/connections')).body.connections).toEqual([]);
    expect(await ctx.app.server.database.db.select().from(brokerConnections).where(eq(brokerConnections.id, connection.id))).toEqual([]);
    expect(await listAll(alice, `account=${taken}`)).toEqual(tradesBefore);
    expect((await alice.get(`/api/connections/${connection.id}`)).status).toBe(404);
  });

  async function syncNowResult(connectionId: string) {
    await ctx.app.server.connections.syncs.current(connectionId);
    return (await alice.get(`/api/connections/${connectionId}`)).body;
  }
});
