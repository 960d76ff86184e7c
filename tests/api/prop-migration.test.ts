import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, pgliteExtensions } from '../../src/server/db/client';
import { backends, createPostgresDatabase } from '../support/app';

/**
 * Migration on a database that holds a trader's data: the balance widget's one starting balance
 * (user_preferences.starting_balance) becomes each of the trader's accounts' own, so what every account showed stays
 * what it shows; accounts become personal; a trader who never set a balance keeps the spec's 10000. Run from the
 * migrations before it, on both databases.
 */
const MIGRATION = '0021_prop_accounts';

type Runner = {
  run: (query: ReturnType<typeof sql>) => Promise<Array<Record<string, unknown>>>;
  migrate: (folder: string) => Promise<void>;
  close: () => Promise<void>;
};

async function openRunner(backend: 'pglite' | 'postgres'): Promise<Runner> {
  if (backend === 'pglite') {
    const client = await PGlite.create({ extensions: pgliteExtensions });
    const db = drizzlePglite({ client });
    return {
      run: async (query) => (await db.execute(query)).rows as Array<Record<string, unknown>>,
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: await createPostgresDatabase(), max: 2 });
  const db = drizzlePg(pool);
  return {
    run: async (query) => (await db.execute(query)).rows as Array<Record<string, unknown>>,
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    close: () => pool.end(),
  };
}

describe.each(backends())('the prop accounts migration on %s', (backend) => {
  let before: string;
  let runner: Runner;
  beforeAll(async () => {
    // The migrations folder as it was before this one: every file, and the journal up to the entry before it (a later
    // migration already applied would stand in its way: drizzle applies only what is newer than the newest it ran).
    before = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-before-prop-'));
    fs.mkdirSync(path.join(before, 'meta'));
    for (const file of fs.readdirSync(migrationsFolder))
      if (file.endsWith('.sql')) fs.copyFileSync(path.join(migrationsFolder, file), path.join(before, file));
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ tag: string; idx: number }>;
    };
    const idx = journal.entries.find((e) => e.tag === MIGRATION)!.idx;
    journal.entries = journal.entries.filter((e) => e.idx < idx);
    fs.writeFileSync(path.join(before, 'meta', '_journal.json'), JSON.stringify(journal));
    runner = await openRunner(backend);
  });
  afterAll(async () => {
    await runner?.close();
    fs.rmSync(before, { recursive: true, force: true });
  });

  it("keeps the balance each account showed: the trader's set balance for each account, 10000 where none was set", async () => {
    await runner.migrate(before);
    await runner.run(sql`insert into "user" (id, name, email) values ('set', 'Set', 'set@example.com'), ('unset', 'Unset', 'unset@example.com')`);
    await runner.run(sql`insert into user_preferences (user_id, starting_balance) values ('set', '25000.50')`);
    await runner.run(sql`insert into trading_accounts (id, user_id, name, is_default) values
      ('11111111-1111-4111-8111-111111111111', 'set', 'Main', true),
      ('22222222-2222-4222-8222-222222222222', 'set', 'Combine', false),
      ('33333333-3333-4333-8333-333333333333', 'unset', 'Only', true)`);
    await runner.run(sql`insert into trades (user_id, account_id, trade_date, day_of_week, pnl) values
      ('set', '11111111-1111-4111-8111-111111111111', '2026-03-16T12:00:00Z', 'Monday', '-125.25')`);

    await runner.migrate(migrationsFolder);

    const accounts = await runner.run(
      sql`select name, kind, size, starting_balance::text as starting_balance, firm, trades_version::int as version from trading_accounts order by name`,
    );
    expect(accounts).toEqual([
      { name: 'Combine', kind: 'personal', size: null, starting_balance: '25000.50', firm: null, version: 0 },
      { name: 'Main', kind: 'personal', size: null, starting_balance: '25000.50', firm: null, version: 0 },
      { name: 'Only', kind: 'personal', size: null, starting_balance: '10000.00', firm: null, version: 0 },
    ]);
    const columns = await runner.run(
      sql`select column_name from information_schema.columns where table_name = 'user_preferences' and column_name = 'starting_balance'`,
    );
    expect(columns).toEqual([]);

    // From now on a write of an account's trades moves its version, and only that account's.
    await runner.run(sql`update trades set pnl = '-130.00' where user_id = 'set'`);
    await runner.run(sql`update trades set notes = 'only the notes'`);
    const versions = await runner.run(sql`select name, trades_version::int as version from trading_accounts order by name`);
    expect(versions).toEqual([
      { name: 'Combine', version: 0 },
      { name: 'Main', version: 1 },
      { name: 'Only', version: 0 },
    ]);
  });
});
