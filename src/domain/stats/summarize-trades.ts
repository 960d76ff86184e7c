import { aggregateTrades, type StatTrade, type TradeAggregate } from './trade-aggregate';
import { calculateProfitFactor } from './profit-factor';
import { calculateScore, type ScoreBreakdown } from './score';
import { calculateTradeStreaks, type Streaks } from './streaks';
import { calculateWinRate, getWinRateBand, type WinRateBand } from './win-rate';

export interface TradeStatsSummary extends TradeAggregate {
  winRate: number;
  winRateBand: WinRateBand;
  profitFactor: number;
  streaks: Streaks;
  score: ScoreBreakdown;
}

/** Everything the statistics panel, the dashboard cards and the AI context show, from one pass of the formulas. */
export function summarizeAggregate(aggregate: TradeAggregate, streaks: Streaks): TradeStatsSummary {
  const winRate = calculateWinRate(aggregate);
  const profitFactor = calculateProfitFactor(aggregate);
  return {
    ...aggregate,
    winRate,
    winRateBand: getWinRateBand(winRate),
    profitFactor,
    streaks,
    score: calculateScore({
      wins: aggregate.wins,
      losses: aggregate.losses,
      profitFactor,
      maxWinStreak: streaks.maxWinStreak,
      maxLossStreak: streaks.maxLossStreak,
    }),
  };
}

export function summarizeTrades(trades: readonly StatTrade[]): TradeStatsSummary {
  return summarizeAggregate(aggregateTrades(trades), calculateTradeStreaks(trades));
}
