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
 * Migration 0016 (trade_versions) on a database full of data written before it, on PGlite and PostgreSQL 15: every
 * trader with trades starts at version 1; afterwards every write the reports can see bumps the trader's version in
 * the same transaction (as the app role, under row-level security), a notes edit does not, a write in one trader's
 * trades leaves the others' alone, and deleting a trader (whose trades go by cascade) leaves nothing behind.
 */
const TRADE_VERSIONS_IDX = 16;

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
  /** Statements in one transaction as the app role with the trader's id set, as the server runs a request. */
  asTrader(userId: string, statements: string[]): Promise<void>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function open(backend: 'pglite' | 'postgres'): Promise<Db> {
  const asTrader = async (query: (text: string) => Promise<unknown>, userId: string, statements: string[]) => {
    await query('begin');
    try {
      await query(`select set_config('role', 'edgebook_app', true), set_config('app.user_id', '${userId}', true)`);
      for (const statement of statements) await query(statement);
      await query('commit');
    } catch (error) {
      await query('rollback');
      throw error;
    }
  };
  if (backend === 'pglite') {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    return {
      query: (text, params) => client.query(text, params) as Promise<{ rows: any[] }>,
      asTrader: (userId, statements) => asTrader((text) => client.query(text), userId, statements),
      migrate: (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: await createPostgresDatabase(), max: 2 });
  return {
    query: (text, params) => pool.query(text, params as unknown[]),
    async asTrader(userId, statements) {
      const client = await pool.connect();
      try {
        await asTrader((text) => client.query(text), userId, statements);
      } finally {
        client.release();
      }
    },
    migrate: (folder) => migratePg(drizzlePg({ client: pool }), { migrationsFolder: folder }),
    close: () => pool.end(),
  };
}

const ALICE = 'user-alice-0016';
const BOB = 'user-bob-0016';
const CAROL = 'user-carol-0016';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.each(backends())('migration trade_versions on a database with data on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts every trader with trades at version 1, then bumps with every write a report can see', async () => {
    const db = await open(backend);
    try {
      const before = migrationsBefore(TRADE_VERSIONS_IDX);
      folders.push(before);
      await db.migrate(before);
      await db.query(
        `insert into "user" (id, name, email) values ($1, 'Alice', 'alice@example.com'), ($2, 'Bob', 'bob@example.com'), ($3, 'Carol', 'carol@example.com')`,
        [ALICE, BOB, CAROL],
      );
      // Two traders with a thousand trades between them, one without any.
      await db.query(
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl)
         select ('00000000-0000-4000-8000-' || lpad(g::text, 12, '0'))::uuid, case when g % 2 = 0 then $1 else $2 end,
                timestamptz '2025-01-06 12:00:00+00' + (g % 200) * interval '1 day', 'Monday', 'NQ', 'AM',
                case when g % 3 = 0 then 'Loss' else 'Win' end, case when g % 3 = 0 then -10 else 20 end
         from generate_series(1, 1000) g`,
        [ALICE, BOB],
      );

      await db.migrate(migrationsFolder);

      const versions = async () =>
        Object.fromEntries(
          (await db.query(`select user_id, version from trade_versions order by user_id`)).rows.map((r) => [r.user_id, Number(r.version)]),
        );
      expect(await versions()).toEqual({ [ALICE]: 1, [BOB]: 1 });

      // A new trade, an edit of its P&L, an edit of its notes only, a delete: Alice's version moves with what a report reads.
      await db.asTrader(ALICE, [
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl) values ('${id(5000)}', '${ALICE}', '2025-08-01T12:00:00Z', 'Friday', 'ES', 'PM', 'Win', 30)`,
      ]);
      expect(await versions()).toEqual({ [ALICE]: 2, [BOB]: 1 });
      await db.asTrader(ALICE, [`update trades set pnl = -30, status = 'Loss' where id = '${id(5000)}'`]);
      expect((await versions())[ALICE]).toBe(3);
      await db.asTrader(ALICE, [`update trades set notes = 'chased it', link = 'https://example.com' where id = '${id(5000)}'`]);
      expect((await versions())[ALICE]).toBe(3);
      await db.asTrader(ALICE, [`update trades set tags = array['FOMO'] where id = '${id(5000)}'`]);
      expect((await versions())[ALICE]).toBe(4);
      // One statement of many rows is one bump; two statements in one transaction are two.
      await db.asTrader(ALICE, [
        `delete from trades where user_id = '${ALICE}' and trade_date < '2025-02-01'`,
        `update trades set symbol = 'MNQ' where id = '${id(5000)}'`,
      ]);
      expect(await versions()).toEqual({ [ALICE]: 6, [BOB]: 1 });

      // Carol's first trade gives her a version; her trades gone, she keeps it (a cached copy with trades is never current).
      await db.asTrader(CAROL, [
        `insert into trades (id, user_id, trade_date, day_of_week, symbol, period, status, pnl) values ('${id(6000)}', '${CAROL}', '2025-08-01T12:00:00Z', 'Friday', 'ES', 'PM', 'Win', 1)`,
      ]);
      expect((await versions())[CAROL]).toBe(1);
      await db.asTrader(CAROL, [`delete from trades where user_id = '${CAROL}'`]);
      expect((await versions())[CAROL]).toBe(2);
      // Under row-level security a trader sees only their own version.
      await db.query('begin');
      await db.query(`select set_config('role', 'edgebook_app', true), set_config('app.user_id', '${BOB}', true)`);
      expect((await db.query('select user_id from trade_versions')).rows.map((r) => r.user_id)).toEqual([BOB]);
      await db.query('rollback');

      // Deleting Bob takes his trades by cascade: their trigger runs while he goes, and nothing of his is left.
      await db.query(`delete from "user" where id = $1`, [BOB]);
      expect(await versions()).toEqual({ [ALICE]: 6, [CAROL]: 2 });
      expect((await db.query(`select count(*)::int as n from trades where user_id = $1`, [BOB])).rows[0].n).toBe(0);
    } finally {
      await db.close();
    }
  });
});
