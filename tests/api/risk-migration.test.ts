import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client';
import { backends } from '../support/app';
import { migrationsBefore, openMigratingDb } from './migration-support';

/**
 * Migration 0024 (risk_playbooks) on a database full of trades written the old way, on PGlite and on
 * PostgreSQL 15: the sides stored in trade_type (the spec's samples' LONG/SHORT, imports' Long/Short, any case, Buy and
 * Sell) move into the side column, which wins when both say something, and the setup is left empty; real setups stay.
 */
const RISK_IDX = 24;
const USER = 'user-before-0024';
const OTHER = 'other-before-0024';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.each(backends())('migration risk_playbooks on a database with data on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('moves stored sides out of trade_type into side, keeps setups and results, and refuses a side that is no side', async () => {
    const db = await openMigratingDb(backend);
    try {
      const before = migrationsBefore(RISK_IDX);
      folders.push(before);
      await db.migrate(before);
      await db.query(
        `insert into "user" (id, name, email) values ($1, 'Before', 'before-0024@example.com'), ($2, 'Other', 'other-0024@example.com')`,
        [USER, OTHER],
      );
      // [n, trade_type, side, status, pnl]: as the spec's samples, the importers and old backups wrote them.
      const rows: Array<[number, string, string | null, string, number]> = [
        [1, 'LONG', null, 'Win', 120], // a spec sample
        [2, 'SHORT', null, 'Loss', -80],
        [3, 'Long', 'Long', 'Win', 40], // an import: the side copied into the type
        [4, 'Short', 'Long', 'Loss', -10], // both say something: the side from the fills wins
        [5, ' buy ', null, 'Win', 5], // a backup's broker words, spaces around
        [6, 'Sell', null, 'BE', 0],
        [7, 'Breakout', 'short', 'Win', 60], // a real setup, a lowercase side
        [8, 'Long squeeze', null, 'Loss', -25], // a setup that merely starts with a side word
        [9, 'A/A+', 'Flat', 'Win', 15], // a side that is none: dropped
        [10, '', null, 'Win', 1],
      ];
      await db.query(
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, trade_type, side, status, pnl)
         select r.id::uuid, $1, '2025-06-10T12:00:00Z', 'Tuesday', 'NQ', 'AM', r.type, r.side, r.status, r.pnl
         from json_to_recordset($2::json) as r(id text, type text, side text, status text, pnl numeric)`,
        [USER, JSON.stringify(rows.map(([n, type, side, status, pnl]) => ({ id: id(n), type, side, status, pnl })))],
      );
      await db.query(
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, trade_type, status, pnl)
         values ($2, $1, '2025-06-11T12:00:00Z', 'Wednesday', 'ES', 'PM', 'SHORT', 'Loss', -5)`,
        [OTHER, id(99)],
      );
      await db.query(
        `insert into user_trade_preferences (user_id, preference_type, preference_value) values
           ($1, 'trade_type', 'Long'), ($1, 'trade_type', 'SHORT'), ($1, 'trade_type', 'Breakout'), ($1, 'tag', 'Long')`,
        [USER],
      );
      const rollupsBefore = (await db.query(`select * from trade_day_rollups order by user_id, scope, day`)).rows;
      expect(rollupsBefore.length).toBeGreaterThan(0);

      await db.migrate(migrationsFolder);

      const after = await db.query(`select id::text, trade_type, side, status, pnl::text from trades order by id`);
      expect(after.rows.map((r: { trade_type: string; side: string | null }) => [r.trade_type, r.side])).toEqual([
        ['', 'Long'],
        ['', 'Short'],
        ['', 'Long'],
        ['', 'Long'],
        ['', 'Long'],
        ['', 'Short'],
        ['Breakout', 'Short'],
        ['Long squeeze', null],
        ['A/A+', null],
        ['', null],
        ['', 'Short'], // the other trader's sample
      ]);
      // Results and P&L are untouched, and so are the statistics' rollups.
      expect(after.rows.map((r: { status: string }) => r.status)).toEqual([...rows.map((r) => r[3]), 'Loss']);
      expect((await db.query(`select * from trade_day_rollups order by user_id, scope, day`)).rows).toEqual(rollupsBefore);
      // A side is no setup choice any more; a tag named Long stays a tag.
      const prefs = await db.query(`select preference_type, preference_value from user_trade_preferences where user_id = $1 order by 1, 2`, [USER]);
      expect(prefs.rows.map((r: { preference_type: string; preference_value: string }) => [r.preference_type, r.preference_value])).toEqual([
        ['tag', 'Long'],
        ['trade_type', 'Breakout'],
      ]);
      // From now on the column holds Long or Short only, and a plan is a stop or a dollar risk, not both.
      await expect(db.query(`update trades set side = 'LONG' where id = $1`, [id(10)])).rejects.toThrow(/trades_side/);
      await expect(db.query(`update trades set stop_price = 1, risk_amount = 1 where id = $1`, [id(10)])).rejects.toThrow(/trades_one_risk/);
    } finally {
      await db.close();
    }
  });
});
