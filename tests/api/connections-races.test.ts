import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerConnections } from '../../src/server/db/schema';
import { backends, startTestApp, type ApiClient } from '../support/app';
import { account, dayOf, KEY, MNQ, plus, roundTrip, startConnectedApp, weekdayAgo, type ConnectedApp } from './connections-support';
import { createAccount, listAll } from './trades-support';

/**
 * A broker sync beside what else a trader does at the same moment: deleting the trading account it saves into, and
 * what the connection says about a sync whose process is gone.
 */
describe.each(backends())('a broker sync and the rest, on %s', (backend) => {
  let ctx: ConnectedApp;
  const day = weekdayAgo(3);

  beforeAll(async () => {
    ctx = await startConnectedApp(backend);
  });
  afterAll(() => ctx?.close());

  /** A trader connected with alice.px, its account mapped to a new trading account, the gateway holding a round trip. */
  async function mapped(externalId: number) {
    ctx.px.accounts = [account(externalId, `RACE-${externalId}`, 'alice.px')];
    ctx.px.trades.push(...roundTrip(externalId, MNQ, { side: 'Long', entries: [[1, 20000, plus(day, 0)]], exits: [[1, 20003, plus(day, 1)]] }));
    const client = await ctx.trader('race');
    const connection = (await client.post('/api/connections', { user_name: 'alice.px', api_key: KEY })).body;
    const journal = await createAccount(client, 'Synced');
    const broker = connection.accounts.find((a: { external_id: string }) => a.external_id === String(externalId));
    expect(
      (await client.patch(`/api/connections/${connection.id}/broker-accounts/${broker.id}`, { account_id: journal.id, sync_from: dayOf(day) }))
        .status,
    ).toBe(200);
    return { client, connectionId: connection.id as string, journalId: journal.id };
  }

  const progressOf = async (connectionId: string) =>
    (
      await ctx.app.server.database.db
        .select({ progress: brokerConnections.syncProgress })
        .from(brokerConnections)
        .where(eq(brokerConnections.id, connectionId))
    )[0]?.progress as { phase: string } | null;

  it('deleting the trading account while a sync saves into it: never a 500; the account with its trades, or neither', async () => {
    const db = ctx.app.server.database.db;
    // The sync's transaction slowed while it stores the fills (after it has locked its broker account): the delete
    // comes in the middle of it.
    await db.execute(
      sql.raw(`create or replace function race_slow_fills() returns trigger language plpgsql as $$ begin perform pg_sleep(0.6); return null; end $$`),
    );
    await db.execute(sql.raw(`create trigger race_slow_fills after insert on broker_fills for each statement execute function race_slow_fills()`));
    try {
      for (let round = 0; round < 3; round++) {
        const { client, connectionId, journalId } = await mapped(6100 + round);
        expect((await client.post(`/api/connections/${connectionId}/sync`)).status).toBe(202);
        let finished = false;
        void ctx.app.server.connections.syncs.current(connectionId)?.then(() => (finished = true));
        while (!finished && (await progressOf(connectionId))?.phase !== 'saving') await new Promise((resolve) => setTimeout(resolve, 20));
        // On PostgreSQL the delete below comes while the sync's transaction is open. The embedded database has one
        // connection: the server's own read of the progress waits while the sync's transaction holds it, so it may only
        // see the sync once it has ended; the delete then comes after it, and the same answers must hold.
        if (backend !== 'pglite') expect(finished, `round ${round}: the sync ended before it saved`).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 150));
        const removed = await client.delete(`/api/accounts/${journalId}`);
        await ctx.app.server.connections.syncs.current(connectionId);
        const after = (await client.get(`/api/connections/${connectionId}`)).body;
        expect([204, 409], `round ${round}: ${JSON.stringify(removed.body)}`).toContain(removed.status);
        if (removed.status === 409) {
          // The sync was first: its trade is in the account, which stays.
          expect(after.last_outcome).toMatchObject({ status: 'ok', added: 1 });
          expect(await listAll(client, `account=${journalId}`)).toHaveLength(1);
        } else {
          // The delete was first: the broker account is no longer mapped, and nothing was stored for it.
          expect(after.accounts[0].account_id).toBeNull();
          expect(await listAll(client)).toHaveLength(0);
        }
      }
    } finally {
      await db.execute(sql.raw('drop trigger race_slow_fills on broker_fills'));
      await db.execute(sql.raw('drop function race_slow_fills()'));
    }
    const errors = ctx.app.logs.filter((l) => (l.level as number) >= 50);
    expect(errors.map((e) => JSON.stringify(e).slice(0, 300))).toEqual([]);
  });

  it('a sync whose process is gone is not under way, however fresh its last heartbeat', async () => {
    const { client, connectionId } = await mapped(6200);
    // What a process killed in the middle of a sync leaves: the row marked, its heartbeat a moment old, no sync.
    const now = new Date().toISOString();
    await ctx.app.server.database.db
      .update(brokerConnections)
      .set({
        syncStartedAt: now,
        syncHeartbeatAt: now,
        syncProgress: { phase: 'fills', accounts_done: 0, accounts_total: 1, account_name: null, windows_done: 0, windows_total: 1, fills: 0 },
      })
      .where(eq(brokerConnections.id, connectionId));
    const seen = (await client.get(`/api/connections/${connectionId}`)).body;
    expect(seen.sync).toEqual({ running: false, started_at: null, progress: null });
    // And a sync can start at once.
    expect((await client.post(`/api/connections/${connectionId}/sync`)).status).toBe(202);
    await ctx.app.server.connections.syncs.current(connectionId);
    expect((await client.get(`/api/connections/${connectionId}`)).body.last_outcome).toMatchObject({ status: 'ok', added: 1 });
  });
});

describe.runIf(backends().includes('postgres'))('a sync under way in another server process, on PostgreSQL', () => {
  it('is under way for every process while its process holds it', async () => {
    const ctx = await startConnectedApp('postgres');
    const other = await startTestApp({
      backend: 'postgres',
      env: { DATABASE_URL: ctx.app.server.config.DATABASE_URL!, PROJECTX_API_URL: ctx.px.url },
    });
    try {
      const day = weekdayAgo(2);
      ctx.px.accounts = [account(6300, 'ELSEWHERE', 'alice.px')];
      ctx.px.trades.push(...roundTrip(6300, MNQ, { side: 'Long', entries: [[1, 20000, plus(day, 0)]], exits: [[1, 20001, plus(day, 1)]] }));
      ctx.px.delay('Trade/search', 1500, 1);
      const client: ApiClient = await ctx.trader('elsewhere');
      const connection = (await client.post('/api/connections', { user_name: 'alice.px', api_key: KEY })).body;
      const journal = await createAccount(client, 'Elsewhere');
      await client.patch(`/api/connections/${connection.id}/broker-accounts/${connection.accounts[0].id}`, {
        account_id: journal.id,
        sync_from: dayOf(day),
      });
      expect((await client.post(`/api/connections/${connection.id}/sync`)).status).toBe(202);
      // The same trader's session, read by the other process.
      const res = await fetch(`${other.url}/api/connections/${connection.id}`, { headers: { cookie: client.cookieHeader } });
      expect((await res.json()).sync.running).toBe(true);
      await ctx.app.server.connections.syncs.current(connection.id);
      const done = await fetch(`${other.url}/api/connections/${connection.id}`, { headers: { cookie: client.cookieHeader } });
      expect((await done.json()).sync.running).toBe(false);
    } finally {
      await other.close();
      await ctx.close();
    }
  });
});
