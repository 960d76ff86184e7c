import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateTrades, summarizeResultRuns } from '../../src/domain/stats';
import { sortByTradingOrder } from '../../src/domain/trades';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { ROLLUP_DAYS_PER_STATEMENT } from '../../src/server/core/trades/write';
import { backupRows } from '../support/backup-file';
import { brokerFile, importFile, ownFile } from './imports-support';
import { addDays, cents, createAccount, importTrades, money, newTrader } from './trades-support';

/**
 * The per-day rollups behind the statistics are written by database triggers on every write to trades.
 * After any sequence of writes, through the API or straight in SQL (as an import's re-file of trading days would
 * write), each rollup row must equal what a recomputation from the trades gives, for every scope: all accounts,
 * unassigned and each account.
 */
type Row = Record<string, unknown>;

interface RollupRow {
  scope: string;
  day: string;
  trades: number;
  wins: number;
  losses: number;
  break_evens: number;
  pnl: number;
  gross_profit: number;
  gross_loss: number;
  head_result: string | null;
  head_run: number;
  tail_result: string | null;
  tail_run: number;
  max_win_run: number;
  max_loss_run: number;
}

const DAYS = ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-07', '2025-03-10'];
const CODE = { Win: 'W', Loss: 'L' } as const;

describe.each(backends())('trade day rollups on %s', (backend) => {
  let app: TestApp;
  const db = () => app.server.database;
  const rows = async (query: ReturnType<typeof sql>): Promise<Row[]> => ((await db().db.execute(query)) as unknown as { rows: Row[] }).rows;
  const rows_ = rows;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  async function userIdOf(client: ApiClient): Promise<string> {
    return (await client.get('/api/auth/get-session')).body.user.id as string;
  }

  /** The stored rollups of a trader, as the owner sees them (no row-level security in the way). */
  async function storedRollups(userId: string): Promise<RollupRow[]> {
    const found = await rows(sql`
      select scope, to_char(day, 'YYYY-MM-DD') as day, trades, wins, losses, break_evens,
             (pnl * 100)::bigint::int as pnl, (gross_profit * 100)::bigint::int as gross_profit,
             (gross_loss * 100)::bigint::int as gross_loss, head_result, head_run, tail_result, tail_run,
             max_win_run, max_loss_run
      from trade_day_rollups where user_id = ${userId} order by scope, day`);
    return found as unknown as RollupRow[];
  }

  /**
   * The rollups recomputed in JavaScript from the trades themselves, with the domain's own formulas and its trading
   * order (day, entry, exit, creation, id), not the database's.
   */
  async function recomputedRollups(userId: string): Promise<RollupRow[]> {
    const stored = await rows(sql`
      select coalesce(account_id::text, 'none') as scope, to_char(trade_date at time zone 'UTC', 'YYYY-MM-DD') as day,
             status, (pnl * 100)::bigint::int as pnl, entry_time::text as entry, exit_time::text as exit,
             created_at::text as created, id::text as id
      from trades where user_id = ${userId}`);
    const trades = sortByTradingOrder(
      stored.map((t) => ({
        scope: t.scope as string,
        day: t.day as string,
        status: t.status as string,
        pnl: t.pnl as number,
        tradeDate: t.day as string,
        entryTime: t.entry as string | null,
        exitTime: t.exit as string | null,
        createdAt: t.created as string,
        id: t.id as string,
      })),
    );
    const groups = new Map<string, Array<{ status: string; pnlCents: number }>>();
    for (const t of trades) {
      const trade = { status: t.status, pnlCents: t.pnl };
      for (const scope of ['all', t.scope]) {
        const key = `${scope}|${t.day}`;
        groups.set(key, [...(groups.get(key) ?? []), trade]);
      }
    }
    return [...groups.entries()]
      .map(([key, list]) => {
        const [scope, day] = key.split('|') as [string, string];
        const sums = aggregateTrades(list);
        const runs = summarizeResultRuns(list.map((t) => t.status));
        const code = (r: 'Win' | 'Loss' | null) => (r ? CODE[r] : null);
        return {
          scope,
          day,
          trades: sums.trades,
          wins: sums.wins,
          losses: sums.losses,
          break_evens: sums.trades - sums.wins - sums.losses,
          pnl: sums.pnlCents,
          gross_profit: sums.grossProfitCents,
          gross_loss: sums.grossLossCents,
          head_result: code(runs.head.result),
          head_run: runs.head.length,
          tail_result: code(runs.tail.result),
          tail_run: runs.tail.length,
          max_win_run: runs.maxWinStreak,
          max_loss_run: runs.maxLossStreak,
        };
      })
      .sort((a, b) => (a.scope === b.scope ? (a.day < b.day ? -1 : 1) : a.scope < b.scope ? -1 : 1));
  }

  async function expectRollupsRight(userId: string) {
    expect(await storedRollups(userId)).toEqual(await recomputedRollups(userId));
  }

  /** One write a trader (or an import) can make; indexes pick among the trader's current trades and accounts. */
  type Op =
    | { kind: 'create'; day: number; pnl: number; account: number }
    | { kind: 'patch'; trade: number; pnl?: number; day?: number; account?: number }
    | { kind: 'delete'; trade: number }
    | { kind: 'bulk-delete'; trades: number[] }
    | { kind: 'assign'; trades: number[]; account: number }
    | { kind: 'import'; day: number; pnls: number[]; account: number }
    | { kind: 'notes'; trade: number }
    | { kind: 'refile'; trades: number[]; by: number }
    | { kind: 'raw-insert'; day: number; pnls: number[] }
    | { kind: 'retime'; trade: number; entry: number; exit: number | null };

  const pnl = fc.oneof(fc.integer({ min: -50_000, max: 50_000 }), fc.constant(0));
  const index = fc.nat(40);
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), day: fc.nat(4), pnl, account: fc.nat(2) }) },
    {
      weight: 2,
      arbitrary: fc.record(
        { kind: fc.constant('patch' as const), trade: index, pnl, day: fc.nat(4), account: fc.nat(2) },
        { requiredKeys: ['kind', 'trade'] },
      ),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), trade: index }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('bulk-delete' as const), trades: fc.array(index, { maxLength: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('assign' as const), trades: fc.array(index, { maxLength: 6 }), account: fc.nat(1) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('import' as const),
        day: fc.nat(4),
        pnls: fc.array(pnl, { minLength: 1, maxLength: 8 }),
        account: fc.nat(1),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('notes' as const), trade: index }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('refile' as const), trades: fc.array(index, { maxLength: 5 }), by: fc.integer({ min: -2, max: 2 }) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('raw-insert' as const), day: fc.nat(4), pnls: fc.array(pnl, { minLength: 1, maxLength: 5 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('retime' as const),
        trade: index,
        entry: fc.integer({ min: -600, max: 600 }),
        exit: fc.option(fc.nat(90)),
      }),
    },
  );

  it('equal a recomputation from the trades after any sequence of writes (fast-check)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const t = await newTrader(app, `rollup${run++}`);
        const userId = await userIdOf(t);
        const accounts = [(await createAccount(t, 'A')).id, (await createAccount(t, 'B')).id];
        const accountOf = (i: number) => (i < accounts.length ? accounts[i]! : null);
        const tradeIds = async () =>
          (await rows(sql`select id from trades where user_id = ${userId} order by created_at, id`)).map((r) => r.id as string);
        const pick = (ids: string[], i: number) => (ids.length ? ids[i % ids.length]! : undefined);
        let importBatch = 0;

        for (const o of ops) {
          const ids = await tradeIds();
          switch (o.kind) {
            case 'create': {
              const res = await t.post('/api/trades', { date: DAYS[o.day], period: 'AM', pnl: money(o.pnl), account_id: accountOf(o.account) });
              expect(res.status).toBe(201);
              break;
            }
            case 'patch': {
              const id = pick(ids, o.trade);
              if (!id) break;
              const body: Record<string, unknown> = {};
              if (o.pnl !== undefined) body.pnl = money(o.pnl);
              if (o.day !== undefined) body.date = DAYS[o.day];
              if (o.account !== undefined) body.account_id = accountOf(o.account);
              expect((await t.patch(`/api/trades/${id}`, body)).status).toBe(200);
              break;
            }
            case 'delete': {
              const id = pick(ids, o.trade);
              if (id) expect((await t.delete(`/api/trades/${id}`)).status).toBe(204);
              break;
            }
            case 'bulk-delete': {
              const chosen = [...new Set(o.trades.map((i) => pick(ids, i)).filter((id): id is string => !!id))];
              if (chosen.length) expect((await t.post('/api/trades/bulk-delete', { ids: chosen })).status).toBe(200);
              break;
            }
            case 'assign': {
              const chosen = [...new Set(o.trades.map((i) => pick(ids, i)).filter((id): id is string => !!id))];
              if (chosen.length) expect((await t.post('/api/trades/assign', { ids: chosen, account_id: accounts[o.account] })).status).toBe(200);
              break;
            }
            case 'import': {
              const batch = importBatch++;
              const res = await t.post('/api/trades/import', {
                account_id: accounts[o.account],
                trades: o.pnls.map((p, i) => ({ id: `b${batch}-${i}`, date: DAYS[o.day], period: 'PM', pnl: money(p) })),
              });
              expect(res.status).toBe(201);
              break;
            }
            case 'notes': {
              const id = pick(ids, o.trade);
              if (id) expect((await t.patch(`/api/trades/${id}`, { notes: `edited ${Date.now()}` })).status).toBe(200);
              break;
            }
            case 'refile': {
              // What a re-file of trading days does: one UPDATE of trade_date, as the trader, outside the API.
              const chosen = [...new Set(o.trades.map((i) => pick(ids, i)).filter((id): id is string => !!id))];
              if (!chosen.length) break;
              await db().withUser(userId, (tx) =>
                tx.execute(sql`update trades set trade_date = trade_date + ${`${o.by} days`}::interval
                               where id = any(${`{${chosen.join(',')}}`}::uuid[])`),
              );
              break;
            }
            case 'retime': {
              // An entry or exit time set or moved (the trading order within the day changes, the day does not).
              const id = pick(ids, o.trade);
              if (!id) break;
              await db().withUser(userId, (tx) =>
                tx.execute(sql`update trades set entry_time = trade_date + ${`${o.entry} minutes`}::interval,
                                 exit_time = trade_date + ${`${o.entry + (o.exit ?? 0)} minutes`}::interval
                               where id = ${id}::uuid`),
              );
              break;
            }
            case 'raw-insert': {
              // A bulk INSERT ... SELECT as the tables' owner (how the bench seeds 100,000 trades).
              await db().db.execute(sql`
                insert into trades (user_id, account_id, trade_date, day_of_week, status, pnl)
                select ${userId}, ${accounts[0]}::uuid, ${`${DAYS[o.day]}T12:00:00Z`}::timestamptz, 'Monday',
                       case when p > 0 then 'Win' when p < 0 then 'Loss' else 'BE' end, p / 100.0
                from unnest(${`{${o.pnls.join(',')}}`}::int[]) as p`);
              break;
            }
          }
        }
        await expectRollupsRight(userId);
      }),
      { numRuns: backend === 'pglite' ? 25 : 15 },
    );
  });

  it('stay right through broker file imports, a fee schedule applied again, a re-file of trading days and a multi-account file', async () => {
    const t = await newTrader(app, 'rollup-imports');
    const userId = await userIdOf(t);
    const [topstep, tradovate, second] = [await createAccount(t, 'Topstep'), await createAccount(t, 'Tradovate'), await createAccount(t, 'Second')];
    const NY = { time_zone: 'America/New_York' };
    // A real TopstepX export (evening trades filed under the next trading day) and a real Tradovate Performance
    // export (no costs: the account's fee schedule charges them).
    const first = await importFile(
      t,
      { ...NY, account_id: topstep.id },
      brokerFile('topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv'),
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const performance = brokerFile('tradovate-performance/stephenkgli-trading-records__Performance.csv');
    const sent = await importFile(t, { ...NY, account_id: tradovate.id }, performance);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(first.body.imported + sent.body.imported).toBeGreaterThan(300);
    await expectRollupsRight(userId);

    // New rates applied to the stored imported trades change every net P&L: the rollups follow.
    const before = (await t.get(`/api/trades/stats?account=${tradovate.id}`)).body.summary.pnlCents as number;
    const rates = await t.request('PUT', `/api/imports/fees/${tradovate.id}`, { micro: '1.25', mini: '3.00' });
    expect(rates.status).toBe(200);
    const applied = await t.post(`/api/imports/fees/${tradovate.id}/apply`, {});
    expect(applied.body.updated).toBeGreaterThan(0);
    expect((await t.get(`/api/trades/stats?account=${tradovate.id}`)).body.summary.pnlCents).toBeLessThan(before);
    await expectRollupsRight(userId);

    // The calendar-day setting re-files the evening trades, and back.
    expect((await t.patch('/api/preferences', { trading_day: 'calendar' })).body.refiled_trades).toBeGreaterThan(0);
    await expectRollupsRight(userId);
    expect((await t.patch('/api/preferences', { trading_day: 'exchange' })).body.refiled_trades).toBeGreaterThan(0);
    await expectRollupsRight(userId);

    // A file with two accounts, each mapped to a trading account.
    const twoAccounts = ownFile('tradovate-orders-two-accounts.csv');
    const map = JSON.stringify({ 'APEX-1001': second.id, 'APEX-1002': topstep.id });
    const mapped = await importFile(t, { ...NY, account_id: second.id, account_map: map }, twoAccounts);
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    expect(mapped.body).toMatchObject({ imported: 6, duplicates: 0 });
    await expectRollupsRight(userId);
  });

  it('the statistics read from the rollups match those of a search that matches every trade (read from the trades)', async () => {
    const t = await newTrader(app, 'rollup-vs-scan');
    const account = await createAccount(t, 'Main');
    const trades = Array.from({ length: 120 }, (_, i) => ({
      id: `s-${i}`,
      date: addDays('2025-01-06', Math.floor(i / 7)),
      period: 'AM',
      // Runs of wins and losses that cross day boundaries, some break-evens.
      pnl: money(i % 11 === 0 ? 0 : Math.floor(i / 4) % 2 === 0 ? 1000 + i : -(500 + i)),
      notes: 'everything',
    }));
    expect((await t.post('/api/trades/import', { account_id: account.id, trades })).status).toBe(201);
    for (const account_ of ['all', account.id, 'unassigned']) {
      const fromRollups = (await t.get(`/api/trades/stats?account=${account_}`)).body;
      const fromTrades = (await t.get(`/api/trades/stats?account=${account_}&q=everything`)).body;
      expect(fromRollups).toEqual(fromTrades);
    }
    expect((await t.get('/api/trades/stats')).body.summary).toMatchObject({ trades: 120, pnlCents: expect.any(Number) });
  });

  it('stay right when one trader writes the same day from many requests at once', async () => {
    const t = await newTrader(app, 'rollup-concurrent');
    const userId = await userIdOf(t);
    const account = await createAccount(t, 'Main');
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.post('/api/trades', {
          date: '2025-03-03',
          period: 'AM',
          pnl: money(i % 3 === 0 ? -1234 : 2345 + i),
          account_id: i % 2 ? account.id : null,
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(24).fill(201));
    await expectRollupsRight(userId);
    const all = (await storedRollups(userId)).find((r) => r.scope === 'all')!;
    expect(all.trades).toBe(24);
    expect(all.pnl).toBe(results.reduce((sum, r) => sum + cents(r.body.pnl as string), 0));
  });

  it('stay right after a restore that touches more days than one statement of the last step refreshes, and it fills them', async () => {
    const t = await newTrader(app, 'rollup-restore');
    const userId = await userIdOf(t);
    const account = await createAccount(t, 'Restored');
    // Two trades a day over five times the days one statement refreshes, each with its two executions.
    const rows = backupRows(ROLLUP_DAYS_PER_STATEMENT * 5 * 40)
      .filter((_, i) => i % 40 < 2)
      .map((r) => {
        const [open, close] = r.side === 'Long' ? ['Buy', 'Sell'] : ['Sell', 'Buy'];
        const fill = (time: unknown, side: string, price: unknown) => ({ time, side, quantity: r.quantity, price, commission: null });
        return { ...r, fills: [fill(r.entry_time, open!, r.entry_price), fill(r.exit_time, close!, r.exit_price)] } as Record<string, unknown>;
      });
    expect(new Set(rows.map((r) => r.date)).size).toBe(ROLLUP_DAYS_PER_STATEMENT * 5);
    expect(await importTrades(t, account.id, rows)).toEqual({ imported: rows.length, skipped: 0 });
    await expectRollupsRight(userId);
    expect((await storedRollups(userId)).filter((r) => r.scope === 'all')).toHaveLength(ROLLUP_DAYS_PER_STATEMENT * 5);
    const fillsOf = async () =>
      (await rows_(sql`select count(*)::int as n, count(distinct trade_id)::int as trades from trade_fills where user_id = ${userId}`))[0];
    expect(await fillsOf(), 'each restored trade got its executions').toEqual({ n: rows.length * 2, trades: rows.length });
    // Restored again: nothing is added, and the trades keep the executions they have.
    expect(await importTrades(t, account.id, rows)).toEqual({ imported: 0, skipped: rows.length });
    expect(await fillsOf()).toEqual({ n: rows.length * 2, trades: rows.length });
    await expectRollupsRight(userId);
  });

  it("are the trader's own: row-level security hides and protects other traders' rollups", async () => {
    const a = await newTrader(app, 'rollup-a');
    const b = await newTrader(app, 'rollup-b');
    const [aId, bId] = [await userIdOf(a), await userIdOf(b)];
    expect((await a.post('/api/trades', { date: '2025-03-03', period: 'AM', pnl: '10.00' })).status).toBe(201);
    const seenByB = await db().withUser(bId, (tx) => tx.execute(sql`select user_id from trade_day_rollups`));
    expect((seenByB as unknown as { rows: Row[] }).rows).toEqual([]);
    await db().withUser(bId, (tx) => tx.execute(sql`delete from trade_day_rollups`));
    await db().withUser(bId, (tx) => tx.execute(sql`update trade_day_rollups set pnl = 0`));
    expect((await storedRollups(aId)).map((r) => [r.scope, r.pnl])).toEqual([
      ['all', 1000],
      ['none', 1000],
    ]);
    await expect(
      db().withUser(bId, (tx) =>
        tx.execute(sql`insert into trade_day_rollups (user_id, scope, day, trades, wins, losses, break_evens, pnl, gross_profit,
          gross_loss, head_run, tail_run, max_win_run, max_loss_run) values (${aId}, 'all', '2025-03-04', 1, 1, 0, 0, 5, 5, 0, 1, 1, 1, 0)`),
      ),
    ).rejects.toThrow();
    expect((await a.get('/api/trades/stats')).body.summary.pnlCents).toBe(1000);
  });
});
