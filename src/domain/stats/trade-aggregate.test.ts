import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimalString } from '../money';
import { aggregateTrades, aggregateTradesByDay, combineStats, toStatTrade, type StatTrade } from './trade-aggregate';

describe('trade aggregates', () => {
  it('counts an NQ win, an NQ win, an ES loss, a BTC scratch over two days', () => {
    const trades: StatTrade[] = [
      { tradeDate: '2026-03-09', status: 'Win', pnlCents: 42500 },
      { tradeDate: '2026-03-09', status: 'Win', pnlCents: 61250 },
      { tradeDate: '2026-03-10', status: 'Loss', pnlCents: -18750 },
      { tradeDate: '2026-03-10', status: 'BE', pnlCents: 0 },
    ];
    expect(aggregateTrades(trades)).toEqual({
      trades: 4,
      wins: 2,
      losses: 1,
      breakEvens: 1,
      pnlCents: 85000,
      grossProfitCents: 103750,
      grossLossCents: -18750,
    });
    expect(aggregateTradesByDay(trades)).toEqual([
      { date: '2026-03-09', trades: 2, wins: 2, losses: 0, breakEvens: 0, pnlCents: 103750, grossProfitCents: 103750, grossLossCents: 0 },
      { date: '2026-03-10', trades: 2, wins: 0, losses: 1, breakEvens: 1, pnlCents: -18750, grossProfitCents: 0, grossLossCents: -18750 },
    ]);
  });

  it('sums 30,000 trades of +$12.34, -$5.67, +$0.01 to exactly $66,800.00 (10,000 cycles of +$6.68)', () => {
    const cycle = [1234, -567, 1];
    const trades: StatTrade[] = Array.from({ length: 30_000 }, (_, i) => {
      const pnlCents = cycle[i % 3] ?? 0;
      return { tradeDate: `2026-03-${String((i % 28) + 1).padStart(2, '0')}`, status: pnlCents > 0 ? 'Win' : 'Loss', pnlCents };
    });
    const total = aggregateTrades(trades);
    expect(centsToDecimalString(total.pnlCents)).toBe('66800.00');
    expect(total.grossProfitCents).toBe(12_350_000);
    expect(total.grossLossCents).toBe(-5_670_000);
    // The same numbers through per-day rows, as the server gets them from SQL.
    expect(combineStats(aggregateTradesByDay(trades))).toEqual(total);
    // The float sum the spec's `pnl (number)` would have produced drifts:
    expect(trades.reduce((sum, t) => sum + t.pnlCents / 100, 0)).not.toBe(66800);
  });

  it('combining per-day aggregates equals aggregating all trades, for any trades', () => {
    const trade = fc.record({
      tradeDate: fc.constantFrom('2026-03-01', '2026-03-02', '2026-03-09', '2026-04-01'),
      status: fc.constantFrom('Win', 'Loss', 'BE', 'closed'),
      pnlCents: fc.integer({ min: -1_000_000, max: 1_000_000 }),
    });
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 60 }), (trades) => {
        expect(combineStats(aggregateTradesByDay(trades))).toEqual(aggregateTrades(trades));
      }),
    );
  });

  it('a status other than Win, Loss or BE counts as a trade but in none of the three', () => {
    expect(aggregateTrades([{ status: 'closed', pnlCents: 500 }])).toMatchObject({ trades: 1, wins: 0, losses: 0, breakEvens: 0, pnlCents: 500 });
  });

  it('reads a stored 12:00 UTC trade_date as its day', () => {
    expect(toStatTrade({ tradeDate: '2026-03-09T12:00:00.000Z', status: 'Win', pnlCents: 100 })).toEqual({
      tradeDate: '2026-03-09',
      status: 'Win',
      pnlCents: 100,
    });
    expect(toStatTrade({ tradeDate: 'yesterday', status: 'Win', pnlCents: 100 })).toBeNull();
  });
});
