import { describe, expect, it } from 'vitest';
import type { RiskDefault } from '../risk/planned-risk';
import { computeBreakdown } from './breakdown';
import { computeDistribution, computeRDistribution } from './distribution';
import { computeRiskColumn, computeROverview, getRBin, R_BINS } from './r-multiples';
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

describe('reports in R', () => {
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
      // R won (2 + 2.5) over R lost (0.5 + 1).
      profitFactorR: 3,
    });
    expect(Object.fromEntries(r.bins.map((b) => [b.id, b.trades]))).toEqual({ 'lt-2': 0, '-2': 0, '-1': 2, '0': 1, '1': 0, '2': 2, 'ge-3': 0 });
  });

  it('without defaults, only trades with a plan of their own have an R; without any, no figure', () => {
    const r = computeROverview(allTrades(columns), computeRiskColumn(columns, []));
    expect([r.tradesWithRisk, r.tradesWithoutRisk, r.totalR]).toEqual([3, 3, 1.5]);
    const none = computeROverview(allTrades(buildTradeColumns([trade('x', 100)])), computeRiskColumn(buildTradeColumns([trade('x', 100)]), []));
    expect(none).toMatchObject({ tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null, expectancyR: null, averageWinR: null, averageLossR: null });
  });
});

describe('the Overview in R rounds as the dashboard and Reflect do', () => {
  it('+$10.05 on a $10 plan is 1.005R: +1.01R, not the 1.00R a float division rounds to', () => {
    const columns = buildTradeColumns([trade('a', 1_005, { riskCents: 1_000 }), trade('b', -1_005, { riskCents: 1_000, tradeDate: '2026-03-03' })]);
    const both = computeROverview(allTrades(columns), computeRiskColumn(columns, []));
    expect([both.averageWinR, both.averageLossR, both.totalR]).toEqual([1.01, -1.01, 0]);
  });
});

describe("the Overview's R bins", () => {
  it('place -2.01R, -2R, -1.5R, -0.01R, 0R, 0.99R, 1R, 2.99R, 3R and 40R in the bin whose [from, to) holds them', () => {
    for (const r of [-40, -2.01, -2, -1.5, -1, -0.01, 0, 0.99, 1, 1.5, 2, 2.99, 3, 40, -30_000 / 20_000, 60_000 / 20_000, -40_000 / 20_000]) {
      expect(getRBin(r), `${r}R`).toBe(R_BINS.findIndex((b) => r >= b.from && r < b.to));
    }
  });
});

describe("the Overview's R bins hold what their labels say", () => {
  it('-2R, -1R, 0R, +1R and +3R exactly open their bins; a cent short of -2R is under -2R, a cent short of 3R under 3R', () => {
    const cols = buildTradeColumns([
      trade('minus-2', -60_000, { riskCents: 30_000 }), // -2R exactly: "-2R to -1R", not "< -2R"
      trade('below-2', -60_001, { riskCents: 30_000 }), // -2.00003R: "< -2R"
      trade('minus-1', -30_000, { riskCents: 30_000 }), // -1R: "-1R to 0R"
      trade('zero', 0, { riskCents: 30_000 }), // 0R: "0R to 1R"
      trade('plus-1', 25_000, { riskCents: 25_000 }), // +1R: "1R to 2R"
      trade('plus-3', 75_000, { riskCents: 25_000 }), // +3R: "≥ 3R"
      trade('under-3', 74_999, { riskCents: 25_000 }), // 2.99996R: "2R to 3R"
      trade('thirds', -10_000, { riskCents: 3_333 }), // -3.0003R: "< -2R"
    ]);
    const r = computeROverview(allTrades(cols), computeRiskColumn(cols, []));
    expect(r.bins.map((b) => [b.label, b.trades])).toEqual([
      ['< -2R', 2],
      ['-2R to -1R', 1],
      ['-1R to 0R', 1],
      ['0R to 1R', 1],
      ['1R to 2R', 1],
      ['2R to 3R', 1],
      ['≥ 3R', 1],
    ]);
  });

  it('places a trade as the Distributions do: each half-R bucket lies inside the Overview bin its lower edge is in', () => {
    const cols = buildTradeColumns(
      [-60_000, -45_000, -30_000, -1, 0, 29_999, 30_000, 90_000, 90_001].map((pnl, k) => trade(`t${k}`, pnl, { riskCents: 30_000 })),
    );
    const risk = computeRiskColumn(cols, []);
    const bins = computeROverview(allTrades(cols), risk).bins;
    const fromDistribution = new Map<string, number>();
    for (const bucket of computeRDistribution(allTrades(cols), risk).buckets) {
      const edge = bucket.from ?? -Infinity;
      const bin = bins.find((b, k) => k === bins.length - 1 || edge < [-2, -1, 0, 1, 2, 3][k]!)!;
      fromDistribution.set(bin.label, (fromDistribution.get(bin.label) ?? 0) + bucket.trades);
    }
    expect(Object.fromEntries(bins.map((b) => [b.label, b.trades]))).toEqual(
      Object.fromEntries(bins.map((b) => [b.label, fromDistribution.get(b.label) ?? 0])),
    );
  });
});

