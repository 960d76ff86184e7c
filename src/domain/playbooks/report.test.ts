import { describe, expect, it } from 'vitest';
import { computeRiskColumn } from '../reports/r-multiples';
import { createTradeSet, type ReportTrade } from '../reports/report-trade';
import { computePlaybookReport, deriveFollowedRules } from './report';

/** NQ is $20 a point. */
const trade = (id: string, pnlCents: number, patch: Partial<ReportTrade> = {}): ReportTrade => ({
  id,
  tradeDate: '2026-03-02',
  accountId: null,
  symbol: 'NQ',
  contract: null,
  side: 'Long',
  setup: 'Breakout',
  session: 'AM',
  tags: [],
  status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  pnlCents,
  commissionCents: 0,
  entryMs: null,
  exitMs: null,
  quantity: 1,
  ...patch,
});

describe('a playbook report', () => {
  const set = createTradeSet([
    // 10 points x 2 contracts x $20 = $400 risked: +$800 is +2R. Every one of the 3 rules ticked.
    trade('a', 80_000, { entryPrice: '18000', stopPrice: '17990', quantity: 2 }),
    // $300 risked: -$150 is -0.5R. All 3 ticked.
    trade('b', -15_000, { riskCents: 30_000 }),
    // No planned risk (and no defaults): no R. 1 of 3 ticked.
    trade('c', -40_000),
    // $100 risked: +$300 is +3R. 2 of 3 ticked.
    trade('d', 30_000, { riskCents: 10_000 }),
    // A break-even with $100 risked: 0R. All 3 ticked.
    trade('e', 0, { riskCents: 10_000 }),
  ]);
  const risk = computeRiskColumn(set.columns, []);
  const report = computePlaybookReport(set, risk, [3, 3, 1, 2, 3], 3);

  it('counts its trades, win rate, net and expectancy in $ and R, the trades without a planned risk apart', () => {
    expect(report).toMatchObject({
      trades: 5,
      wins: 2,
      losses: 2,
      winRate: 50,
      // 800 - 150 - 400 + 300 + 0
      netCents: 55_000,
      // (1100 - 550) / 4 decided trades
      expectancyCents: 13_750,
      // (2 - 0.5 + 3 + 0) / 4 = 1.125
      expectancyR: 1.13,
      tradesWithRisk: 4,
      tradesWithoutRisk: 1,
      rules: 3,
      // 12 ticks of 15
      adherence: 80,
    });
  });

  it('sets the trades that followed every rule against those that broke one', () => {
    expect(report.followed).toEqual({
      trades: 3,
      wins: 1,
      losses: 1,
      winRate: 50,
      netCents: 65_000,
      expectancyCents: 32_500,
      // (2 - 0.5 + 0) / 3
      expectancyR: 0.5,
      tradesWithRisk: 3,
      tradesWithoutRisk: 0,
    });
    expect(report.broken).toEqual({
      trades: 2,
      wins: 1,
      losses: 1,
      winRate: 50,
      netCents: -10_000,
      expectancyCents: -5_000,
      expectancyR: 3,
      tradesWithRisk: 1,
      tradesWithoutRisk: 1,
    });
  });

  it('has no adherence and no followed or broken trades when the playbook has no rules, and null figures without trades', () => {
    const none = computePlaybookReport(set, risk, [0, 0, 0, 0, 0], 0);
    expect(none.adherence).toBeNull();
    expect(none.followed.trades + none.broken.trades).toBe(0);
    expect(none.netCents).toBe(55_000);
    const empty = computePlaybookReport(createTradeSet([]), new Float64Array(0), [], 4);
    expect(empty).toMatchObject({ trades: 0, winRate: null, expectancyCents: null, expectancyR: null, adherence: null });
  });

  it('sums R exactly, as the reports and Reflect do: +$10.05 on a $10 plan is +1.01R, not the 1.00R of a float sum', () => {
    // Float: 1.005 + 1.005 + 1.005 = 3.0149999...; / 3 = 1.00499... rounds to 1.00. Exact: 3.015 / 3 = 1.005 -> 1.01.
    const exact = createTradeSet([
      trade('x', 1_005, { riskCents: 1_000 }),
      trade('y', 1_005, { riskCents: 1_000 }),
      trade('z', 1_005, { riskCents: 1_000 }),
    ]);
    expect(computePlaybookReport(exact, computeRiskColumn(exact.columns, []), [1, 1, 0], 1)).toMatchObject({
      expectancyR: 1.01,
      followed: { trades: 2, expectancyR: 1.01 },
      broken: { trades: 1, expectancyR: 1.01 },
    });
  });

  it('derives Reflect\'s "followed the rules" from the ticks', () => {
    expect(deriveFollowedRules(3, 3)).toBe(true);
    expect(deriveFollowedRules(2, 3)).toBe(false);
    expect(deriveFollowedRules(0, 0)).toBeNull();
  });
});
