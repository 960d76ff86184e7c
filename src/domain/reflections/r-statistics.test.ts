import { describe, expect, it } from 'vitest';
import { comparePeriodsInR } from './comparison';
import { computeReflectionRStatistics } from './r-statistics';
import type { RTrade } from '../risk/r-summary';
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
      profitFactorR: 1.33,
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

describe("Reflect's rule adherence in R", () => {
  it('the rated trades that followed their rules against those that did not; unrated ones in neither', () => {
    const rated = (id: string, pnlCents: number, followedRules: boolean | null): Reflection => ({
      ...reflection(id, 'Monday', 'AM', '', pnlCents),
      followedRules,
    });
    const risk: Record<string, number | null> = { a: 20_000, b: 20_000, c: 10_000, d: null, e: 10_000 };
    const r = computeReflectionRStatistics(
      [rated('a', 40_000, true), rated('b', -10_000, true), rated('c', -15_000, false), rated('d', -5_000, false), rated('e', 99_900, null)],
      (x) => risk[x.tradeId] ?? null,
    );
    // Followed: +2R and -0.5R = +1.5R over 2, 0.75R a trade. Not followed: -1.5R; one trade without a plan apart.
    expect(r.adherence.whenFollowed).toMatchObject({ trades: 2, tradesWithRisk: 2, totalR: 1.5, expectancyR: 0.75 });
    expect(r.adherence.whenNotFollowed).toMatchObject({ trades: 2, tradesWithRisk: 1, tradesWithoutRisk: 1, totalR: -1.5, expectancyR: -1.5 });
  });
});

describe('comparePeriodsInR (a week against the previous four, in R)', () => {
  const range = { from: '2026-03-09', to: '2026-03-15' };
  const t = (tradeDate: string, pnlCents: number, riskCents: number | null): RTrade => ({
    tradeDate,
    pnlCents,
    riskCents,
    result: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  });

  it("each previous week's R, their average of the exact sum, and this week's change, trades without a plan apart", () => {
    const previous = [
      t('2026-02-10', 10_000, 30_000), // +1/3R
      t('2026-02-11', 10_000, 30_000), // +1/3R
      t('2026-02-12', 10_000, 30_000), // +1/3R: the week is 1R exactly, not 0.99R
      t('2026-02-17', -20_000, 10_000), // -2R
      t('2026-02-18', 5_000, null), // no plan: apart
      t('2026-03-03', 30_000, 10_000), // +3R
      t('2026-02-01', 999_900, 100), // before the four weeks: left out
    ];
    const current = [t('2026-03-09', 20_000, 10_000), t('2026-03-10', -1_000, null)]; // +2R, one apart
    const c = comparePeriodsInR('week', range, current, previous)!;
    expect(c.previous.map((p) => [p.from, p.to, p.trades, p.tradesWithoutRisk, p.totalR])).toEqual([
      ['2026-02-09', '2026-02-15', 3, 0, 1],
      ['2026-02-16', '2026-02-22', 2, 1, -2],
      ['2026-02-23', '2026-03-01', 0, 0, null],
      ['2026-03-02', '2026-03-08', 1, 0, 3],
    ]);
    // (1 - 2 + 3) / 4 = 0.5R a week; this week +2R: +1.5R.
    expect([c.previousAverageR, c.changeR]).toEqual([0.5, 1.5]);
    expect(c.text).toBe(
      'Net +2.00R against an average of +0.50R per week over the previous 4 weeks (+1.50R). This week: 1 trade without a planned risk, left out. The previous weeks: 1 trade without a planned risk, left out.',
    );
  });

  it('says plainly when there is nothing to compare in R; a day has no comparison', () => {
    expect(comparePeriodsInR('week', range, [t('2026-03-09', 100, 100)], [])!.text).toBe('No trades in the previous 4 weeks to compare with.');
    expect(comparePeriodsInR('week', range, [t('2026-03-09', 100, 100)], [t('2026-03-02', 100, null)])).toMatchObject({
      previousAverageR: null,
      changeR: null,
      text: 'No trade of the previous 4 weeks has a planned risk: nothing to compare in R.',
    });
    expect(comparePeriodsInR('week', range, [t('2026-03-09', 100, null)], [t('2026-03-02', 100, 100)])).toMatchObject({
      previousAverageR: 0.25,
      changeR: null,
      text: 'No trade of this week has a planned risk: nothing to compare in R.',
    });
    expect(comparePeriodsInR('day', range, [], [])).toBeNull();
  });
});
