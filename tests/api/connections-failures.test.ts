import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerConnections, brokerFills } from '../../src/server/db/schema';
import { freePort } from '../../src/server/free-port';
import { backends, startTestApp, type ApiClient } from '../support/app';
import { createAccount, listAll } from './trades-support';
import { syncStartOf } from '../../src/domain/connections/sync-window';
import { account, dayOf, MNQ, plus, roundTrip, startConnectedApp, syncNow, weekdayAgo, type ConnectedApp } from './connections-support';

/**
 * A wrong or revoked key, an expired session token, HTTP 429 and 5xx, a gateway down or slow, a
 * key the server can no longer read; the schedule; one sync of a connection at a time across processes. Each failure
 * is told in the trader's words and stores nothing.
 */
describe.each(backends())('broker connections when things go wrong, on %s', (backend) => {
  let ctx: ConnectedApp;
  const day = weekdayAgo(4);
  const logins = ['retry', 'half', 'token', 'revoked', 'tamper', 'slow', 'edge'] as const;

  beforeAll(async () => {
    ctx = await startConnectedApp(
      backend,
      { PROJECTX_TIMEOUT: '1' },
      { users: logins.map((name) => ({ userName: `${name}.px`, apiKey: `key-of-${name}-000111` })) },
    );
    ctx.px.accounts = logins.flatMap((name, i) => [
      account(3000 + i * 10, `${name.toUpperCase()}-A`, `${name}.px`),
      account(3001 + i * 10, `${name.toUpperCase()}-B`, `${name}.px`),
    ]);
    logins.forEach((_, i) => {
      ctx.px.trades.push(
        ...roundTrip(3000 + i * 10, MNQ, { side: 'Long', entries: [[1, 20000, plus(day, 0)]], exits: [[1, 20002, plus(day, 1)]] }),
        ...roundTrip(3001 + i * 10, MNQ, { side: 'Short', entries: [[1, 20010, plus(day, 2)]], exits: [[1, 20005, plus(day, 3)]] }),
      );
    });
  });
  afterAll(async () => {
    for (const name of logins) expect(JSON.stringify(ctx.app.logs)).not.toContain(`key-of-${name}-000111`);
    expect(ctx.answers.join('\n')).not.toContain('-000111');
    await ctx?.close();
  });

  /** A trader with the stand-in login `name`, both its accounts mapped to trading accounts of their own. */
  async function connected(name: (typeof logins)[number]) {
    const client = await ctx.trader(name);
    const res = await client.post('/api/connections', { user_name: `${name}.px`, api_key: `key-of-${name}-000111` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const journals = [];
    for (const broker of res.body.accounts) {
      const journal = await createAccount(client, `Journal ${broker.name}`);
      const mapped = await client.patch(`/api/connections/${res.body.id}/broker-accounts/${broker.id}`, {
        account_id: journal.id,
        sync_from: dayOf(day),
      });
      expect(mapped.status).toBe(200);
      journals.push(journal.id);
    }
    return { client, id: res.body.id as string, journals };
  }
  const tradesOf = async (client: ApiClient, journals: string[]) => (await Promise.all(journals.map((j) => listAll(client, `account=${j}`)))).flat();

  it('HTTP 5xx is tried again after growing pauses, 429 after the Retry-After the gateway gives', async () => {
    const { client, id, journals } = await connected('retry');
    const before = ctx.px.calls.length;
    ctx.px.fail('Trade/search', 503, 2);
    const first = await syncNow(ctx, client, id);
    expect(first.last_outcome).toMatchObject({ status: 'ok', added: 2 });
    const searches = ctx.px.calls.slice(before).filter((c) => c.endpoint === 'Trade/search');
    expect(searches.slice(0, 3).map((c) => c.status)).toEqual([503, 503, 200]);
    // 0.5 s, then 1 s.
    const pauses = [searches[1]!.at - searches[0]!.at, searches[2]!.at - searches[1]!.at];
    expect(pauses[0]).toBeGreaterThanOrEqual(450);
    expect(pauses[1]).toBeGreaterThanOrEqual(950);

    ctx.px.trades.push(
      ...roundTrip(3000, MNQ, {
        side: 'Long',
        entries: [[1, 20100, plus(new Date(Date.now() - 120_000), 0)]],
        exits: [[1, 20101, plus(new Date(Date.now() - 60_000), 0)]],
      }),
    );
    const mark = ctx.px.calls.length;
    ctx.px.fail('Trade/search', 429, 2, 1);
    const second = await syncNow(ctx, client, id);
    expect(second.last_outcome).toMatchObject({ status: 'ok', added: 1 });
    const limited = ctx.px.calls.slice(mark).filter((c) => c.endpoint === 'Trade/search');
    expect(limited.slice(0, 3).map((c) => c.status)).toEqual([429, 429, 200]);
    expect(limited[1]!.at - limited[0]!.at).toBeGreaterThanOrEqual(950);
    expect(limited[2]!.at - limited[1]!.at).toBeGreaterThanOrEqual(950);
    expect(await tradesOf(client, journals)).toHaveLength(3);
  });

  it('a failure halfway (the second account, after every retry) stores nothing, and the next sync stores everything', async () => {
    const { client, id, journals } = await connected('half');
    // The first account's one window answers; the second account's fails four times (every attempt).
    ctx.px.fail('Trade/search', 500, 4, undefined, 1);
    const failed = await syncNow(ctx, client, id);
    expect(failed.last_outcome).toMatchObject({
      status: 'error',
      message: "TopstepX's API is having trouble right now (HTTP 500). Try again in a few minutes. Nothing was stored.",
      added: 0,
    });
    expect(
      failed.accounts.map((a: { last_sync_status: string; last_error: string; fetched_until: null }) => [a.last_sync_status, a.fetched_until]),
    ).toEqual([
      ['error', null],
      ['error', null],
    ]);
    expect(failed.accounts[0].last_error).toContain('HTTP 500');
    expect(await tradesOf(client, journals)).toEqual([]);
    const fills = await ctx.app.server.database.db
      .select()
      .from(brokerFills)
      .where(
        sql`${brokerFills.brokerAccountId} in (${sql.join(
          failed.accounts.map((a: { id: string }) => sql`${a.id}::uuid`),
          sql`, `,
        )})`,
      );
    expect(fills).toEqual([]);

    const next = await syncNow(ctx, client, id);
    expect(next.last_outcome).toMatchObject({ status: 'ok', added: 2 });
    expect(await tradesOf(client, journals)).toHaveLength(2);
  });

  it('an expired session token is renewed through /api/Auth/validate, as the documentation says', async () => {
    const { client, id } = await connected('token');
    const logins = ctx.px.count('Auth/loginKey');
    const validations = ctx.px.count('Auth/validate');
    ctx.px.expireTokens();
    const done = await syncNow(ctx, client, id);
    expect(done.last_outcome).toMatchObject({ status: 'ok', added: 2 });
    expect(ctx.px.count('Auth/validate')).toBe(validations + 1);
    expect(ctx.px.count('Auth/loginKey')).toBe(logins);
  });

  it('a revoked key marks the connection, stores nothing, and a new key brings it back', async () => {
    const { client, id, journals } = await connected('revoked');
    ctx.px.revokeKey('revoked.px');
    ctx.px.expireTokens();
    const failed = await syncNow(ctx, client, id);
    const refused = 'TopstepX refused this user name and API key. Check both in TopstepX (Settings, API), then connect again. Nothing was stored.';
    expect(failed).toMatchObject({ status: 'error', last_error: refused, last_outcome: { status: 'error', message: refused } });
    expect(await tradesOf(client, journals)).toEqual([]);

    const stillRevoked = await client.patch(`/api/connections/${id}`, { api_key: 'key-of-revoked-000111' });
    expect(stillRevoked.status).toBe(400);
    ctx.px.setKey('revoked.px', 'key-of-revoked-000111-new');
    const replaced = await client.patch(`/api/connections/${id}`, { api_key: 'key-of-revoked-000111-new' });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({ status: 'connected', last_error: null });
    expect((await syncNow(ctx, client, id)).last_outcome).toMatchObject({ status: 'ok', added: 2 });
  });

  it('a key this server can no longer read (AUTH_SECRET changed) asks the trader for it again', async () => {
    const { client, id } = await connected('tamper');
    // What a key sealed under another AUTH_SECRET looks like to this server.
    const [row] = await ctx.app.server.database.db.select().from(brokerConnections).where(eq(brokerConnections.id, id));
    const [version, nonce, tag, body] = row!.secret.split('.');
    const flipped = `${version}.${nonce}.${tag}.${body!.slice(0, -2)}${body!.endsWith('AA') ? 'AB' : 'AA'}`;
    await ctx.app.server.database.db.update(brokerConnections).set({ secret: flipped }).where(eq(brokerConnections.id, id));
    const failed = await syncNow(ctx, client, id);
    expect(failed).toMatchObject({
      status: 'error',
      last_outcome: {
        status: 'error',
        message:
          "The saved API key can no longer be read (this server's AUTH_SECRET changed): enter your TopstepX API key again. Nothing was stored.",
      },
    });
  });

  it('a fill on the edge of two weekly fetch windows is read twice and stored once', async () => {
    const { client, id, journals } = await connected('edge');
    // Read from ten days back: the first window ends a week after the session opened that day, exactly on a fill.
    const from = weekdayAgo(10);
    const start = syncStartOf(dayOf(from), 'exchange');
    const edge = new Date(start.getTime() + 7 * 86_400_000);
    ctx.px.trades.push(...roundTrip(3060, MNQ, { side: 'Long', entries: [[1, 20000, plus(edge, -1)]], exits: [[1, 20003, edge.toISOString()]] }));
    await client.patch(`/api/connections/${id}/broker-accounts/${(await client.get(`/api/connections/${id}`)).body.accounts[0].id}`, {
      sync_from: dayOf(from),
    });
    const done = await syncNow(ctx, client, id);
    expect(done.last_outcome).toMatchObject({ status: 'ok' });
    const trades = await tradesOf(client, journals);
    expect(trades.filter((t) => t.exit_time === edge.toISOString()).map((t) => t.pnl)).toEqual(['5.26']);
  });

  it('a slow gateway times out in the trader’s words while other requests are answered meanwhile', async () => {
    const { client, id, journals } = await connected('slow');
    ctx.px.delay('Trade/search', 1500, 4);
    const started = await client.post(`/api/connections/${id}/sync`);
    expect(started.body.sync.running).toBe(true);
    // The sync waits on the gateway off the request path: the journal keeps answering.
    const during = await client.get('/api/accounts');
    expect(during.status).toBe(200);
    expect((await client.get(`/api/connections/${id}`)).body.sync.running).toBe(true);
    await ctx.app.server.connections.syncs.current(id);
    const done = (await client.get(`/api/connections/${id}`)).body;
    expect(done.last_outcome).toMatchObject({
      status: 'error',
      message: 'TopstepX did not answer within 1 second. Try again later. Nothing was stored.',
    });
    expect(await tradesOf(client, journals)).toEqual([]);
  });
});

describe.each(backends())('broker connections, the schedule and the gateway out of reach, on %s', (backend) => {
  it('syncs every PROJECTX_SYNC_MINUTES without being asked, and skips a connection synced a moment ago', async () => {
    const ctx = await startConnectedApp(backend, { PROJECTX_SYNC_MINUTES: '1' });
    try {
      const day = weekdayAgo(2);
      ctx.px.accounts = [account(4001, 'SCHEDULED-1', 'alice.px')];
      ctx.px.trades.push(...roundTrip(4001, MNQ, { side: 'Short', entries: [[1, 20200, plus(day, 0)]], exits: [[1, 20190, plus(day, 2)]] }));
      const client = await ctx.trader('scheduled');
      const connection = (await client.post('/api/connections', { user_name: 'alice.px', api_key: (await import('./connections-support')).KEY }))
        .body;
      const journal = await createAccount(client, 'Scheduled');
      await client.patch(`/api/connections/${connection.id}/broker-accounts/${connection.accounts[0].id}`, {
        account_id: journal.id,
        sync_from: dayOf(day),
      });
      let outcome: { trigger: string; added: number } | null = null;
      for (let i = 0; i < 100 && !outcome; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        outcome = (await client.get(`/api/connections/${connection.id}`)).body.last_outcome;
      }
      expect(outcome).toMatchObject({ status: 'ok', trigger: 'schedule', added: 1 });
      // Synced a moment ago: another scheduled start does not run it again.
      const [row] = await ctx.app.server.database.db.select().from(brokerConnections).where(eq(brokerConnections.id, connection.id));
      expect(await ctx.app.server.connections.syncs.start(row!.userId, connection.id, 'schedule')).toBe('running');
    } finally {
      await ctx.close();
    }
  });

  it('a gateway that cannot be reached is said so, and nothing is saved', async () => {
    const port = await freePort('127.0.0.1');
    const app = await startTestApp({ backend, env: { PROJECTX_API_URL: `http://127.0.0.1:${port}` } });
    try {
      const client = app.client();
      await client.signUp(`down-${Date.now()}@example.com`);
      const res = await client.post('/api/connections', { user_name: 'alice.px', api_key: 'whatever-key' });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        code: 'broker-unavailable',
        error: `Edgebook could not reach TopstepX at 127.0.0.1:${port}. Check this server's internet connection, or try again later.`,
      });
      expect((await client.get('/api/connections')).body.connections).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe.runIf(backends().includes('postgres'))('broker syncs across server processes on PostgreSQL', () => {
  it('two processes starting the same connection at once: one syncs, the other sees it under way', async () => {
    const ctx = await startConnectedApp('postgres');
    const second = await startTestApp({
      backend: 'postgres',
      env: { DATABASE_URL: ctx.app.server.config.DATABASE_URL!, PROJECTX_API_URL: ctx.px.url },
    });
    try {
      const day = weekdayAgo(2);
      ctx.px.accounts = [account(5001, 'LOCKED-1', 'alice.px')];
      ctx.px.trades.push(...roundTrip(5001, MNQ, { side: 'Long', entries: [[1, 20000, plus(day, 0)]], exits: [[1, 20001, plus(day, 1)]] }));
      // A slow gateway keeps the first sync under way while the second process tries.
      ctx.px.delay('Trade/search', 800, 1);
      const client = await ctx.trader('locked');
      const connection = (await client.post('/api/connections', { user_name: 'alice.px', api_key: (await import('./connections-support')).KEY }))
        .body;
      const journal = await createAccount(client, 'Locked');
      await client.patch(`/api/connections/${connection.id}/broker-accounts/${connection.accounts[0].id}`, {
        account_id: journal.id,
        sync_from: dayOf(day),
      });
      const [row] = await ctx.app.server.database.db.select().from(brokerConnections).where(eq(brokerConnections.id, connection.id));
      const results = await Promise.all([
        ctx.app.server.connections.syncs.start(row!.userId, connection.id, 'manual'),
        second.server.connections.syncs.start(row!.userId, connection.id, 'manual'),
      ]);
      expect(results.sort()).toEqual(['running', 'started']);
      await Promise.all([ctx.app.server.connections.syncs.current(connection.id), second.server.connections.syncs.current(connection.id)]);
      // Once it is over, either process may sync it again.
      expect(await second.server.connections.syncs.start(row!.userId, connection.id, 'manual')).toBe('started');
      await second.server.connections.syncs.current(connection.id);
      expect(await listAll(client, `account=${journal.id}`)).toHaveLength(1);
    } finally {
      await second.close();
      await ctx.close();
    }
  });
});
