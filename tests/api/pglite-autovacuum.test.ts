import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/server/db/client';

/**
 * PGlite has no autovacuum of its own: the server vacuums and analyses the embedded database's tables by PostgreSQL's
 * thresholds, only while nothing else runs (pglite-autovacuum.ts).
 */
describe('the embedded autovacuum', () => {
  let database: Database | undefined;
  afterEach(() => database?.close());

  const stats = async (db: Database) => {
    const result = await db.db.execute(
      sql`select n_dead_tup::int as dead, vacuum_count::int as vacuums, analyze_count::int as analyses from pg_stat_user_tables where relname = 'churn'`,
    );
    return (result as unknown as { rows: Array<{ dead: number; vacuums: number; analyses: number }> }).rows[0]!;
  };
  const churn = async (db: Database) => {
    await db.db.execute(sql`create table churn (id int primary key, x int)`);
    await db.db.execute(sql`insert into churn select i, 0 from generate_series(1, 2000) i`);
    await db.db.execute(sql`update churn set x = 1 where id <= 1500`);
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('vacuums and analyses a table past the thresholds once the database is idle, and waits while it is used', async () => {
    const db = (database = await openDatabase({ dataDir: 'memory://', autovacuum: { everyMs: 100, idleMs: 1_000 } }));
    await churn(db);
    // Used every 100 ms for 2.5 s: never idle for 1 s, so no round may start, though the table is due.
    for (let i = 0; i < 25; i++) {
      await db.db.execute(sql`select count(*) from churn`);
      await sleep(100);
    }
    const busy = await stats(db);
    expect(busy.dead).toBeGreaterThan(1000);
    expect(busy.vacuums).toBe(0);
    // Left alone: the next round finds it due (1,500 dead rows against 50 + 20% of 2,000) and vacuums it. Each look at
    // the statistics is a use too, so they are 1.5 s apart.
    let after = busy;
    for (let i = 0; i < 10 && after.vacuums === 0; i++) {
      await sleep(1_500);
      after = await stats(db);
    }
    expect(after.vacuums).toBe(1);
    expect(after.analyses).toBeGreaterThanOrEqual(1);
    expect(after.dead).toBe(0);
    // Nothing is due any more: later rounds leave it alone.
    await sleep(1_500);
    expect((await stats(db)).vacuums).toBe(1);
  });
});
