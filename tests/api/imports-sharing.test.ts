import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestsServed, yieldConnection } from '../../src/server/db/client';
import { trades } from '../../src/server/db/schema';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { backupRows } from '../support/backup-file';
import { tradovateOrdersCsv } from '../support/broker-files';
import { importFile } from './imports-support';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * One request froze everyone on PGlite. A 30,000-row JSON backup held every other request, even
 * /api/health, for 12 s (its JSON and its rows were read on the server's thread, then inserted in one transaction on
 * PGlite's single connection), and a broker import of 30,000 trades held another trader's reads for 4.4 s. Now the
 * backup is read in the parse worker, and an import's transaction lends the connection to other traders' reads
 * between its inserts; their writes wait for its COMMIT. Before, health and the other trader's reads waited for the
 * whole import (12 s and more); now for one INSERT of 250 rows at most. The bounds are generous, and scale with the
 * import's own duration, so that a machine slowed by other work does not fail them: 1 s (2 s for the reads), or a
 * twentieth (a tenth) of the import, whichever is more.
 */
const healthBound = (importMs: number) => Math.max(1_000, importMs / 20);
const readBound = (importMs: number) => Math.max(2_000, importMs / 10);
const BACKUP_ROWS = backupRows(30_000);
/** 83,000 fills of a Tradovate Orders export: 30,172 round trips. */
const BROKER_FILE = tradovateOrdersCsv(83_000);

interface Watched {
  status: number;
  body: any;
  ms: number;
  /** /api/health latencies while the import ran. */
  health: number[];
  /** Latencies of the other trader's GET /api/trades, and how many answered before the import did. */
  reads: number[];
  readsBeforeImport: number;
  /** The other trader's trade created while the import's transaction ran: when it was answered, after the import's answer. */
  write: { status: number; afterImportMs: number } | null;
}

describe('on PGlite, a long import', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend: 'pglite' });
  });
  afterAll(() => app?.close());

  /** Runs `run` (the import) while a watcher polls /api/health and `other` reads its trades and creates one. */
  async function whileImporting(run: () => Promise<{ status: number; body: any }>, other: ApiClient): Promise<Watched> {
    const watcher = app.client();
    await watcher.get('/api/health');
    await other.get('/api/trades?limit=50');
    let done = false;
    let answeredAt = 0;
    const started = performance.now();
    const running = run().finally(() => {
      done = true;
      answeredAt = performance.now();
    });
    const health: number[] = [];
    const reads: number[] = [];
    let readsBeforeImport = 0;
    let write: { status: number; at: number } | null = null;
    const poll = async (latencies: number[], request: () => Promise<{ status: number }>, onAnswer?: () => void) => {
      while (!done) {
        const t0 = performance.now();
        const res = await request();
        expect(res.status).toBe(200);
        latencies.push(performance.now() - t0);
        onAnswer?.();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const guests = guestsServed(app.server.database) ?? 0;
    const writing = (async () => {
      // Once the import's transaction has begun (it has lent the connection to a read): the write cannot run in it.
      while (!done && guestsServed(app.server.database)! <= guests) await new Promise((resolve) => setTimeout(resolve, 20));
      if (done) return;
      const res = await other.post('/api/trades', { date: '2026-02-02', period: 'AM', symbol: 'CL', pnl: 42 });
      write = { status: res.status, at: performance.now() };
    })();
    await Promise.all([
      poll(health, () => watcher.get('/api/health')),
      poll(
        reads,
        async () => {
          const res = await other.get('/api/trades?limit=50');
          // Only the other trader's own trades (one, then two), never the import's.
          expect(res.body.total).toBeLessThanOrEqual(2);
          expect(res.body.trades.some((t: { account_name: string | null }) => t.account_name === 'Import')).toBe(false);
          return res;
        },
        () => !done && readsBeforeImport++,
      ),
      writing,
    ]);
    const result = await running;
    const w = write as { status: number; at: number } | null;
    return {
      ...result,
      ms: answeredAt - started,
      health,
      reads,
      readsBeforeImport,
      write: w && { status: w.status, afterImportMs: w.at - answeredAt },
    };
  }

  function report(name: string, r: Watched) {
    const worst = (list: number[]) => Math.round(Math.max(0, ...list));
    const text = `${name}: ${Math.round(r.ms)} ms; health n=${r.health.length} worst ${worst(r.health)} ms; other trader's reads n=${r.reads.length} (${r.readsBeforeImport} before the import answered) worst ${worst(r.reads)} ms; their write answered ${r.write ? Math.round(r.write.afterImportMs) : '-'} ms after the import`;
    console.info(text);
    return text;
  }

  async function twoTraders(name: string) {
    const importer = await newTrader(app, `${name}-a`);
    const account = await createAccount(importer, 'Import');
    const other = await newTrader(app, `${name}-b`);
    const theirs = await createAccount(other, 'Theirs');
    await createTrade(other, { symbol: 'ES', pnl: 10, account_id: theirs.id });
    return { importer, account, other };
  }

  it(
    'a 30,000-row backup: health and another trader answer while it is read and inserted, their write lands after it',
    { timeout: 600_000 },
    async () => {
      const { importer, account, other } = await twoTraders('backup');
      const body = JSON.stringify({ account_id: account.id, trades: BACKUP_ROWS });
      const guests = guestsServed(app.server.database)!;
      const r = await whileImporting(async () => {
        const res = await importer.send('POST', '/api/trades/import', body, { 'content-type': 'application/json' });
        return { status: res.status, body: await res.json() };
      }, other);
      const text = report('backup', r);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body).toEqual({ imported: 30_000, skipped: 0 });
      expect(r.health.length, text).toBeGreaterThanOrEqual(5);
      expect(Math.max(...r.health), text).toBeLessThan(healthBound(r.ms));
      expect(r.readsBeforeImport, text).toBeGreaterThanOrEqual(5);
      expect(Math.max(...r.reads), text).toBeLessThan(readBound(r.ms));
      // Some of those reads ran while the import's transaction held the connection, inside it.
      expect(guestsServed(app.server.database)! - guests).toBeGreaterThan(0);
      // A write cannot ride on the import's transaction: it waited for its COMMIT, then landed.
      expect(r.write?.status, text).toBe(201);
      expect((await other.get('/api/trades?limit=1')).body.total).toBe(2);
      expect((await importer.get('/api/trades?limit=1')).body.total).toBe(30_000);
    },
  );

  it('a 30,000-trade broker import: the same', { timeout: 600_000 }, async () => {
    const { importer, account, other } = await twoTraders('broker');
    const r = await whileImporting(() => importFile(importer, { account_id: account.id, time_zone: 'America/New_York' }, BROKER_FILE), other);
    const text = report('broker import', r);
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.imported).toBe(30_172);
    expect(Math.max(...r.health), text).toBeLessThan(healthBound(r.ms));
    expect(r.readsBeforeImport, text).toBeGreaterThanOrEqual(5);
    expect(Math.max(...r.reads), text).toBeLessThan(readBound(r.ms));
    expect(r.write?.status, text).toBe(201);
    expect((await other.get('/api/trades?limit=1')).body.total).toBe(2);
  });

  it(
    'still all or nothing: a backup that fails in its last chunk leaves nothing, and the other trader keeps what they wrote',
    { timeout: 600_000 },
    async () => {
      const { importer, account, other } = await twoTraders('atomic');
      const body = JSON.stringify({ account_id: account.id, trades: BACKUP_ROWS });
      const db = app.server.database.db;
      await db.execute(
        sql.raw(`
      create or replace function import_test_fail() returns trigger language plpgsql as $$
      begin
        if new.account_id = '${account.id}' and new.import_key = 'backup:bk-29999' then
          raise exception 'forced failure at the end of an import';
        end if;
        return new;
      end $$
    `),
      );
      await db.execute(sql.raw('create trigger import_test_fail before insert on trades for each row execute function import_test_fail()'));
      const guests = guestsServed(app.server.database)!;
      let r: Watched;
      try {
        r = await whileImporting(async () => {
          const res = await importer.send('POST', '/api/trades/import', body, { 'content-type': 'application/json' });
          return { status: res.status, body: await res.json() };
        }, other);
      } finally {
        await db.execute(sql.raw('drop trigger import_test_fail on trades'));
        await db.execute(sql.raw('drop function import_test_fail()'));
      }
      const text = report('failing backup', r);
      expect(r.status, JSON.stringify(r.body)).toBe(500);
      expect(guestsServed(app.server.database)! - guests, 'no request ran inside the import').toBeGreaterThan(0);
      expect((await importer.get('/api/trades?limit=1')).body.total).toBe(0);
      expect(r.readsBeforeImport, text).toBeGreaterThanOrEqual(5);
      expect(r.write?.status, text).toBe(201);
      const theirs = (await other.get('/api/trades?limit=10')).body.trades.map((t: { symbol: string }) => t.symbol).sort();
      expect(theirs).toEqual(['CL', 'ES']);
    },
  );
});

