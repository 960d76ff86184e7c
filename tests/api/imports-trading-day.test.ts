import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { importFile, ownFile } from './imports-support';
import { cents, createAccount, createTrade, listAll, newTrader, type TradeDto } from './trades-support';

/**
 * Imported trades are filed under the exchange's trading day by default; the trader's setting
 * 'calendar' re-files the stored imported trades from their entry times, in one transaction. Manual trades, days the
 * trader set by hand and days a file named keep their date. The scenarios are src/domain/importers/fixtures/
 * trading-day-scenarios.csv (Tradovate Performance, New York times).
 */
const SCENARIOS = ownFile('trading-day-scenarios.csv');
const NY = { time_zone: 'America/New_York' };

/** entry time -> [date, day of week] under each rule (worked out in src/domain/importers/trading-day.test.ts). */
const DAYS: Record<string, { exchange: [string, string]; calendar: [string, string] }> = {
  '2025-03-30T22:05:00.000Z': { exchange: ['2025-03-31', 'Monday'], calendar: ['2025-03-30', 'Sunday'] },
  '2025-04-02T03:50:00.000Z': { exchange: ['2025-04-02', 'Wednesday'], calendar: ['2025-04-01', 'Tuesday'] },
  '2025-04-02T20:59:30.000Z': { exchange: ['2025-04-02', 'Wednesday'], calendar: ['2025-04-02', 'Wednesday'] },
  '2025-03-09T22:00:00.000Z': { exchange: ['2025-03-10', 'Monday'], calendar: ['2025-03-09', 'Sunday'] },
  '2025-03-07T21:30:00.000Z': { exchange: ['2025-03-07', 'Friday'], calendar: ['2025-03-07', 'Friday'] },
  '2025-11-02T23:30:00.000Z': { exchange: ['2025-11-03', 'Monday'], calendar: ['2025-11-02', 'Sunday'] },
  '2025-10-31T19:30:00.000Z': { exchange: ['2025-10-31', 'Friday'], calendar: ['2025-10-31', 'Friday'] },
  '2025-10-30T22:15:00.000Z': { exchange: ['2025-10-31', 'Friday'], calendar: ['2025-10-30', 'Thursday'] },
};
const MOVING = Object.values(DAYS).filter((d) => d.exchange[0] !== d.calendar[0]).length;

const imported = (trades: TradeDto[]) => trades.filter((t) => t.import_source === 'tradovate-performance');
const dayOf = (t: TradeDto) => [t.date, t.day_of_week];

/** Trades and net P&L of one trading day, as the calendar and the day dialog read it (GET /api/trades?from=&to=). */
async function dayPnl(trader: ApiClient, day: string) {
  const trades = await listAll(trader, `from=${day}&to=${day}`);
  return { trades: trades.length, cents: trades.reduce((sum, t) => sum + cents(t.pnl), 0) };
}

