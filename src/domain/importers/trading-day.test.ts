import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { marketDayOf } from '../market-time';
import { dayOfImportedTrade, parseImport } from './index';
import { parseInstant } from './parsing';
import { expectPreview, viewTrade } from './testing';

const real = (path: string) => readFileSync(new URL(`../../../../shared/fixtures/brokers/${path}`, import.meta.url), 'utf8');
const own = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/**
 * Imported trades are filed under the exchange's trading day by default. CME Globex opens the next
 * day's session at 18:00 New York time (Sunday evening opens Monday), as brokers' statements and prop firms' daily
 * loss limits count it; the trader may choose the calendar day instead.
 */
describe('the exchange trading day (fixtures/trading-day-scenarios.csv, Tradovate Performance, New York times)', () => {
  const file = own('trading-day-scenarios.csv');
  const exchange = expectPreview(parseImport(file, { timeZone: 'America/New_York' }));
  const calendar = expectPreview(parseImport(file, { timeZone: 'America/New_York', tradingDay: 'calendar' }));
  const day = (preview: typeof exchange, entry: string) => {
    const trade = preview.trades.find((t) => t.entryTime === entry);
    if (!trade) throw new Error(`no trade entered at ${entry}`);
    return [trade.tradingDay, trade.dayOfWeek, trade.tradeDate, trade.session];
  };

  it('a Sunday-evening trade (18:05, daylight time) is Monday 31 March; by the calendar it is Sunday', () => {
    const trade = exchange.trades.find((t) => t.entryTime === '2025-03-30T22:05:00.000Z')!;
    // 10.50 points x 2 x $2
    expect(viewTrade(trade)).toEqual({
      contract: 'MNQM5',
      symbol: 'MNQ',
      side: 'Long',
      entryTime: '2025-03-30T22:05:00.000Z',
      exitTime: '2025-03-30T22:20:00.000Z',
      quantity: '2',
      entryPrice: '21000.25',
      exitPrice: '21010.75',
      grossPnl: 4200,
      commission: 0,
      netPnl: 4200,
    });
    expect(day(exchange, '2025-03-30T22:05:00.000Z')).toEqual(['2025-03-31', 'Monday', '2025-03-31T12:00:00.000Z', 'Overnight']);
    expect(day(calendar, '2025-03-30T22:05:00.000Z')).toEqual(['2025-03-30', 'Sunday', '2025-03-30T12:00:00.000Z', 'Overnight']);
  });

  it('a short across midnight (in 23:50 Tuesday, out 00:20 Wednesday) is one trade of Wednesday either way', () => {
    const trade = exchange.trades.find((t) => t.entryTime === '2025-04-02T03:50:00.000Z')!;
    // sold 5610.25, bought back 5600: 10.25 x $5
    expect(viewTrade(trade)).toMatchObject({
      contract: 'MESM5',
      side: 'Short',
      exitTime: '2025-04-02T04:20:00.000Z',
      quantity: '1',
      grossPnl: 5125,
      netPnl: 5125,
    });
    expect(day(exchange, '2025-04-02T03:50:00.000Z')).toEqual(['2025-04-02', 'Wednesday', '2025-04-02T12:00:00.000Z', 'Overnight']);
    expect(day(calendar, '2025-04-02T03:50:00.000Z')).toEqual(['2025-04-01', 'Tuesday', '2025-04-01T12:00:00.000Z', 'Overnight']);
  });

  it('a trade before the daily close (16:59:30) stays on its calendar day', () => {
    expect(day(exchange, '2025-04-02T20:59:30.000Z')).toEqual(['2025-04-02', 'Wednesday', '2025-04-02T12:00:00.000Z', 'After Hours']);
  });

  it('spring forward: Sunday 9 March 2025 18:00 is EDT (22:00Z), the first minute of Monday 10 March', () => {
    expect(day(exchange, '2025-03-09T22:00:00.000Z')).toEqual(['2025-03-10', 'Monday', '2025-03-10T12:00:00.000Z', 'Overnight']);
    expect(day(calendar, '2025-03-09T22:00:00.000Z')[0]).toBe('2025-03-09');
  });

  it('a position held over that weekend (Friday 16:30 EST to Sunday 18:01 EDT) is Friday, its entry day', () => {
    const trade = exchange.trades.find((t) => t.entryTime === '2025-03-07T21:30:00.000Z')!;
    expect(viewTrade(trade)).toMatchObject({ contract: 'MESH5', exitTime: '2025-03-09T22:01:00.000Z', grossPnl: 500 });
    expect(day(exchange, '2025-03-07T21:30:00.000Z')).toEqual(['2025-03-07', 'Friday', '2025-03-07T12:00:00.000Z', 'After Hours']);
  });

  it('fall back: Sunday 2 November 2025 18:30 is EST (23:30Z), Monday 3 November; Friday 31 October 15:30 EDT stays Friday', () => {
    expect(day(exchange, '2025-11-02T23:30:00.000Z')).toEqual(['2025-11-03', 'Monday', '2025-11-03T12:00:00.000Z', 'Overnight']);
    expect(day(calendar, '2025-11-02T23:30:00.000Z')[0]).toBe('2025-11-02');
    expect(day(exchange, '2025-10-31T19:30:00.000Z')).toEqual(['2025-10-31', 'Friday', '2025-10-31T12:00:00.000Z', 'PM']);
  });

  it('Thursday evening 18:15 EDT belongs to Friday 31 October', () => {
    expect(day(exchange, '2025-10-30T22:15:00.000Z')).toEqual(['2025-10-31', 'Friday', '2025-10-31T12:00:00.000Z', 'Overnight']);
  });

  it('only the day moves: P&L, prices and keys are the same under both rules', () => {
    expect(calendar.trades.map(viewTrade)).toEqual(exchange.trades.map(viewTrade));
    expect(calendar.trades.map((t) => t.importKey)).toEqual(exchange.trades.map((t) => t.importKey));
    expect(exchange.issues).toEqual([]);
  });
});

