import { calculateWinRate } from './win-rate';

export interface ScoreInput {
  wins: number;
  losses: number;
  /** gross profit / |gross loss|; Infinity when there is no loss. */
  profitFactor: number;
  maxWinStreak: number;
  maxLossStreak: number;
}

/** The score and its three parts, each 0..100, for the score card and its radar chart. One decimal each. */
export interface ScoreBreakdown {
  score: number;
  winRate: number;
  consistency: number;
  profitFactorScore: number;
}

const roundToTenth = (value: number) => Math.round(value * 10) / 10;

/** The score or one of its parts as the score card writes it, '81.0'; '—' without a trade (no figure, not '0.0'). */
export function formatScorePoints(points: number, trades: number): string {
  return trades === 0 ? '—' : points.toFixed(1);
}

/**
 * Ratio >= 1.5 gives min(100, (ratio - 1) x 100); 1 <= ratio < 1.5 gives (ratio - 1) x 140;
 * below 1, 0. Note the spec's step: 1.49 scores 68.6 but 1.5 scores 50; kept as written.
 */
export function calculateProfitFactorScore(profitFactor: number): number {
  if (profitFactor >= 1.5) return Math.min(100, (profitFactor - 1) * 100);
  if (profitFactor >= 1) return (profitFactor - 1) * 140;
  return 0;
}

/**
 * Win rate + 10 for each of max loss streak <= 3, <= 2, <= 1, + 10 for each of max win streak
 * >= 5, >= 10, capped at 100.
 */
export function calculateConsistency(winRate: number, maxWinStreak: number, maxLossStreak: number): number {
  let bonus = 0;
  if (maxLossStreak <= 3) bonus += 10;
  if (maxLossStreak <= 2) bonus += 10;
  if (maxLossStreak <= 1) bonus += 10;
  if (maxWinStreak >= 5) bonus += 10;
  if (maxWinStreak >= 10) bonus += 10;
  return Math.min(100, winRate + bonus);
}

/**
 * Score = 0.4 x winRate + 0.3 x consistency + 0.3 x profitFactorScore, out of 100.
 * With no wins and no losses everything is 0: the loss-streak bonuses would otherwise give a trader with no
 * trades a consistency of 30 and a score of 9, an invented number (DESIGN: zeros and empty states).
 */
export function calculateScore(input: ScoreInput): ScoreBreakdown {
  if (input.wins + input.losses === 0) return { score: 0, winRate: 0, consistency: 0, profitFactorScore: 0 };
  const winRate = calculateWinRate(input);
  const consistency = calculateConsistency(winRate, input.maxWinStreak, input.maxLossStreak);
  const profitFactorScore = calculateProfitFactorScore(input.profitFactor);
  return {
    score: roundToTenth(0.4 * winRate + 0.3 * consistency + 0.3 * profitFactorScore),
    winRate,
    consistency: roundToTenth(consistency),
    profitFactorScore: roundToTenth(profitFactorScore),
  };
}
