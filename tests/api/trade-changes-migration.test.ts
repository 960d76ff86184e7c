import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client';
import { backends } from '../support/app';
import { migrationsBefore, openMigratingDb, type MigratingDb } from './migration-support';

/**
 * Migration 0030 (trade_changes) on a database full of trades written before it, on PGlite and PostgreSQL 15: nothing
 * is logged for what came before (a copy at any earlier version is read whole); afterwards each write logs the trades
 * it changed under the version it bumped to, as the app role under row-level security; a notes edit logs nothing and a
 * trade's own plan is logged; a write of more than 20,000 trades is not logged and a log that would pass 20,000 rows
 * is emptied first, `logged_after` moving up with it; deleting a trader leaves nothing behind.
 */
const TRADE_CHANGES_IDX = 30;
const ALICE = 'user-alice-0030';
const BOB = 'user-bob-0030';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function asTrader(db: MigratingDb, userId: string, statement: string) {
  await db.query('begin');
  try {
    await db.query(`select set_config('role', 'edgebook_app', true), set_config('app.user_id', '${userId}', true)`);
    await db.query(statement);
    await db.query('commit');
  } catch (error) {
    await db.query('rollback');
    throw error;
  }
}

describe.each(backends())('migration trade_changes on a database with data on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('logs from its version on, bounded, what every write changed', async () => {
    const db = await openMigratingDb(backend);
    try {
      const before = migrationsBefore(TRADE_CHANGES_IDX);
      folders.push(before);
      await db.migrate(before);
      await db.query(`insert into "user" (id, name, email) values ($1, 'Alice', 'alice@example.com'), ($2, 'Bob', 'bob@example.com')`, [ALICE, BOB]);
      // Alice: 42,000 trades in two statements (version 2); Bob: 10 (version 1).
      const insert = (user: string, from: number, to: number) =>
        db.query(
          `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl)
           select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, $1, timestamptz '2024-01-01 12:00:00+00' + (g % 700) * interval '1 day',
                  'Monday', 'NQ', 'AM', case when g % 3 = 0 then 'Loss' else 'Win' end, case when g % 3 = 0 then -10 else 20 end
           from generate_series($2::int, $3::int) g`,
          [user, from, to],
        );
      await insert(ALICE, 1, 21_000);
      await insert(ALICE, 21_001, 42_000);
      await insert(BOB, 50_001, 50_010);

      await db.migrate(migrationsFolder);

      const state = async (user: string) => {
        const [v] = (await db.query(`select version, logged_after, logged_rows from trade_versions where user_id = $1`, [user])).rows;
        const log = (
          await db.query(`select version, count(*)::int as n from trade_changes where user_id = $1 group by version order by version`, [user])
        ).rows;
        return {
          version: Number(v.version),
          loggedAfter: Number(v.logged_after),
          loggedRows: Number(v.logged_rows),
          log: Object.fromEntries(log.map((r) => [Number(r.version), r.n])),
        };
      };
      expect(await state(ALICE)).toEqual({ version: 2, loggedAfter: 2, loggedRows: 0, log: {} });
      expect(await state(BOB)).toEqual({ version: 1, loggedAfter: 1, loggedRows: 0, log: {} });

      // One insert, one edit of the P&L, a notes edit, an edit of the trade's own plan, a delete of three.
      await asTrader(
        db,
        ALICE,
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl) values ('${id(90_000)}', '${ALICE}', '2025-08-01T12:00:00Z', 'Friday', 'ES', 'PM', 'Win', 30)`,
      );
      await asTrader(db, ALICE, `update trades set pnl = -30, status = 'Loss' where id = '${id(90_000)}'`);
      await asTrader(db, ALICE, `update trades set notes = 'chased it' where id = '${id(90_000)}'`);
      await asTrader(db, ALICE, `update trades set risk_amount = 120 where id = '${id(90_000)}'`);
      await asTrader(db, ALICE, `delete from trades where id in ('${id(1)}', '${id(2)}', '${id(3)}')`);
      expect(await state(ALICE)).toEqual({ version: 6, loggedAfter: 2, loggedRows: 6, log: { 3: 1, 4: 1, 5: 1, 6: 3 } });
      const changed = (await db.query(`select trade_id from trade_changes where user_id = $1 and version > 5 order by trade_id`, [ALICE])).rows.map(
        (r) => r.trade_id,
      );
      expect(changed).toEqual([id(1), id(2), id(3)]);
      expect(await state(BOB)).toEqual({ version: 1, loggedAfter: 1, loggedRows: 0, log: {} });

      // Under row-level security a trader reads only their own log.
      await db.query('begin');
      await db.query(`select set_config('role', 'edgebook_app', true), set_config('app.user_id', '${BOB}', true)`);
      await db.query(`update trades set pnl = 1 where user_id = '${BOB}' and id = '${id(50_001)}'`);
      expect((await db.query('select distinct user_id from trade_changes')).rows.map((r) => r.user_id)).toEqual([BOB]);
      await db.query('rollback');

      // 20,001 trades in one statement: not logged, and a copy older than it is read whole.
      await asTrader(db, ALICE, `delete from trades where user_id = '${ALICE}' and id <= '${id(20_004)}'`);
      expect(await state(ALICE)).toEqual({ version: 7, loggedAfter: 7, loggedRows: 0, log: {} });
      // 15,000 logged; then 6,000 more would pass 20,000 rows: the log keeps the last write only.
      await asTrader(db, ALICE, `delete from trades where user_id = '${ALICE}' and id <= '${id(35_004)}'`);
      expect(await state(ALICE)).toEqual({ version: 8, loggedAfter: 7, loggedRows: 15_000, log: { 8: 15_000 } });
      await asTrader(db, ALICE, `update trades set pnl = pnl + 1 where user_id = '${ALICE}' and id <= '${id(41_004)}'`);
      expect(await state(ALICE)).toEqual({ version: 9, loggedAfter: 8, loggedRows: 6_000, log: { 9: 6_000 } });

      // Deleting a trader takes their trades, version and log by cascade.
      await db.query(`delete from "user" where id = $1`, [ALICE]);
      expect((await db.query(`select count(*)::int as n from trade_changes where user_id = $1`, [ALICE])).rows[0].n).toBe(0);
      expect((await db.query(`select count(*)::int as n from trade_versions where user_id = $1`, [ALICE])).rows[0].n).toBe(0);
    } finally {
      await db.close();
    }
  }, 180_000);
});
