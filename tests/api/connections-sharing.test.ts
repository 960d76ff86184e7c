import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestsServed } from '../../src/server/db/client';
import type { ApiClient } from '../support/app';
import type { StandInTrade } from '../support/projectx-server';
import { createAccount, createTrade } from './trades-support';
import { account, KEY, MES, MNQ, plus, roundTrip, startConnectedApp, weekdayAgo, type ConnectedApp } from './connections-support';

/**
 * A sync's transaction on PGlite (the one connection) stores every fill and trade it read, all or nothing. Like an
 * import's, it lends the connection to other traders' reads between its statements (yieldConnection): they answer
 * while it writes, inside it, read-only, seeing only their own rows; their writes wait for its COMMIT. Before, the
 * sync only gave the event loop a turn, and another trader's read waited for the whole transaction.
 */
const TRIPS = 6_000;

describe('on PGlite, a long sync', () => {
  let ctx: ConnectedApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    ctx = await startConnectedApp('pglite');
    ctx.px.accounts = [account(3001, '50KTC-V2-3001', 'alice.px')];
    // 6,000 round trips (12,000 fills) over the last days, a minute apart, alternating contracts.
    const first = weekdayAgo(8);
    const trades: StandInTrade[] = [];
    for (let i = 0; i < TRIPS; i++) {
      const contract = i % 2 === 0 ? MNQ : MES;
      const base = contract === MNQ ? 20_000 : 5_600;
      trades.push(
        ...roundTrip(3001, contract, { side: 'Long', entries: [[1, base, plus(first, i, 0)]], exits: [[1, base + (i % 7) - 3, plus(first, i, 30)]] }),
      );
    }
    ctx.px.trades = trades;
    [alice, bob] = await Promise.all([ctx.trader('alice'), ctx.trader('bob')]);
  }, 120_000);
  afterAll(() => ctx?.close());

  it("lends the connection to another trader's reads while it stores, and defers their write past its COMMIT", { timeout: 300_000 }, async () => {
    const database = ctx.app.server.database;
    const target = await createAccount(alice, 'Combine');
    const connection = (await alice.post('/api/connections', { user_name: 'alice.px', api_key: KEY })).body;
    const from = new Date(Date.parse(ctx.px.trades[0]!.creationTimestamp) - 86_400_000).toISOString().slice(0, 10);
    const mapped = await alice.patch(`/api/connections/${connection.id}/broker-accounts/${connection.accounts[0].id}`, {
      account_id: target.id,
      sync_from: from,
    });
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    const theirs = await createAccount(bob, 'Theirs');
    await createTrade(bob, { symbol: 'ES', pnl: 10, account_id: theirs.id });

    const started = await alice.post(`/api/connections/${connection.id}/sync`);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const job = ctx.app.server.connections.syncs.current(connection.id)!;
    let done = false;
    void job.finally(() => (done = true));

    // Bob reads all along the sync (alice's own requests would wait for its COMMIT: she cannot watch it).
    const guests = guestsServed(database)!;
    let readsDuringSync = 0;
    let write: Promise<{ status: number }> | null = null;
    while (!done) {
      const res = await bob.get('/api/trades?limit=50');
      expect(res.status).toBe(200);
      // Only bob's own trade (then two), never one of the sync's.
      expect(res.body.total).toBeLessThanOrEqual(2);
      if (!done) readsDuringSync++;
      // Once a read has run inside the sync's transaction, a write of bob's cannot: it waits for the COMMIT.
      if (!write && guestsServed(database)! > guests) write = bob.post('/api/trades', { date: '2026-02-02', period: 'AM', symbol: 'CL', pnl: 42 });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await job;
    const lent = guestsServed(database)! - guests;
    console.info(`sync of ${TRIPS} round trips: bob's reads answered during it: ${readsDuringSync}; requests run inside its transaction: ${lent}`);
    expect(lent, 'no request ran inside the sync').toBeGreaterThan(0);
    expect(readsDuringSync).toBeGreaterThan(0);
    expect(write, 'the sync ended before a read ran inside it').not.toBeNull();
    expect((await write!).status).toBe(201);

    const after = (await alice.get(`/api/connections/${connection.id}`)).body;
    expect(after.last_outcome).toMatchObject({ status: 'ok', added: TRIPS, fills: TRIPS * 2 });
    expect((await alice.get('/api/trades?limit=1')).body.total).toBe(TRIPS);
    expect((await bob.get('/api/trades?limit=10')).body.trades.map((t: { symbol: string }) => t.symbol).sort()).toEqual(['CL', 'ES']);
  });
});
