import { describe, expect, it } from 'vitest';
import { summarizeTrades } from './summarize-trades';
import type { StatTrade } from './trade-aggregate';

describe('a week of seven trades, summarized once for panel, dashboard and AI context', () => {
  // W L W BE W L W in time order; listed newest first as the API returns them.
  const trades: StatTrade[] = [
    { tradeDate: '2026-03-08', status: 'Win', pnlCents: 31840 }, // BTC
    { tradeDate: '2026-03-06', status: 'Loss', pnlCents: -9525 }, // ES
    { tradeDate: '2026-03-05', status: 'Win', pnlCents: 21000 }, // NQ
    { tradeDate: '2026-03-04', status: 'BE', pnlCents: 0 }, // BTC
    { tradeDate: '2026-03-03', status: 'Win', pnlCents: 61250, createdAt: '2026-03-03T16:00:00Z' }, // NQ
    { tradeDate: '2026-03-03', status: 'Loss', pnlCents: -18750, createdAt: '2026-03-03T15:00:00Z' }, // ES
    { tradeDate: '2026-03-02', status: 'Win', pnlCents: 42500 }, // NQ
  ];

  it('4 wins, 2 losses, 1 BE, net $1,283.15, win rate 66.7 (green), PF 5.54, score 85.7', () => {
    const summary = summarizeTrades(trades);
    expect(summary).toMatchObject({
      trades: 7,
      wins: 4,
      losses: 2,
      breakEvens: 1,
      pnlCents: 128315,
      grossProfitCents: 156590,
      grossLossCents: -28275,
      winRate: 66.7,
      winRateBand: 'green',
      streaks: { maxWinStreak: 1, maxLossStreak: 1, current: { result: 'Win', length: 1 } },
    });
    expect(summary.profitFactor).toBeCloseTo(156590 / 28275, 12);
    // consistency 66.7 + 30 = 96.7; PF score min(100, 453.8) = 100; 0.4*66.7 + 0.3*96.7 + 0.3*100 = 85.69
    expect(summary.score).toEqual({ score: 85.7, winRate: 66.7, consistency: 96.7, profitFactorScore: 100 });
  });
});