describe('the distribution of R', () => {
  const trades = [
    trade('stop', 80_000, { entryPrice: '18000', stopPrice: '17990', quantity: 2 }), // +2R ($400 risked)
    trade('amount', -15_000, { riskCents: 30_000 }), // -0.5R
    trade('default-points', -40_000), // -1R by NQ's default of 20 points
    trade('default-dollars', 62_500, { accountId: 'acct-b', symbol: 'MES' }), // +2.5R by account B's $250
    trade('none', 10_000, { symbol: 'MES' }), // no R
    trade('scratch', 0, { riskCents: 20_000 }), // 0R
  ];
  const columns = buildTradeColumns(trades);

  it('puts each R in its half-R bucket, lower bound included, from the first bucket with a trade to the last', () => {
    const dist = computeRDistribution(allTrades(columns), computeRiskColumn(columns, defaults));
    expect([dist.of, dist.total, dist.excluded]).toEqual(['r', 6, 1]);
    expect(dist.buckets.map((b) => [b.label, b.from, b.to, b.trades, b.wins, b.losses, b.netCents])).toEqual([
      ['-1R to -0.5R', -1, -0.5, 1, 0, 1, -40_000],
      ['-0.5R to 0R', -0.5, 0, 1, 0, 1, -15_000],
      ['0R to 0.5R', 0, 0.5, 1, 0, 0, 0],
      ['0.5R to 1R', 0.5, 1, 0, 0, 0, 0],
      ['1R to 1.5R', 1, 1.5, 0, 0, 0, 0],
      ['1.5R to 2R', 1.5, 2, 0, 0, 0, 0],
      ['2R to 2.5R', 2, 2.5, 1, 1, 0, 80_000],
      ['2.5R to 3R', 2.5, 3, 1, 1, 0, 62_500],
    ]);
    // A break-even is neither a win nor a loss: its bucket has no win rate.
    expect(dist.buckets[2]!.winRate).toBeNull();
    expect(dist.buckets[0]!.winRate).toBe(0);
  });

  it('opens the ends at -3R and +3R: -5R is under -3R, -3R and +3R exactly are inside their buckets, 1/3R and 0.49997R under 0.5R', () => {
    const cols = buildTradeColumns([
      trade('a', -100_000, { riskCents: 20_000 }), // -5R
      trade('b', -60_000, { riskCents: 20_000 }), // -3R
      trade('c', 10_000, { riskCents: 30_000 }), // +0.333...R
      trade('d', 14_999, { riskCents: 30_000 }), // +0.49997R
      trade('e', 15_000, { riskCents: 30_000 }), // +0.5R
      trade('f', 90_000, { riskCents: 30_000 }), // +3R
      trade('g', 1_000_000, { riskCents: 1_000 }), // +1000R
    ]);
    const dist = computeDistribution(allTrades(cols), 'r', computeRiskColumn(cols, []));
    const counts = Object.fromEntries(dist.buckets.filter((b) => b.trades > 0).map((b) => [b.label, b.trades]));
    expect(counts).toEqual({ 'under -3R': 1, '-3R to -2.5R': 1, '0R to 0.5R': 2, '0.5R to 1R': 1, '3R and over': 2 });
    expect(dist.buckets[0]).toMatchObject({ from: null, to: -3 });
    expect(dist.buckets[dist.buckets.length - 1]).toMatchObject({ from: 3, to: null, netCents: 1_090_000 });
    expect(dist.buckets).toHaveLength(14);
  });

  it("without the trader's defaults only the trades' own plans count; with no plan at all, no bucket and every trade left out", () => {
    const own = computeDistribution(allTrades(columns), 'r');
    expect([own.buckets.reduce((n, b) => n + b.trades, 0), own.excluded]).toEqual([3, 3]);
    const none = buildTradeColumns([trade('x', 100), trade('y', -100)]);
    expect(computeDistribution(allTrades(none), 'r')).toEqual({ of: 'r', buckets: [], excluded: 2, total: 2 });
  });
});

