import { describe, expect, it } from 'vitest';
import { calculateConsistency, calculateProfitFactorScore, calculateScore, formatScorePoints } from './score';

describe('profit factor score', () => {
  it('follows both branches and the step at 1.5', () => {
    expect(calculateProfitFactorScore(2)).toBe(100);
    expect(calculateProfitFactorScore(2.5)).toBe(100); // min(100, 150)
    expect(calculateProfitFactorScore(1.8)).toBeCloseTo(80, 10);
    expect(calculateProfitFactorScore(1.5)).toBe(50);
    expect(calculateProfitFactorScore(1.49)).toBeCloseTo(68.6, 10);
    expect(calculateProfitFactorScore(1.2)).toBeCloseTo(28, 10);
    expect(calculateProfitFactorScore(1)).toBe(0);
    expect(calculateProfitFactorScore(0.99)).toBe(0);
    expect(calculateProfitFactorScore(Number.POSITIVE_INFINITY)).toBe(100);
  });
});

describe('consistency', () => {
  it('win rate 60, max loss streak 2, max win streak 5: 60 + 10 + 10 + 10 = 90', () => {
    expect(calculateConsistency(60, 5, 2)).toBe(90);
  });

  it('max loss streak 4 earns no loss bonus; win streak 10 earns both win bonuses', () => {
    expect(calculateConsistency(40, 10, 4)).toBe(60);
  });

  it('caps at 100: 90 + 30 + 20', () => {
    expect(calculateConsistency(90, 10, 1)).toBe(100);
  });
});

describe('score = 0.4 x winRate + 0.3 x consistency + 0.3 x profitFactorScore', () => {
  it('6 wins, 4 losses, PF 2.0, streaks W5/L2 scores 24 + 27 + 30 = 81', () => {
    expect(calculateScore({ wins: 6, losses: 4, profitFactor: 2, maxWinStreak: 5, maxLossStreak: 2 })).toEqual({
      score: 81,
      winRate: 60,
      consistency: 90,
      profitFactorScore: 100,
    });
  });

  it('2 wins, 3 losses, PF 1.2, streaks W1/L3 scores 16 + 15 + 8.4 = 39.4', () => {
    expect(calculateScore({ wins: 2, losses: 3, profitFactor: 1.2, maxWinStreak: 1, maxLossStreak: 3 })).toEqual({
      score: 39.4,
      winRate: 40,
      consistency: 50,
      profitFactorScore: 28,
    });
  });

  it('no losses at all (PF Infinity), 3 wins: 40 + 30 + 30 = 100', () => {
    expect(calculateScore({ wins: 3, losses: 0, profitFactor: Number.POSITIVE_INFINITY, maxWinStreak: 3, maxLossStreak: 0 })).toEqual({
      score: 100,
      winRate: 100,
      consistency: 100,
      profitFactorScore: 100,
    });
  });

  it('no decided trades scores 0, not the 9 the loss-streak bonus would invent', () => {
    expect(calculateScore({ wins: 0, losses: 0, profitFactor: 0, maxWinStreak: 0, maxLossStreak: 0 })).toEqual({
      score: 0,
      winRate: 0,
      consistency: 0,
      profitFactorScore: 0,
    });
  });

  it("is written with one decimal, and as '—' for an account without trades ('0.0')", () => {
    expect(formatScorePoints(81, 10)).toBe('81.0');
    expect(formatScorePoints(0, 1)).toBe('0.0');
    expect(formatScorePoints(0, 0)).toBe('—');
  });
});
