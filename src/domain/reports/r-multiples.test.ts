import { describe, expect, it } from 'vitest';
import type { RiskDefault } from '../risk/planned-risk';
import { computeRiskColumn, computeROverview } from './r-multiples';
import { allTrades, buildTradeColumns, type ReportTrade } from './report-trade';

/** NQ is $20 a point, MES $5. */
const trade = (id: string, pnlCents: number, patch: Partial<ReportTrade> = {}): ReportTrade => ({
  id,
  tradeDate: '2026-03-02',
  accountId: 'acct-a',
  symbol: 'NQ',
  contract: null,
  side: 'Long',
  setup: '',
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

const defaults: RiskDefault[] = [
  { id: 'nq-points', accountId: null, root: 'NQ', stopPoints: '20', amountCents: null },
  { id: 'b-dollars', accountId: 'acct-b', root: null, stopPoints: null, amountCents: 25_000 },
];

describe('reports in R (issue 27)', () => {
  const trades = [
    // Own stop 10 points under a long NQ entry, 2 contracts: 10 x 2 x $20 = $400 risked; +$800 is +2R.
    trade('stop', 80_000, { entryPrice: '18000', stopPrice: '17990', quantity: 2 }),
    // Own dollar risk $300; -$150 is -0.5R.
    trade('amount', -15_000, { riskCents: 30_000 }),
    // No plan of its own: NQ's default of 20 points x 1 x $20 = $400; -$400 is -1R.
    trade('default-points', -40_000),
    // Account B's default of $250 a trade applies before... nothing else matches MES: +$625 is +2.5R.
    trade('default-dollars', 62_500, { accountId: 'acct-b', symbol: 'MES' }),
    // MES in account A: no default applies, no plan: no R.
    trade('none', 10_000, { symbol: 'MES' }),
    // A break-even with a $200 plan: 0R, counted in the expectancy but neither a win nor a loss.
    trade('scratch', 0, { riskCents: 20_000 }),
  ];
  const columns = buildTradeColumns(trades);

  it("prices each trade's planned risk: its own stop or dollars first, else the default that applies", () => {
    expect(Array.from(columns.ownRisk)).toEqual([40_000, 30_000, NaN, NaN, NaN, 20_000]);
    expect(Array.from(computeRiskColumn(columns, defaults))).toEqual([40_000, 30_000, 40_000, 25_000, NaN, 20_000]);
  });

  it('totals, expectancy and average win and loss in R, and the trades without a planned risk apart', () => {
    const r = computeROverview(allTrades(columns), computeRiskColumn(columns, defaults));
    // R: +2, -0.5, -1, +2.5, 0 over 5 trades with a risk: total 3R, expectancy 0.6R. Bins hold [from, to): -1R is in -1R to 0R.
    expect(r).toMatchObject({
      tradesWithRisk: 5,
      tradesWithoutRisk: 1,
      totalR: 3,
      expectancyR: 0.6,
      averageWinR: 2.25,
      averageLossR: -0.75,
      netCentsWithRisk: 80_000 - 15_000 - 40_000 + 62_500,
    });
    expect(Object.fromEntries(r.bins.map((b) => [b.id, b.trades]))).toEqual({ 'le-2': 0, '-2': 0, '-1': 2, '0': 1, '1': 0, '2': 2, 'ge-3': 0 });
  });

  it('without defaults, only trades with a plan of their own have an R; without any, no figure', () => {
    const r = computeROverview(allTrades(columns), computeRiskColumn(columns, []));
    expect([r.tradesWithRisk, r.tradesWithoutRisk, r.totalR]).toEqual([3, 3, 1.5]);
    const none = computeROverview(allTrades(buildTradeColumns([trade('x', 100)])), computeRiskColumn(buildTradeColumns([trade('x', 100)]), []));
    expect(none).toMatchObject({ tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null, expectancyR: null, averageWinR: null, averageLossR: null });
  });
});

describe('the Overview in R rounds as the dashboard and Reflect do (issue 27)', () => {
  it('+$10.05 on a $10 plan is 1.005R: +1.01R, not the 1.00R a float division rounds to', () => {
    const columns = buildTradeColumns([trade('a', 1_005, { riskCents: 1_000 }), trade('b', -1_005, { riskCents: 1_000, tradeDate: '2026-03-03' })]);
    const both = computeROverview(allTrades(columns), computeRiskColumn(columns, []));
    expect([both.averageWinR, both.averageLossR, both.totalR]).toEqual([1.01, -1.01, 0]);
  });
});
