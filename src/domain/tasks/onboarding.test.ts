import { describe, expect, it } from 'vitest';
import { getDayFromTradeDate } from '../dates/trade-date';
import { aggregateTrades } from '../stats/trade-aggregate';
import { deriveResult } from '../trades/trade-result';
import { DEFAULT_TRADE_TYPES } from '../trades/trade-options';
import { buildOnboardingTasks, buildSampleTrades } from './onboarding';
import { TASK_CATEGORIES } from './task-rules';

const NEW_YORK = 'America/New_York';

describe('onboarding tasks', () => {
  it('five open tasks dated today, each in a known category', () => {
    const tasks = buildOnboardingTasks('2026-03-18');
    expect(tasks).toHaveLength(5);
    for (const task of tasks) {
      expect(task).toMatchObject({ completed: false, recurring: false, taskDate: '2026-03-18' });
      expect(TASK_CATEGORIES).toContain(task.category);
      expect(task.title.trim()).toBe(task.title);
    }
    expect(new Set(tasks.map((t) => t.title)).size).toBe(5);
  });
});

describe('sample trades for a new user (7 trades, NQ ES BTC)', () => {
  it('on Wed 2026-03-18 in New York: 7 trades spread over the 13 weekdays so far, oldest first', () => {
    const trades = buildSampleTrades(new Date('2026-03-18T14:00:00Z'), NEW_YORK);
    // weekdays 2,3,4,5,6,9,10,11,12,13,16,17,18; picks index floor(i x 13 / 7) = 0,1,3,5,7,9,11
    expect(trades.map((t) => t.tradeDay)).toEqual(['2026-03-02', '2026-03-03', '2026-03-05', '2026-03-09', '2026-03-11', '2026-03-13', '2026-03-17']);
    expect(new Set(trades.map((t) => t.symbol))).toEqual(new Set(['NQ', 'ES', 'BTC']));
    for (const trade of trades) {
      expect(trade.tradeDate).toBe(`${trade.tradeDay}T12:00:00.000Z`);
      // The side in its own field, spelled as imports spell it; the type is a setup.
      expect(['Long', 'Short']).toContain(trade.side);
      expect(DEFAULT_TRADE_TYPES).toContain(trade.tradeType);
    }
  });

  it('stores net pnl with results that match it: 4 wins, 2 losses, 1 BE, net +$1,302.88', () => {
    const trades = buildSampleTrades(new Date('2026-03-18T14:00:00Z'), NEW_YORK);
    for (const trade of trades) {
      expect(deriveResult(trade.pnlCents + trade.commissionCents, trade.commissionCents)).toBe(trade.status);
      expect(trade.commissionCents).toBeGreaterThanOrEqual(0);
    }
    // gross 425.00 - 187.50 + 312.40 + 2.50 + 610.00 - 112.50 + 280.00 = 1329.90; commissions 5 x 4.28 + 3.12 + 2.50 = 27.02
    expect(aggregateTrades(trades)).toMatchObject({ trades: 7, wins: 4, losses: 2, breakEvens: 1, pnlCents: 130288 });
  });

  it('is the same list every time for the same now and zone', () => {
    const now = new Date('2026-03-18T14:00:00Z');
    expect(buildSampleTrades(now, NEW_YORK)).toEqual(buildSampleTrades(now, NEW_YORK));
  });

  it('uses the user zone for today: 23:30 on Mar 31 in New York is still March there', () => {
    const trades = buildSampleTrades(new Date('2026-04-01T03:30:00Z'), NEW_YORK);
    expect(trades.every((t) => t.tradeDay.startsWith('2026-03-'))).toBe(true);
    const inUtc = buildSampleTrades(new Date('2026-04-01T03:30:00Z'), 'UTC');
    expect(inUtc.every((t) => t.tradeDay === '2026-04-01')).toBe(true); // Wed Apr 1 is the only day so far
  });

  it('on Sat 2026-08-01 (no weekday yet) all 7 trades fall on the 1st, never in the future', () => {
    const trades = buildSampleTrades(new Date('2026-08-01T15:00:00Z'), NEW_YORK);
    expect(trades.map((t) => getDayFromTradeDate(t.tradeDate))).toEqual(Array(7).fill('2026-08-01'));
  });

  it('on Mon 2026-02-02 the trades share the only weekday so far', () => {
    const trades = buildSampleTrades(new Date('2026-02-02T15:00:00Z'), NEW_YORK);
    expect(new Set(trades.map((t) => t.tradeDay))).toEqual(new Set(['2026-02-02']));
  });
});