/** Rows of the AngryBuhda export entered at or after 18:00 New York time (counted by hand from EnteredAt). */
const EVENING_ROWS = 37;

describe('the rule itself', () => {
  const at = (text: string) => parseInstant(text, 'America/New_York')!;

  it('18:00:00 opens the next day, 17:59:59 does not; Friday evening and Saturday belong to Monday', () => {
    expect(marketDayOf(at('2025-06-10 17:59:59'), { rule: 'exchange' }).tradingDay).toBe('2025-06-10');
    expect(marketDayOf(at('2025-06-10 18:00:00'), { rule: 'exchange' }).tradingDay).toBe('2025-06-11');
    expect(marketDayOf(at('2025-06-13 18:30:00'), { rule: 'exchange' }).tradingDay).toBe('2025-06-16');
    expect(marketDayOf(at('2025-06-14 19:00:00'), { rule: 'exchange' }).tradingDay).toBe('2025-06-16');
    expect(marketDayOf(at('2025-06-15 18:00:00'), { rule: 'exchange' }).tradingDay).toBe('2025-06-16');
    // The year's last evening session is New Year's Day's... which CME then skips, but the day is still the next one.
    expect(marketDayOf(at('2025-12-31 19:00:00'), { rule: 'exchange' }).tradingDay).toBe('2026-01-01');
  });

  it('stocks and spot crypto keep the calendar day: they have no evening session', () => {
    const evening = Date.parse('2025-06-10T23:30:00Z'); // 19:30 New York
    expect(dayOfImportedTrade(evening, 'MNQM5').tradingDay).toBe('2025-06-11');
    expect(dayOfImportedTrade(evening, 'NQ').tradingDay).toBe('2025-06-11');
    expect(dayOfImportedTrade(evening, 'AAPL').tradingDay).toBe('2025-06-10');
    expect(dayOfImportedTrade(evening, 'BTCUSDT').tradingDay).toBe('2025-06-10');
    expect(dayOfImportedTrade(evening, 'MNQM5', { tradingDay: 'calendar' }).tradingDay).toBe('2025-06-10');
  });

  it("agrees with TopstepX's own TradeDay column on every one of the 486 rows of a real export", () => {
    const text = real('topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv');
    const preview = expectPreview(parseImport(text));
    const rows = text
      .trim()
      .split(/\r?\n/)
      .slice(1)
      .map((line) => line.split(','));
    let evening = 0;
    for (const [index, cells] of rows.entries()) {
      const [month, dayOfMonth, year] = cells[10]!.slice(0, 10).split('/');
      const trade = preview.trades.find((t) => t.rows.includes(index + 2))!;
      expect(trade.tradingDay, `row ${index + 2}`).toBe(`${year}-${month}-${dayOfMonth}`);
      if (trade.tradingDay !== marketDayOf(Date.parse(trade.entryTime!)).tradingDay) evening++;
    }
    // Rows of evening trades, filed under the next day: the check is not vacuous.
    expect(evening).toBe(EVENING_ROWS);
  });
});
