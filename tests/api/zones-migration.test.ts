import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/server/db/client';
import { backends } from '../support/app';
import { migrationsBefore, openMigratingDb } from './migration-support';

/**
 * Migration 0034 (stored_time_zones) on a database whose zones were taken when Node could read them: each becomes a
 * zone PostgreSQL knows, spelled its way, so that no statement using it is refused any more.
 */
const IDX = 34;

describe.each(backends())('migration stored_time_zones on %s', (backend) => {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("brings traders', accounts' and prop rules' zones to the database's names", async () => {
    const db = await openMigratingDb(backend);
    try {
      const before = migrationsBefore(IDX);
      folders.push(before);
      await db.migrate(before);
      // [trader, their zone as stored before, what it becomes]
      const traders: Array<[string, string, string]> = [
        ['kept', 'Europe/London', 'Europe/London'],
        ['cased', 'america/new_york', 'America/New_York'],
        ['shouting', 'ASIA/TOKYO', 'Asia/Tokyo'],
        ['pacific-new', 'US/Pacific-New', 'America/Los_Angeles'],
        ['saskatchewan', 'Canada/East-Saskatchewan', 'America/Regina'],
        ['unknown', 'Mars/Olympus', 'America/New_York'],
        ['link', 'US/Eastern', 'US/Eastern'],
      ];
      for (const [name, zone] of traders) {
        await db.query(`insert into "user" (id, name, email) values ($1, $1, $1 || '@example.com')`, [name]);
        await db.query(`insert into user_preferences (user_id, time_zone) values ($1, $2)`, [name, zone]);
      }
      const accounts = await db.query(
        `insert into trading_accounts (user_id, name, import_time_zone, is_default) values
           ('kept', 'A', 'europe/berlin', true), ('cased', 'B', 'US/Pacific-New', true), ('shouting', 'C', 'Nowhere/Else', true),
           ('unknown', 'D', null, true), ('link', 'E', 'Europe/Paris', true)
         returning id, name`,
      );
      const accountId = (name: string) => accounts.rows.find((r: { name: string }) => r.name === name).id;
      const rules = (zone: string) =>
        JSON.stringify({ tradingHours: { flatBy: '15:59', reopenAt: '18:00', timeZone: zone, noTradingWeekdays: [], noTradingDates: [] } });
      await db.query(`insert into prop_rule_sets (user_id, account_id, rules) values ('kept', $1, $2), ('cased', $3, $4), ('link', $5, $6)`, [
        accountId('A'),
        rules('Canada/East-Saskatchewan'),
        accountId('B'),
        rules('europe/london'),
        accountId('E'),
        JSON.stringify({ profitTargetCents: 300000 }),
      ]);

      await db.migrate(migrationsFolder);

      const zones = await db.query(`select user_id, time_zone from user_preferences order by user_id`);
      expect(Object.fromEntries(zones.rows.map((r: { user_id: string; time_zone: string }) => [r.user_id, r.time_zone]))).toEqual(
        Object.fromEntries(traders.map(([name, , after]) => [name, after])),
      );
      const imports = await db.query(`select name, import_time_zone from trading_accounts order by name`);
      expect(imports.rows.map((r: { name: string; import_time_zone: string | null }) => [r.name, r.import_time_zone])).toEqual([
        ['A', 'Europe/Berlin'],
        ['B', 'America/Los_Angeles'],
        ['C', null],
        ['D', null],
        ['E', 'Europe/Paris'],
      ]);
      const stored = await db.query(`select a.name, r.rules from prop_rule_sets r join trading_accounts a on a.id = r.account_id order by a.name`);
      expect(
        stored.rows.map((r: { name: string; rules: any }) => [r.name, r.rules.tradingHours?.timeZone ?? null, r.rules.tradingHours?.flatBy ?? null]),
      ).toEqual([
        ['A', 'America/Regina', '15:59'],
        ['B', 'Europe/London', '15:59'],
        ['E', null, null],
      ]);
      // Every zone stored now is one the database uses without complaint.
      for (const { time_zone } of zones.rows) await db.query(`select now() at time zone $1`, [time_zone]);
    } finally {
      await db.close();
    }
  });
});
