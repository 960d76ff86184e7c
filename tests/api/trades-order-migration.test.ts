import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder, pgliteExtensions } from '../../src/server/db/client';
import { backends, createPostgresDatabase } from '../support/app';

/**
 * Migration 0013 (trading_order) on a database full of data written before it: the rollups the old function stored
 * (a day's results read by creation time, then id) are recomputed in the trading order, and imported futures trades
 * get the exchange's sessions, on PGlite and on PostgreSQL 15.
 */
const TRADING_ORDER_IDX = 13;

/** The migrations folder as it was before this one: the journal and files up to migration 0012. */
function migrationsBefore(idx: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < idx);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

interface Db {
  query(text: string, params?: unknown[]): Promise<{ rows: any[] }>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function open(backend: 'pglite' | 'postgres'): Promise<Db> {
  if (backend === 'pglite') {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    return {
      query: (text, params) => client.query(text, params) as Promise<{ rows: any[] }>,
      migrate: (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: await createPostgresDatabase(), max: 2 });
  return {
    query: (text, params) => pool.query(text, params as unknown[]),
    migrate: (folder) => migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder }),
    close: () => pool.end(),
  };
}

const USER = 'user-before-0013';
const OTHER = 'user-without-sessions';
const ACCOUNT = '0d9a2d71-0000-4000-8000-000000000001';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.each(backends())('migration trading_order on a database with data on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('recomputes every stored rollup in the trading order and re-labels imported futures by the exchange sessions', async () => {
    const db = await open(backend);
    try {
      const before = migrationsBefore(TRADING_ORDER_IDX);
      folders.push(before);
      await db.migrate(before);
      await db.query(`insert into "user" (id, name, email) values ($1, 'Before', 'before@example.com'), ($2, 'Other', 'other@example.com')`, [
        USER,
        OTHER,
      ]);
      await db.query(`insert into trading_accounts (id, user_id, name) values ($1, $2, 'Combine')`, [ACCOUNT, USER]);
      // One import: one statement, one created_at. By entry the results alternate W L W L; by id they are W W L L.
      // Sessions as the old rule gave them (hour in New York: < 12 AM, < 14 Lunch, < 20 PM, else Overnight).
      const row = (n: number, entry: string, status: 'Win' | 'Loss', period: string, extra: Partial<Record<string, string | null>> = {}) => ({
        id: id(n),
        entry,
        status,
        period,
        symbol: 'MNQ',
        contract: 'MNQM5',
        source: 'tradovate-performance',
        ...extra,
      });
      const imported = [
        row(1, '2025-06-10T06:15:00Z', 'Win', 'AM'), // 02:15 New York: Overnight now
        row(2, '2025-06-10T14:30:00Z', 'Win', 'AM'), // 10:30: AM stays
        row(3, '2025-06-10T13:40:00Z', 'Loss', 'AM'), // 09:40: AM stays
        row(4, '2025-06-10T20:30:00Z', 'Loss', 'PM'), // 16:30: After Hours now
        // 02:15, but a session the trader set by hand: kept
        row(5, '2025-06-11T06:15:00Z', 'Win', 'Lunch'),
        // a stock and a restored manual trade (json-backup) keep the old rule's label
        row(6, '2025-06-11T20:30:00Z', 'Win', 'PM', { symbol: 'AAPL', contract: 'AAPL', source: 'ibkr-activity' }),
        row(7, '2025-06-11T06:20:00Z', 'Loss', 'AM', { source: 'json-backup' }),
        // an undated futures root (NQ) at 13:45 New York (PM by both rules) and at 17:00 (After Hours now)
        row(8, '2025-06-11T17:45:00Z', 'Win', 'PM', { symbol: 'NQ', contract: null }),
        row(9, '2025-06-11T21:00:00Z', 'Loss', 'PM', { symbol: 'NQ', contract: null }),
      ];
      await db.query(
        `insert into trades (id, user_id, account_id, trade_date, day_of_week, symbol, contract, period, status, pnl, tags,
           entry_time, exit_time, import_source, created_at)
         select r.id::uuid, $1, $2, (r.entry::timestamptz at time zone 'America/New_York')::date::timestamp at time zone 'UTC' + interval '12 hours',
           'Tuesday', r.symbol, r.contract, r.period, r.status, case r.status when 'Win' then 10 else -10 end,
           array['Imported', r.symbol, r.period], r.entry::timestamptz, r.entry::timestamptz + interval '5 minutes', r.source, now()
         from json_to_recordset($3::json) as r(id text, entry text, status text, period text, symbol text, contract text, source text)`,
        [USER, ACCOUNT, JSON.stringify(imported)],
      );
      // Manual trades (no times) of 12 June written one after another: W, L, keep creation order.
      await db.query(
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl, created_at) values
           ($2, $1, '2025-06-12T12:00:00Z', 'Thursday', 'ES', 'AM', 'Win', 5, '2025-06-12T15:00:00Z'),
           ($3, $1, '2025-06-12T12:00:00Z', 'Thursday', 'ES', 'AM', 'Loss', -5, '2025-06-12T16:00:00Z')`,
        [USER, id(99), id(98)],
      );
      await db.query(
        `insert into user_trade_preferences (user_id, preference_type, preference_value) values
           ($1, '_seeded', ''), ($1, 'session', 'AM'), ($1, 'session', 'after hours'), ($2, '_seeded', '')`,
        [USER, OTHER],
      );
      const rollup = async (day: string, scope = 'all') =>
        (
          await db.query(
            `select trades, head_result, head_run, tail_result, tail_run, max_win_run, max_loss_run from trade_day_rollups
             where user_id = $1 and scope = $2 and day = $3`,
            [USER, scope, day],
          )
        ).rows[0];
      // The old function read 10 June by id: W W L L.
      expect(await rollup('2025-06-10')).toEqual({
        trades: 4,
        head_result: 'W',
        head_run: 2,
        tail_result: 'L',
        tail_run: 2,
        max_win_run: 2,
        max_loss_run: 2,
      });

      await db.migrate(migrationsFolder);

      // By entry: 02:15 W, 09:40 L, 10:30 W, 16:30 L.
      for (const scope of ['all', ACCOUNT]) {
        expect(await rollup('2025-06-10', scope), scope).toEqual({
          trades: 4,
          head_result: 'W',
          head_run: 1,
          tail_result: 'L',
          tail_run: 1,
          max_win_run: 1,
          max_loss_run: 1,
        });
      }
      // 11 June by entry: 02:15 W, 02:20 L, 13:45 W, 16:30 W, 17:00 L.
      expect(await rollup('2025-06-11')).toEqual({
        trades: 5,
        head_result: 'W',
        head_run: 1,
        tail_result: 'L',
        tail_run: 1,
        max_win_run: 2,
        max_loss_run: 1,
      });
      expect(await rollup('2025-06-12', 'none')).toEqual({
        trades: 2,
        head_result: 'W',
        head_run: 1,
        tail_result: 'L',
        tail_run: 1,
        max_win_run: 1,
        max_loss_run: 1,
      });
      // 'all' and the account for 10 and 11 June, 'all' and unassigned ('none') for 12 June.
      const count = await db.query(`select count(*)::int as n from trade_day_rollups where user_id = $1`, [USER]);
      expect(count.rows[0].n).toBe(6);
      const periods = await db.query(`select id::text, period, tags from trades where user_id = $1 order by id`, [USER]);
      expect(periods.rows.map((r: { id: string; period: string; tags: string[] }) => [r.id, r.period, r.tags.at(-1)])).toEqual([
        [id(1), 'Overnight', 'Overnight'],
        [id(2), 'AM', 'AM'],
        [id(3), 'AM', 'AM'],
        [id(4), 'After Hours', 'After Hours'],
        [id(5), 'Lunch', 'Lunch'],
        [id(6), 'PM', 'PM'],
        [id(7), 'AM', 'AM'],
        [id(8), 'PM', 'PM'],
        [id(9), 'After Hours', 'After Hours'],
        [id(98), 'AM', undefined],
        [id(99), 'AM', undefined],
      ]);
      // The exchange's sessions join a session list that has sessions ('after hours' is there already, in any case).
      const sessions = await db.query(
        `select user_id, preference_value from user_trade_preferences where preference_type = 'session' order by user_id, preference_value`,
      );
      expect(sessions.rows.map((r: { user_id: string; preference_value: string }) => [r.user_id, r.preference_value])).toEqual([
        [USER, 'AM'],
        [USER, 'Overnight'],
        [USER, 'after hours'],
      ]);
      // The list's indexes hold the trading order (the playbook and notes indexes of later migrations are not among them).
      const indexes = await db.query(
        `select indexname from pg_indexes where tablename = 'trades' and indexname like 'trades_user_%'
           and indexname not in ('trades_user_playbook_idx', 'trades_user_notes_idx') order by 1`,
      );
      expect(indexes.rows.map((r: { indexname: string }) => r.indexname)).toEqual(['trades_user_account_order_idx', 'trades_user_order_idx']);
    } finally {
      await db.close();
    }
  });
});