/**
 * The connection lending itself (src/server/db/pglite-connection.ts), statement by statement: what runs inside a long
 * transaction, what waits for it, and that its failure takes nothing of the others' with it. On PostgreSQL the same
 * calls run on connections of their own, and the outcome must be the same.
 */
describe.each(backends())('a transaction that yields its connection, on %s', (backend) => {
  let app: TestApp;
  let alice: { id: string; account: string };
  let bob: { id: string; account: string };
  beforeAll(async () => {
    app = await startTestApp({ backend });
    const trader = async (name: string) => {
      const client = await newTrader(app, name);
      const account = await createAccount(client, 'Main');
      const me = await client.get('/api/auth/get-session');
      return { id: me.body.user.id as string, account: account.id };
    };
    alice = await trader('alice');
    bob = await trader('bob');
  });
  afterAll(() => app?.close());

  const row = (owner: { id: string; account: string }, symbol: string) => ({
    userId: owner.id,
    accountId: owner.account,
    tradeDate: '2026-03-02T12:00:00.000Z',
    dayOfWeek: 'Monday',
    symbol,
  });

  it('runs other traders’ reads inside it, defers their writes past its end, and a failure keeps only theirs', async () => {
    const database = app.server.database;
    const events: string[] = [];
    const countOf = (owner: { id: string }) => database.withUser(owner.id, async (tx) => (await tx.select({ id: trades.id }).from(trades)).length);
    let bobsRead: Promise<number> | null = null;
    let bobsWrite: Promise<unknown> | null = null;
    let alicesRead: Promise<number> | null = null;
    let ownerRead: Promise<unknown> | null = null;
    const long = database.withUser(alice.id, async (tx) => {
      await tx.insert(trades).values(row(alice, 'NQ'));
      bobsRead = countOf(bob).then((n) => (events.push('bob read'), n));
      bobsWrite = database.withUser(bob.id, (t) => t.insert(trades).values(row(bob, 'ES'))).then(() => events.push('bob wrote'));
      alicesRead = countOf(alice).then((n) => (events.push('alice read'), n));
      ownerRead = database.db.execute(sql`select count(*)::int as n from "user"`).then(() => events.push('owner read'));
      for (let i = 0; i < 20; i++) {
        await yieldConnection(tx);
        await tx.insert(trades).values(row(alice, 'NQ'));
      }
      events.push('long done');
      throw new Error('the long transaction fails at its end');
    });
    await expect(long).rejects.toThrow('the long transaction fails at its end');
    expect(await bobsRead).toBe(0);
    await bobsWrite;
    await ownerRead;
    // Alice's own read never sees her uncommitted rows: it waits for the end, and then there are none.
    expect(await alicesRead).toBe(0);
    expect(await countOf(alice)).toBe(0);
    expect(await countOf(bob)).toBe(1);
    if (backend === 'pglite') {
      // One connection: other traders' reads ran inside the long transaction, before it ended; the writes after it. The
      // server's own statement (as the tables' owner, past row-level security) never runs inside a trader's
      // transaction, where it would see what that transaction has not committed: it waits for the end.
      expect(events.indexOf('bob read')).toBeLessThan(events.indexOf('long done'));
      expect(events.indexOf('owner read')).toBeGreaterThan(events.indexOf('long done'));
      expect(events.indexOf('bob wrote')).toBeGreaterThan(events.indexOf('long done'));
      expect(events.indexOf('alice read')).toBeGreaterThan(events.indexOf('long done'));
    }
  });

  it('a request that swallows its refused write is run again after the long transaction, not answered with the refusal', async () => {
    const database = app.server.database;
    let attempts = 0;
    const long = database.withUser(alice.id, async (tx) => {
      const sneaky = database.withUser(bob.id, async (t) => {
        attempts++;
        try {
          await t.insert(trades).values(row(bob, 'GC'));
          return 'written';
        } catch {
          return 'refused';
        }
      });
      for (let i = 0; i < 5; i++) await yieldConnection(tx);
      // Not awaited in here: on PGlite it runs only once this transaction has ended.
      return { sneaky };
    });
    const { sneaky } = await long;
    expect(await sneaky).toBe('written');
    if (backend === 'pglite') expect(attempts).toBe(2);
    const gold = await database.withUser(bob.id, (tx) =>
      tx
        .select({ id: trades.id })
        .from(trades)
        .where(sql`${trades.symbol} = 'GC'`),
    );
    expect(gold).toHaveLength(1);
  });
});
