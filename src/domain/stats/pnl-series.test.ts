import { describe, expect, it } from 'vitest';
import {
  DEFAULT_STARTING_BALANCE_CENTS,
  buildBalanceSeries,
  buildDailyPnlSeries,
  extendToLatestDay,
  getLastDaysRange,
  sumMonthPnl,
  parseStartingBalance,
} from './pnl-series';

describe('daily pnl series (monthly PnL sparkline covers the last 30 days)', () => {
  it('the last 30 days on 2026-03-18 in New York run from 02-17 to 03-18', () => {
    expect(getLastDaysRange(30, new Date('2026-03-18T14:00:00Z'), 'America/New_York')).toEqual({ from: '2026-02-17', to: '2026-03-18' });
  });

  it('fills quiet days with 0 and runs a cumulative total', () => {
    const series = buildDailyPnlSeries({
      days: [
        { date: '2026-03-02', pnlCents: 42072 },
        { date: '2026-03-04', pnlCents: -19178 },
        { date: '2026-03-04', pnlCents: 1 },
        { date: '2026-02-27', pnlCents: 99999 }, // before the range: not in this series
      ],
      from: '2026-03-01',
      to: '2026-03-05',
    });
    expect(series).toEqual([
      { date: '2026-03-01', pnlCents: 0, cumulativeCents: 0 },
      { date: '2026-03-02', pnlCents: 42072, cumulativeCents: 42072 },
      { date: '2026-03-03', pnlCents: 0, cumulativeCents: 42072 },
      { date: '2026-03-04', pnlCents: -19177, cumulativeCents: 22895 },
      { date: '2026-03-05', pnlCents: 0, cumulativeCents: 22895 },
    ]);
  });
});

describe('account balance series (starting balance 10000, ranges 90/30/7 days)', () => {
  it('a 7-day window opens at $10,000 plus the +$500.00 made before it', () => {
    const series = buildBalanceSeries({
      startingBalanceCents: DEFAULT_STARTING_BALANCE_CENTS,
      days: [
        { date: '2026-03-01', pnlCents: 50000 },
        { date: '2026-03-10', pnlCents: -12550 },
        { date: '2026-03-12', pnlCents: 3000 },
      ],
      range: { from: '2026-03-09', to: '2026-03-15' },
    });
    expect(series.map((p) => p.balanceCents)).toEqual([1_050_000, 1_037_450, 1_037_450, 1_040_450, 1_040_450, 1_040_450, 1_040_450]);
    expect(series[0]?.date).toBe('2026-03-09');
  });

  it("ends on the evening session's -$504.28 loss, dated the exchange's next trading day, not on today before it", () => {
    // At 19:00 New York on 2026-11-26 the CME's trading day is already 2026-11-27; the trader's own day is the 26th.
    const series = buildBalanceSeries({
      startingBalanceCents: 5_000_000,
      days: [
        { date: '2026-11-23', pnlCents: 79572 },
        { date: '2026-11-27', pnlCents: -50428 },
      ],
      range: { from: '2026-11-20', to: '2026-11-26' },
    });
    expect(series.at(-1)).toEqual({ date: '2026-11-27', balanceCents: 5_029_144 });
    expect(series.find((p) => p.date === '2026-11-26')?.balanceCents).toBe(5_079_572);
  });

  it('reads the starting balance as money, non-numeric as 0', () => {
    expect(parseStartingBalance('25,000')).toBe(2_500_000);
    expect(parseStartingBalance('lots')).toBe(0);
  });
});

describe("the header's month and sparkline hold the evening session's trades, dated the exchange's next day", () => {
  // 2026-03-18 at 19:30 New York: the trader's today is the 18th; a trade taken at 19:00 belongs to the 19th.
  const now = new Date('2026-03-18T23:30:00Z');
  const days = [
    { date: '2026-02-27', pnlCents: 5000 }, // last month: not this month's
    { date: '2026-03-02', pnlCents: 42072 },
    { date: '2026-03-18', pnlCents: -19178 },
    { date: '2026-03-19', pnlCents: 12550 }, // the evening session, tomorrow's trading day
  ];

  it("the month's PnL counts the trade dated tomorrow, not last month's", () => {
    expect(sumMonthPnl(days, '2026-03-18')).toBe(42072 - 19178 + 12550);
  });

  it("on the month's last evening, the next month's first trading day is not this month's", () => {
    expect(
      sumMonthPnl(
        [
          { date: '2026-03-31', pnlCents: 100 },
          { date: '2026-04-01', pnlCents: 700 },
        ],
        '2026-03-31',
      ),
    ).toBe(100);
  });

  it('the 30-day sparkline runs to the latest trading day, its last point holding every trade since its first day', () => {
    const range = extendToLatestDay(getLastDaysRange(30, now, 'America/New_York'), days);
    expect(range).toEqual({ from: '2026-02-17', to: '2026-03-19' });
    const series = buildDailyPnlSeries({ days, ...range });
    expect(series.at(-1)).toEqual({ date: '2026-03-19', pnlCents: 12550, cumulativeCents: 5000 + 42072 - 19178 + 12550 });
  });

  it('a range already past every trade is left as it is', () => {
    expect(extendToLatestDay({ from: '2026-03-01', to: '2026-03-31' }, days)).toEqual({ from: '2026-03-01', to: '2026-03-31' });
  });
});
