import { describe, expect, it } from 'vitest';
import { buildResultsByWeek, buildResultsByWeekday, labelWeeks } from './results-by-period';
import { aggregateTradesByDay, type StatTrade } from './trade-aggregate';

const trades: StatTrade[] = [
  { tradeDate: '2026-03-06', status: 'Win', pnlCents: 10000 }, // Friday
  { tradeDate: '2026-03-08', status: 'Loss', pnlCents: -4000 }, // Sunday, same Monday-start week
  { tradeDate: '2026-03-09', status: 'Win', pnlCents: 5555 }, // Monday
  { tradeDate: '2026-03-14', status: 'BE', pnlCents: 0 }, // Saturday
  { tradeDate: '2026-03-16', status: 'Loss', pnlCents: -2000 }, // Monday
  { tradeDate: '2026-03-16', status: 'Win', pnlCents: 3001 }, // Monday
];

describe('Results by Week (weeks start on Monday)', () => {
  it('buckets Fri 03-06 and Sun 03-08 into the week of Mar 2, and two later weeks', () => {
    expect(buildResultsByWeek(aggregateTradesByDay(trades))).toEqual([
      {
        weekStart: '2026-03-02',
        weekEnd: '2026-03-08',
        label: 'Mar 2',
        trades: 2,
        wins: 1,
        losses: 1,
        breakEvens: 0,
        pnlCents: 6000,
        grossProfitCents: 10000,
        grossLossCents: -4000,
        winRate: 50,
      },
      {
        weekStart: '2026-03-09',
        weekEnd: '2026-03-15',
        label: 'Mar 9',
        trades: 2,
        wins: 1,
        losses: 0,
        breakEvens: 1,
        pnlCents: 5555,
        grossProfitCents: 5555,
        grossLossCents: 0,
        winRate: 100,
      },
      {
        weekStart: '2026-03-16',
        weekEnd: '2026-03-22',
        label: 'Mar 16',
        trades: 2,
        wins: 1,
        losses: 1,
        breakEvens: 0,
        pnlCents: 1001,
        grossProfitCents: 3001,
        grossLossCents: -2000,
        winRate: 50,
      },
    ]);
  });
});

describe('week labels (weeks across New Year read without their year)', () => {
  it('carries the year on every label once the weeks span two years, and not before', () => {
    const weeks = buildResultsByWeek(
      aggregateTradesByDay([
        { tradeDate: '2025-12-23', status: 'Win', pnlCents: 100 },
        { tradeDate: '2025-12-30', status: 'Win', pnlCents: 100 }, // the week of Monday Dec 29, 2025
        { tradeDate: '2026-01-06', status: 'Loss', pnlCents: -100 },
      ]),
    );
    expect(weeks.map((w) => w.label)).toEqual(["Dec 22 '25", "Dec 29 '25", "Jan 5 '26"]);
    expect(labelWeeks(['2026-01-05', '2026-01-12'])).toEqual(['Jan 5', 'Jan 12']);
    expect(labelWeeks(['2025-12-29'])).toEqual(['Dec 29']);
    expect(labelWeeks([])).toEqual([]);
  });
});

describe('Results by Day of Week (Monday to Friday)', () => {
  it('sums both Mondays, shows empty weekdays as zeros and leaves the weekend trades out', () => {
    const result = buildResultsByWeekday(aggregateTradesByDay(trades));
    expect(result.map((d) => d.day)).toEqual(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']);
    expect(result[0]).toEqual({
      day: 'Monday',
      trades: 3,
      wins: 2,
      losses: 1,
      breakEvens: 0,
      pnlCents: 6556,
      grossProfitCents: 8556,
      grossLossCents: -2000,
      winRate: 66.7,
    });
    expect(result[1]).toMatchObject({ trades: 0, pnlCents: 0, winRate: 0 });
    expect(result[4]).toMatchObject({ day: 'Friday', trades: 1, wins: 1, pnlCents: 10000 });
    expect(result.reduce((n, d) => n + d.trades, 0)).toBe(4);
  });
});
