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
import { fastPasswordHashing } from '../support/fast-password';
import { backends, createPostgresDatabase, startTestApp, type Backend } from '../support/app';

/**
 * Upgrading an instance: a database built by an older release (the schema as it stood after the fills and market
 * data migration, with the rows that release wrote) is opened by today's server, which migrates it at start. The
 * trader then signs in with the password of that time, and every figure of their trades (the Trade Log in trading
 * order, fills, the overview, the calendar, the per-account breakdown) is what the rows say, to the cent, on the
 * embedded database and on PostgreSQL.
 */
const OLDER_RELEASE_LAST_IDX = 22;
const PASSWORD = 'an older release, 2025';
const EMAIL = 'dana-upgrade@example.com';
const USER = '3f9d2b64-0000-4000-8000-00000000d0a1';
const COMBINE = '5b0e8a1c-0000-4000-8000-000000000001';
const PERSONAL = '5b0e8a1c-0000-4000-8000-000000000002';
const trade = (n: number) => `7c1d0f2a-0000-4000-8000-${String(n).padStart(12, '0')}`;

function migrationsThrough(lastIdx: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-older-release-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= lastIdx);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

type Query = (text: string, params?: unknown[]) => Promise<unknown>;

/** What the older release stored for one trader: two accounts, five trades (two imported with their fills). */
async function fillAsTheOlderReleaseDid(query: Query): Promise<void> {
  await query(`insert into "user" (id, name, email, email_verified) values ($1, 'Dana', $2, true)`, [USER, EMAIL]);
  await query(`insert into account (id, account_id, provider_id, user_id, password) values ('acct-dana', $1, 'credential', $1, $2)`, [
    USER,
    await fastPasswordHashing.hash(PASSWORD),
  ]);
  await query(`insert into user_preferences (user_id, time_zone) values ($1, 'America/New_York')`, [USER]);
  await query(
    `insert into trading_accounts (id, user_id, name, is_default, kind, starting_balance) values ($1, $3, 'Combine', true, 'personal', 50000), ($2, $3, 'Personal', false, 'personal', 10000)`,
    [COMBINE, PERSONAL, USER],
  );
  const insert = `insert into trades (id, user_id, account_id, trade_date, day_of_week, symbol, contract, period, side, status, pnl, commission,
      gross_pnl, entry_time, exit_time, entry_price, exit_price, quantity, import_source, import_key, created_at)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`;
  const rows: unknown[][] = [
    // Imported: MNQH5 long 2, 21000 -> 21010: 10 pts x $2 x 2 = $40.00 gross, $2.08 fees, $37.92 net.
    [
      trade(1),
      USER,
      COMBINE,
      '2025-03-03T00:00:00Z',
      'Monday',
      'MNQ',
      'MNQH5',
      'AM',
      'Long',
      'Win',
      '37.92',
      '2.08',
      '40.00',
      '2025-03-03T14:35:00Z',
      '2025-03-03T14:50:00Z',
      '21000',
      '21010',
      '2',
      'tradovate',
      'k1',
      '2025-03-07T12:00:00Z',
    ],
    // A manual short of ES the same afternoon: -$120.50 gross, $4.50 fees, -$125.00 net.
    [
      trade(2),
      USER,
      COMBINE,
      '2025-03-03T00:00:00Z',
      'Monday',
      'ES',
      null,
      'PM',
      'Short',
      'Loss',
      '-125.00',
      '4.50',
      '-120.50',
      '2025-03-03T19:10:00Z',
      '2025-03-03T19:30:00Z',
      '5910',
      '5912.41',
      '1',
      null,
      null,
      '2025-03-07T12:00:01Z',
    ],
    // A manual NQ day of the other account, no times: +$250.00.
    [
      trade(3),
      USER,
      PERSONAL,
      '2025-03-04T00:00:00Z',
      'Tuesday',
      'NQ',
      null,
      'AM',
      null,
      'Win',
      '250.00',
      '0',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      '2025-03-07T12:00:02Z',
    ],
    // Imported: MESH5 long 1, 5900 -> 5898: -2 pts x $5 = -$10.00 gross, $0.62 fees, -$10.62 net.
    [
      trade(4),
      USER,
      COMBINE,
      '2025-03-05T00:00:00Z',
      'Wednesday',
      'MES',
      'MESH5',
      'AM',
      'Long',
      'Loss',
      '-10.62',
      '0.62',
      '-10.00',
      '2025-03-05T15:00:00Z',
      '2025-03-05T15:05:00Z',
      '5900',
      '5898',
      '1',
      'tradovate',
      'k4',
      '2025-03-07T12:00:03Z',
    ],
    // Break-even on Thursday.
    [
      trade(5),
      USER,
      PERSONAL,
      '2025-03-06T00:00:00Z',
      'Thursday',
      'ES',
      null,
      'AM',
      null,
      'BE',
      '0',
      '0',
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      '2025-03-07T12:00:04Z',
    ],
  ];
  for (const row of rows) await query(insert, row);
  const fill = `insert into trade_fills (user_id, trade_id, seq, time, side, quantity, price, commission, broker_id) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
  await query(fill, [USER, trade(1), 0, '2025-03-03T14:35:00Z', 'Buy', '2', '21000', '1.04', 'F1']);
  await query(fill, [USER, trade(1), 1, '2025-03-03T14:50:00Z', 'Sell', '2', '21010', '1.04', 'F2']);
  await query(fill, [USER, trade(4), 0, '2025-03-05T15:00:00Z', 'Buy', '1', '5900', '0.31', 'F3']);
  await query(fill, [USER, trade(4), 1, '2025-03-05T15:05:00Z', 'Sell', '1', '5898', '0.31', 'F4']);
}

/** Builds the older release's database and returns what today's server needs to open it. */
async function olderRelease(backend: Backend, folders: string[]): Promise<Record<string, string>> {
  const migrations = migrationsThrough(OLDER_RELEASE_LAST_IDX);
  folders.push(migrations);
  if (backend === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-older-data-'));
    folders.push(dataDir);
    // The server keeps the embedded database in DATA_DIR/pglite.
    const client = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: pgliteExtensions });
    try {
      await migratePglite(drizzlePglite({ client }), { migrationsFolder: migrations });
      await fillAsTheOlderReleaseDid((text, params) => client.query(text, params));
    } finally {
      await client.close();
    }
    return { DATA_DIR: dataDir };
  }
  const url = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    await migratePg(drizzlePg({ client: pool }), { migrationsFolder: migrations });
    await fillAsTheOlderReleaseDid((text, params) => pool.query(text, params as unknown[]));
  } finally {
    await pool.end();
  }
  return { DATABASE_URL: url };
}

describe.each(backends())('upgrading a database of an older release on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("migrates at start; the trader signs in with the same password and every figure is the older rows' to the cent", async () => {
    const env = await olderRelease(backend, folders);
    const app = await startTestApp({ backend, env });
    try {
      const client = app.client();
      const signedIn = await client.post('/api/auth/sign-in/email', { email: EMAIL, password: PASSWORD });
      expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
      expect((await client.post('/api/auth/sign-in/email', { email: EMAIL, password: 'not the password' })).status).toBe(401);

      // The Trade Log, newest first in trading order: by day, then entry time.
      const listed = await client.get('/api/trades?limit=50');
      expect(listed.status, JSON.stringify(app.logs.filter((l) => Number(l.level) >= 50))).toBe(200);
      const list = listed.body as { trades: Array<Record<string, unknown>> };
      expect(list.trades.map((t) => [t.id, t.date, Number(t.pnl), Number(t.commission), t.status])).toEqual([
        [trade(5), '2025-03-06', 0, 0, 'BE'],
        [trade(4), '2025-03-05', -10.62, 0.62, 'Loss'],
        [trade(3), '2025-03-04', 250, 0, 'Win'],
        [trade(2), '2025-03-03', -125, 4.5, 'Loss'],
        [trade(1), '2025-03-03', 37.92, 2.08, 'Win'],
      ]);

      // The imported trades keep their fills in the order traded.
      const fills = (await client.get(`/api/trades/${trade(1)}/fills`)).body as { fills: Array<{ side: string; quantity: string; price: string }> };
      expect(fills.fills.map((f) => [f.side, f.quantity, f.price])).toEqual([
        ['Buy', '2', '21000'],
        ['Sell', '2', '21010'],
      ]);

      // The overview of every trade: 37.92 - 125.00 + 250.00 - 10.62 + 0 = 152.30 net; 7.20 fees; 159.50 gross.
      const overview = (await client.get('/api/reports/overview?range=all-time')).body.overview;
      expect(overview).toMatchObject({
        trades: 5,
        wins: 2,
        losses: 2,
        breakEvens: 1,
        netCents: 15_230,
        feesCents: 720,
        grossCents: 15_950,
        winRate: 50,
      });
      expect(overview.largestWin).toMatchObject({ pnlCents: 25_000 });
      expect(overview.largestLoss).toMatchObject({ pnlCents: -12_500 });

      // The calendar: each trading day's net.
      const calendar = (await client.get('/api/reports/calendar?range=all-time&year=2025')).body.calendar;
      expect(calendar.days.map((d: { tradeDate: string; trades: number; netCents: number }) => [d.tradeDate, d.trades, d.netCents])).toEqual([
        ['2025-03-03', 2, -8_708],
        ['2025-03-04', 1, 25_000],
        ['2025-03-05', 1, -1_062],
        ['2025-03-06', 1, 0],
      ]);
      expect(calendar).toMatchObject({ netCents: 15_230, trades: 5 });

      // Per account: Combine 37.92 - 125.00 - 10.62 = -97.70; Personal +250.00.
      const byAccount = (await client.get('/api/reports/breakdown?range=all-time&by=account')).body.breakdown.rows as Array<{
        label: string;
        trades: number;
        netCents: number;
      }>;
      expect(Object.fromEntries(byAccount.map((r) => [r.label, [r.trades, r.netCents]]))).toEqual({ Combine: [3, -9_770], Personal: [2, 25_000] });

      // Writing still works after the upgrade, and the figures follow.
      expect((await client.post('/api/trades', { date: '2025-03-07', period: 'AM', symbol: 'NQ', pnl: -50.25, account_id: PERSONAL })).status).toBe(
        201,
      );
      expect((await client.get('/api/reports/overview?range=all-time')).body.overview).toMatchObject({ trades: 6, netCents: 10_205 });
    } finally {
      await app.close();
    }
  });
});
