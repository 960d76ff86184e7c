import { describe, expect, it } from 'vitest';
import { computeReflectionRStatistics } from './r-statistics';
import type { Reflection } from './reflection';

const reflection = (tradeId: string, day: string, session: string, type: string, pnlCents: number): Reflection => ({
  id: `r-${tradeId}`,
  tradeId,
  date: '2026-05-04',
  day,
  week: 'Week of May 4, 2026',
  symbol: 'NQ',
  session,
  type,
  side: null,
  result: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  followedRules: null,
  description: '',
  imageUrl: null,
  tags: [],
  link: '',
  pnlCents,
  accountId: null,
});

describe("Reflect's analysis in R", () => {
  it('totals and each session, setup and weekday, the trades without a planned risk counted apart (hand-computed)', () => {
    const reflections = [
      reflection('a', 'Monday', 'AM', 'Breakout', 80_000), // $400 planned: +2R
      reflection('b', 'Monday', 'AM', 'Reversal', -15_000), // $300 planned: -0.5R
      reflection('c', 'Tuesday', 'PM', 'Breakout', -10_000), // $100 planned: -1R
      reflection('d', 'Tuesday', 'PM', '', 5_000), // no plan
    ];
    const risk: Record<string, number | null> = { a: 40_000, b: 30_000, c: 10_000, d: null };
    const r = computeReflectionRStatistics(reflections, (x) => risk[x.tradeId] ?? null);
    expect(r.totals).toEqual({
      trades: 4,
      tradesWithRisk: 3,
      tradesWithoutRisk: 1,
      totalR: 0.5,
      // 0.5 / 3 = 0.1666...R
      expectancyR: 0.17,
      averageWinR: 2,
      averageLossR: -0.75,
      netCentsWithRisk: 55_000,
    });
    expect(r.byTimeOfDay.map((g) => [g.session, g.trades, g.tradesWithoutRisk, g.totalR, g.expectancyR])).toEqual([
      ['AM', 2, 0, 1.5, 0.75],
      ['PM', 2, 1, -1, -1],
    ]);
    expect(r.bySetupType.map((g) => [g.setup, g.totalR, g.averageWinR, g.averageLossR])).toEqual([
      ['Breakout', 1, 2, -1],
      ['Reversal', -0.5, null, -0.5],
      ['Unspecified', null, null, null],
    ]);
    expect(r.byMarketCondition.map((g) => [g.day, g.tradesWithRisk, g.totalR])).toEqual([
      ['Monday', 2, 1.5],
      ['Tuesday', 1, -1],
    ]);
  });
});
