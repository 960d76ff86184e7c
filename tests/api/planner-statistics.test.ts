import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { ANALYZE_AFTER_ROWS, ANALYZE_COLUMNS_PER_STATEMENT, pgliteRefreshStatements } from '../../src/server/db/client';
import { trades } from '../../src/server/db/schema';
import { backends, startTestApp, type TestApp } from '../support/app';
import { addDays, createAccount, importTrades, newTrader } from './trades-support';

/**
 * After a large write the planner's statistics of the trades are refreshed before the write answers,
 * on both databases (PGlite runs no autovacuum; PostgreSQL's waits for its threshold and nap). Without them the Trade
 * Log's first page was planned as if the table were empty; refreshed after the answer, the ANALYZE slowed the first
 * pages the trader opened right then.
 */
describe.each(backends())('planner statistics on %s', (backend) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  const read = async (table = 'trades') => {
    const result = await app.server.database.db.execute(sql`
      select c.reltuples::float8 as tuples, coalesce(s.analyze_count, 0)::int as analyzed, coalesce(s.vacuum_count, 0)::int as vacuumed
      from pg_class c left join pg_stat_user_tables s on s.relid = c.oid where c.relname = ${table}`);
    return (result as unknown as { rows: Array<{ tuples: number; analyzed: number; vacuumed: number }> }).rows[0]!;
  };
  /** The counters of the statistics views are flushed a moment after the statement on PostgreSQL. */
  const readUntil = async (table: string, done: (row: Awaited<ReturnType<typeof read>>) => boolean) => {
    let row = await read(table);
    for (let i = 0; i < 100 && !done(row); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = await read(table);
    }
    return row;
  };

  it('a restore of more rows than the threshold answers once an ANALYZE of the trades has run', async () => {
    const before = await read();
    const t = await newTrader(app, 'analyze');
    const account = await createAccount(t, 'Analyzed');
    const count = ANALYZE_AFTER_ROWS + 200;
    const rows = Array.from({ length: count }, (_, i) => ({ id: `a-${i}`, date: addDays('2025-01-06', i % 50), period: 'AM', pnl: '1.00' }));
    expect((await importTrades(t, account.id, rows)).imported).toBe(count);
    // The row estimate is written by the ANALYZE itself, in its transaction: the planner knows the rows at the answer
    // (a never-analyzed table reads -1 or its page estimate; an INSERT does not change it).
    expect((await read()).tuples).toBeGreaterThanOrEqual(count);
    const after = await readUntil('trades', (row) => row.analyzed > before.analyzed);
    expect(after.analyzed).toBeGreaterThan(before.analyzed);
    // Every column has its statistics, though the embedded database analyses a few columns a statement.
    const analyzed = await app.server.database.db.execute(sql`select attname from pg_stats where tablename = 'trades'`);
    const names = (analyzed as unknown as { rows: Array<{ attname: string }> }).rows.map((r) => r.attname).sort();
    expect(names).toEqual(
      Object.values(getTableColumns(trades))
        .map((c) => c.name)
        .sort(),
    );
  });

  it("a large import vacuums the trades' day rollups, which it rewrote once per statement of its inserts", async () => {
    const before = await read('trade_day_rollups');
    const t = await newTrader(app, 'vacuum');
    const account = await createAccount(t, 'Vacuumed');
    // 1,200 trades over 60 days: every statement of the import's inserts updates each day's rollup rows again.
    const count = ANALYZE_AFTER_ROWS + 200;
    const rows = Array.from({ length: count }, (_, i) => ({ id: `v-${i}`, date: addDays('2025-03-03', i % 60), period: 'AM', pnl: '2.50' }));
    expect((await importTrades(t, account.id, rows)).imported).toBe(count);
    // A manual VACUUM (autovacuum has a counter of its own), with its ANALYZE.
    const after = await readUntil('trade_day_rollups', (row) => row.vacuumed > before.vacuumed && row.analyzed > before.analyzed);
    expect(after.vacuumed).toBeGreaterThan(before.vacuumed);
    expect(after.analyzed).toBeGreaterThan(before.analyzed);
    // The trader's count the Trade Log sums from those rollups is still every trade.
    expect((await t.get('/api/trades?limit=1')).body.total).toBe(count);
  });
});

describe('the embedded refresh of the trades statistics', () => {
  it('analyses every column of trades exactly once, a few a statement, after the rollups', () => {
    const [rollups, ...parts] = pgliteRefreshStatements();
    expect(rollups).toBe('vacuum (analyze) trade_day_rollups');
    const named = parts.flatMap((statement) => {
      const list = /^analyze trades \((.+)\)$/.exec(statement)?.[1];
      expect(list).toBeDefined();
      const columns = list!.split(', ').map((c) => c.replaceAll('"', ''));
      expect(columns.length).toBeLessThanOrEqual(ANALYZE_COLUMNS_PER_STATEMENT);
      return columns;
    });
    expect(named.sort()).toEqual(
      Object.values(getTableColumns(trades))
        .map((c) => c.name)
        .sort(),
    );
  });
});
