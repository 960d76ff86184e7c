import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/server/db/client';
import { tradesRepo, type AccountScope, type DayRange, type ListOrder, type ListPosition } from '../../src/server/core/trades/repo';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { addDays, createAccount, createTrade, importTrades, newTrader } from './trades-support';

/**
 * The Trade Log's pages without a search run as prepared statements, one per shape, built once with
 * placeholders and decoded by their own row mapper. Every shape must read exactly what the query builder reads with
 * the values written in, and a statement made for one shape must never serve another.
 */
describe.each(backends())('the list page as prepared statements on %s', (backend) => {
  let app: TestApp;
  let trader: ApiClient;
  let userId: string;
  let accountA: string;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    trader = await newTrader(app, 'prepared');
    userId = (await trader.get('/api/auth/get-session')).body.user.id;
    accountA = (await createAccount(trader, 'Prepared A')).id;
    const accountB = (await createAccount(trader, 'Prepared B')).id;
    const symbols = ['NQ', 'ES', 'MNQ', null];
    const rows = (from: number) =>
      Array.from({ length: 30 }, (_, i) => ({
        id: `p-${from + i}`,
        date: addDays('2025-03-03', (from + i) % 17),
        period: i % 2 ? 'AM' : 'PM',
        ...(symbols[i % 4] && { symbol: symbols[i % 4] }),
        // Ties on the P&L, so that a column sort's pages lean on the trading order too.
        pnl: ((i % 7) - 3) * 12.5,
        ...(i % 3 === 0 && { entry_time: `${addDays('2025-03-03', (from + i) % 17)}T14:${String(10 + i).padStart(2, '0')}:00Z` }),
      }));
    await importTrades(trader, accountA, rows(0));
    await importTrades(trader, accountB, rows(100));
    for (let i = 0; i < 6; i++) await createTrade(trader, { date: addDays('2025-03-03', i * 3), period: 'AM', pnl: i - 2, notes: `unassigned ${i}` });
    // Another trader's trades on the same days: never in the pages above.
    const other = await newTrader(app, 'prepared-other');
    await importTrades(other, (await createAccount(other, 'Other')).id, rows(0));
  });
  afterAll(() => app?.close());

  const inTx = <T>(fn: (tx: Tx) => Promise<T>) => app.server.database.withUser(userId, fn);

  it('every shape of a page (account scope, day range, order, position, offset, total) reads what the builder reads', async () => {
    const accounts: AccountScope[] = ['all', 'unassigned', accountA];
    const ranges: DayRange[] = [{}, { from: '2025-03-06' }, { to: '2025-03-12' }, { from: '2025-03-05', to: '2025-03-14' }];
    const orders: ListOrder[] = [
      { sort: 'date', dir: 'desc' },
      { sort: 'date', dir: 'asc' },
      { sort: 'pnl', dir: 'desc' },
      { sort: 'symbol', dir: 'asc' },
    ];
    let compared = 0;
    await inTx(async (tx) => {
      const repo = tradesRepo(tx, userId);
      for (const account of accounts) {
        for (const range of ranges) {
          for (const order of orders) {
            const first = await repo.page(account, undefined, 5, undefined, range, { order, withRollupTotal: order.sort === 'date' });
            expect(first).toEqual(
              await repo.pageQuery(account, undefined, 5, undefined, range, { order, withRollupTotal: order.sort === 'date' }).query,
            );
            if (account !== 'unassigned') expect(first).toHaveLength(5);
            // From the fourth row on: after it, from it, and from an offset. The column sorts' rows with no symbol
            // carry a null sort value, a shape of its own.
            const row = first[3];
            if (!row) continue;
            const key = {
              tradeDate: row.tradeDate,
              orderingEntryTime: row.orderingEntryTime,
              orderingExitTime: row.orderingExitTime,
              createdAt: row.createdAt,
              id: row.id,
            } as ListPosition['key'];
            for (const position of [
              { key, value: row.sortValue },
              { key, value: row.sortValue, inclusive: true },
            ]) {
              const next = await repo.page(account, undefined, 4, position, range, { order });
              expect(next).toEqual(await repo.pageQuery(account, undefined, 4, position, range, { order }).query);
              compared++;
            }
            const skipped = await repo.page(account, undefined, 4, undefined, range, { order, offset: 3 });
            expect(skipped).toEqual(await repo.pageQuery(account, undefined, 4, undefined, range, { order, offset: 3 }).query);
            expect(skipped[0]?.id).toBe(row.id);
            compared++;
          }
        }
      }
    });
    expect(compared).toBeGreaterThan(60);
  });

  it('a page holds only the trader’s own trades, whoever ran the same statement before', async () => {
    const other = await newTrader(app, 'prepared-third');
    const otherId = (await other.get('/api/auth/get-session')).body.user.id as string;
    await importTrades(other, (await createAccount(other, 'Third')).id, [{ id: 'x-1', date: '2025-03-04', period: 'AM', pnl: 1 }]);
    const mine = await inTx((tx) => tradesRepo(tx, userId).page('all', undefined, 500, undefined, {}, { withRollupTotal: true }));
    const theirs = await app.server.database.withUser(otherId, (tx) =>
      tradesRepo(tx, otherId).page('all', undefined, 500, undefined, {}, { withRollupTotal: true }),
    );
    expect(mine.every((row) => row.userId === userId)).toBe(true);
    expect(mine[0]?.total).toBe(66);
    expect(theirs.map((row) => [row.userId, row.total])).toEqual([[otherId, 1]]);
  });

  it.runIf(backend === 'postgres')('a shape is parsed once per connection: its statement is run again by name', async () => {
    const runs = async (tx: Tx) => {
      const result = await tx.execute(
        sql`select coalesce(sum(generic_plans + custom_plans), 0)::int as n from pg_prepared_statements where name like 'trades_page%'`,
      );
      return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
    };
    await inTx(async (tx) => {
      const repo = tradesRepo(tx, userId);
      const before = await runs(tx);
      for (const account of ['all', accountA, 'all']) await repo.page(account, undefined, 10, undefined, {}, { withRollupTotal: true });
      expect((await runs(tx)) - before).toBe(3);
    });
  });
});