describe('breakdowns in R', () => {
  const trades = [
    trade('stop', 80_000, { entryPrice: '18000', stopPrice: '17990', quantity: 2, tags: ['A+'] }), // NQ +2R
    trade('amount', -15_000, { riskCents: 30_000, tags: ['A+', 'fomo'] }), // NQ -0.5R
    trade('default-points', -40_000), // NQ -1R by its default
    trade('default-dollars', 62_500, { accountId: 'acct-b', symbol: 'MES' }), // MES +2.5R by account B's default
    trade('none', 10_000, { symbol: 'MES', tags: ['fomo'] }), // MES, no R
    trade('scratch', 0, { riskCents: 20_000 }), // NQ 0R
  ];
  const columns = buildTradeColumns(trades);
  const byKey = (rows: Array<{ key: string; r: unknown }>) => Object.fromEntries(rows.map((row) => [row.key, row.r]));

  it("each row's net R and expectancy from its trades with a planned risk, the others counted apart", () => {
    const breakdown = computeBreakdown(allTrades(columns), 'instrument', {
      timeZone: 'America/New_York',
      risk: computeRiskColumn(columns, defaults),
    });
    // NQ: +2 - 0.5 - 1 + 0 = +0.5R over 4 trades, 0.125R a trade, half away from zero: 0.13R. MES: +2.5R, one trade apart.
    expect(byKey(breakdown.rows)).toEqual({
      NQ: { tradesWithRisk: 4, tradesWithoutRisk: 0, totalR: 0.5, expectancyR: 0.13 },
      MES: { tradesWithRisk: 1, tradesWithoutRisk: 1, totalR: 2.5, expectancyR: 2.5 },
    });
    expect(breakdown.tradesWithoutRisk).toBe(1);
    // The dollar figures are still of every trade of the row.
    expect(breakdown.rows.find((row) => row.key === 'MES')).toMatchObject({ trades: 2, netCents: 72_500 });
  });

  it('a trade with two tags counts in both rows; a row with no planned risk has no R', () => {
    const breakdown = computeBreakdown(allTrades(columns), 'tag', { timeZone: 'America/New_York', risk: computeRiskColumn(columns, defaults) });
    expect(byKey(breakdown.rows)).toEqual({
      'A+': { tradesWithRisk: 2, tradesWithoutRisk: 0, totalR: 1.5, expectancyR: 0.75 },
      fomo: { tradesWithRisk: 1, tradesWithoutRisk: 1, totalR: -0.5, expectancyR: -0.5 },
    });
    const none = buildTradeColumns([trade('x', 100, { symbol: 'ES' })]);
    expect(computeBreakdown(allTrades(none), 'instrument', { timeZone: 'America/New_York' }).rows[0]!.r).toEqual({
      tradesWithRisk: 0,
      tradesWithoutRisk: 1,
      totalR: null,
      expectancyR: null,
    });
  });

  it("without the trader's defaults, only the trades' own plans count", () => {
    const breakdown = computeBreakdown(allTrades(columns), 'instrument', { timeZone: 'America/New_York' });
    // NQ: +2 - 0.5 + 0 = +1.5R over 3; the trade priced only by a default is apart.
    expect(byKey(breakdown.rows)).toMatchObject({ NQ: { tradesWithRisk: 3, tradesWithoutRisk: 1, totalR: 1.5, expectancyR: 0.5 } });
    expect(breakdown.tradesWithoutRisk).toBe(3);
  });
});