describe.each(backends())('trading day of imported trades on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  async function traderWithTrades(name: string) {
    const trader = await newTrader(app, name);
    const account = await createAccount(trader, `${name} Combine`);
    const res = await importFile(trader, { ...NY, account_id: account.id }, SCENARIOS);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.imported).toBe(Object.keys(DAYS).length);
    return { trader, account };
  }

  const expectDays = async (trader: ApiClient, rule: 'exchange' | 'calendar') => {
    const trades = imported(await listAll(trader));
    expect(trades).toHaveLength(Object.keys(DAYS).length);
    for (const t of trades) expect(dayOf(t), t.entry_time as string).toEqual(DAYS[t.entry_time as string]![rule]);
  };

  it("a new trader files imports under the exchange's trading day; the daily P&L follows", async () => {
    const { trader } = await traderWithTrades('exchange');
    expect((await trader.get('/api/preferences')).body.trading_day).toBe('exchange');
    await expectDays(trader, 'exchange');
    // The Sunday-evening trade is Monday's P&L, and Sunday has none.
    // $42.00 gross less 2 MNQ x 2 sides x $0.62 (the default fee schedule: the export has no costs).
    expect(await dayPnl(trader, '2025-03-31')).toEqual({ trades: 1, cents: 4200 - 248 });
    expect(await dayPnl(trader, '2025-03-30')).toEqual({ trades: 0, cents: 0 });
  });

  it('switching to the calendar day re-files the imported trades and nothing else; switching back restores them', async () => {
    const { trader, account } = await traderWithTrades('switcher');
    const manual = await createTrade(trader, { date: '2025-03-30', symbol: 'ES', pnl: 10, account_id: account.id });
    // A JSON backup names its own days, and a day set by hand on an imported trade is the trader's choice.
    const backup = await importFile(
      trader,
      { account_id: account.id },
      JSON.stringify([{ id: 'b1', date: '2025-03-30', instrument: 'NQ', pnl: 5, entry_time: '2025-03-30T22:10:00Z' }]),
      'application/json',
    );
    expect(backup.body.imported).toBe(1);
    const edited = imported(await listAll(trader)).find((t) => t.entry_time === '2025-10-30T22:15:00.000Z')!;
    expect((await trader.patch(`/api/trades/${edited.id}`, { date: '2025-10-29' })).status).toBe(200);

    const res = await trader.patch('/api/preferences', { trading_day: 'calendar' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ trading_day: 'calendar', refiled_trades: MOVING - 1 });
    const after = await listAll(trader);
    for (const t of imported(after)) {
      const expected = t.id === edited.id ? ['2025-10-29', 'Wednesday'] : DAYS[t.entry_time as string]!.calendar;
      expect(dayOf(t), t.entry_time as string).toEqual(expected);
    }
    expect(after.find((t) => t.id === manual.id)!.date).toBe('2025-03-30');
    expect(after.find((t) => t.import_source === 'json-backup')!.date).toBe('2025-03-30');
    // Sunday 30 March now holds the evening trade by the calendar, beside the manual and backup trades.
    expect(await dayPnl(trader, '2025-03-30')).toEqual({ trades: 3, cents: 4200 - 248 + 1000 + 500 });

    // Saving the same setting again moves nothing.
    expect((await trader.patch('/api/preferences', { trading_day: 'calendar' })).body.refiled_trades).toBe(0);
    const back = await trader.patch('/api/preferences', { trading_day: 'exchange' });
    expect(back.body).toMatchObject({ trading_day: 'exchange', refiled_trades: MOVING - 1 });
    for (const t of imported(await listAll(trader))) {
      expect(dayOf(t)).toEqual(t.id === edited.id ? ['2025-10-29', 'Wednesday'] : DAYS[t.entry_time as string]!.exchange);
    }
  });

  it("a trader's switch never touches another trader's trades", async () => {
    const alice = await traderWithTrades('alice');
    const bob = await traderWithTrades('bob');
    expect((await alice.trader.patch('/api/preferences', { trading_day: 'calendar' })).body.refiled_trades).toBe(MOVING);
    await expectDays(alice.trader, 'calendar');
    await expectDays(bob.trader, 'exchange');
  });

  it('later imports follow the setting', async () => {
    const trader = await newTrader(app, 'calendarist');
    await trader.patch('/api/preferences', { trading_day: 'calendar' });
    const account = await createAccount(trader, 'Calendar days');
    expect((await importFile(trader, { ...NY, account_id: account.id }, SCENARIOS)).body.imported).toBe(Object.keys(DAYS).length);
    await expectDays(trader, 'calendar');
  });

  it('refuses any other value, naming trading_day, and changes nothing', async () => {
    const { trader } = await traderWithTrades('typo');
    for (const trading_day of ['Calendar', 'session', '', null, 1]) {
      const res = await trader.patch('/api/preferences', { trading_day });
      expect(res.status, String(trading_day)).toBe(400);
      expect(res.body.error).toMatch(/^trading_day: /);
    }
    expect((await trader.get('/api/preferences')).body.trading_day).toBe('exchange');
    await expectDays(trader, 'exchange');
  });

  it('is atomic: a failure in the middle of the re-file leaves the setting and every day as they were', async () => {
    const { trader } = await traderWithTrades('atomic');
    const db = app.server.database.db;
    // The fourth of the moving trades fails its update; the first three were already changed in the transaction.
    await db.execute(
      sql.raw(`
      create or replace function refile_test_fail() returns trigger language plpgsql as $$
      begin
        if new.trade_date <> old.trade_date and old.entry_time = '2025-11-02T23:30:00Z' then
          raise exception 'forced failure in the middle of a re-file';
        end if;
        return new;
      end $$
    `),
    );
    await db.execute(sql.raw('create trigger refile_test_fail before update on trades for each row execute function refile_test_fail()'));
    try {
      const res = await trader.patch('/api/preferences', { trading_day: 'calendar' });
      expect(res.status).toBe(500);
    } finally {
      await db.execute(sql.raw('drop trigger refile_test_fail on trades'));
      await db.execute(sql.raw('drop function refile_test_fail()'));
    }
    expect((await trader.get('/api/preferences')).body.trading_day).toBe('exchange');
    await expectDays(trader, 'exchange');
    expect((await trader.patch('/api/preferences', { trading_day: 'calendar' })).body.refiled_trades).toBe(MOVING);
  });
});
