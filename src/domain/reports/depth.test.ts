import { describe, expect, it } from 'vitest';
import {
  computeAccountDrawdowns,
  computeDayStreaks,
  computeDepth,
  computeDrawdownFigures,
  computePnlByWeek,
  computeRatioFigures,
  computeTimeBuckets,
  mergeTimeBuckets,
} from './depth';
import { createTradeSet, type ReportTrade } from './report-trade';

const NY = 'America/New_York';
let seq = 0;
const trade = (tradeDate: string, pnlCents: number, entry: string | null = null): ReportTrade => ({
  id: `t${++seq}`,
  tradeDate,
  accountId: 'a',
  symbol: 'NQ',
  contract: null,
  side: 'Long',
  setup: '',
  session: 'AM',
  tags: [],
  status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE',
  pnlCents,
  commissionCents: 0,
  entryMs: entry === null ? null : Date.parse(entry),
  exitMs: null,
  quantity: 1,
});
const setOf = (trades: ReportTrade[]) => createTradeSet(trades);
const days = (...entries: Array<[string, number]>) => entries.map(([date, pnlCents]) => ({ date, pnlCents }));

describe('P&L by week', () => {
  it('keeps a week across a month end whole, Monday to Sunday', () => {
    // Thursday April 30 and Friday May 1, 2026 are one week; Monday May 4 opens the next.
    const weeks = computePnlByWeek(
      setOf([trade('2026-04-30', 10_000), trade('2026-04-30', -2_500), trade('2026-05-01', -4_000), trade('2026-05-04', 1_000)]),
    );
    expect(weeks).toEqual([
      { weekStart: '2026-04-27', weekEnd: '2026-05-03', tradingDays: 2, trades: 3, netCents: 3_500 },
      { weekStart: '2026-05-04', weekEnd: '2026-05-10', tradingDays: 1, trades: 1, netCents: 1_000 },
    ]);
  });
});

describe('time buckets of the entry', () => {
  it('puts each entry in its 15- and 30-minute bucket on the trader clock, and counts trades without an entry', () => {
    // March 2, 2026: New York is UTC-5.
    const set = setOf([
      trade('2026-03-02', 100, '2026-03-02T14:29:59Z'),
      trade('2026-03-02', -50, '2026-03-02T14:30:00Z'),
      trade('2026-03-02', 25, '2026-03-02T14:44:00Z'),
      trade('2026-03-02', 10, '2026-03-02T14:45:00Z'),
      trade('2026-03-02', -5, '2026-03-02T15:14:00Z'),
      trade('2026-03-02', 999),
    ]);
    const fifteen = computeTimeBuckets(set, 15, NY);
    expect(fifteen.excluded).toBe(1);
    expect(fifteen.buckets.map((b) => [b.label, b.trades, b.wins, b.losses, b.netCents])).toEqual([
      ['09:15-09:30', 1, 1, 0, 100],
      ['09:30-09:45', 2, 1, 1, -25],
      ['09:45-10:00', 1, 1, 0, 10],
      ['10:00-10:15', 1, 0, 1, -5],
    ]);
    expect(computeTimeBuckets(set, 30, NY).buckets.map((b) => [b.label, b.trades, b.netCents])).toEqual([
      ['09:00-09:30', 1, 100],
      ['09:30-10:00', 3, -15],
      ['10:00-10:30', 1, -5],
    ]);
    // The depth report makes its 30-minute buckets from the 15-minute ones: the same figures as counted directly.
    expect(mergeTimeBuckets(fifteen)).toEqual(computeTimeBuckets(set, 30, NY));
    expect(computeDepth(set, NY).buckets30).toEqual(computeTimeBuckets(set, 30, NY));
  });

  it('reads the clock of the zone across a change of daylight time: 13:30 UTC is 09:30 in March after the change, 08:30 before', () => {
    const set = setOf([trade('2026-03-06', 100, '2026-03-06T13:30:00Z'), trade('2026-03-09', 200, '2026-03-09T13:30:00Z')]);
    expect(computeTimeBuckets(set, 30, NY).buckets.map((b) => [b.label, b.netCents])).toEqual([
      ['08:30-09:00', 100],
      ['09:30-10:00', 200],
    ]);
  });
});

describe('drawdown as figures', () => {
  it('counts time under water in calendar days, a holiday included, and the drawdown still open', () => {
    const figures = computeDrawdownFigures(
      days(
        ['2025-12-19', 50_000], // Friday: a peak of 500.00
        ['2025-12-22', -30_000],
        ['2025-12-23', -10_000], // the bottom, 400.00 below the peak
        ['2025-12-24', 10_000],
        // Thursday December 25: the exchange is closed.
        ['2025-12-26', 40_000], // back above the peak: 7 calendar days under water
        ['2025-12-29', -5_000], // under again since Friday the 26th
      ),
    );
    expect(figures).toEqual({
      maxDrawdownCents: 40_000,
      currentDrawdownCents: 5_000,
      longestUnderwaterDays: 7,
      currentUnderwaterDays: 3,
      recoveryFactor: 55_000 / 40_000,
      netCents: 55_000,
    });
  });

  it('a fall from the start is under water from the first day; no fall has no recovery factor', () => {
    expect(computeDrawdownFigures(days(['2026-01-05', -1_000], ['2026-01-09', 1_500]))).toMatchObject({
      maxDrawdownCents: 1_000,
      longestUnderwaterDays: 4,
      currentDrawdownCents: 0,
    });
    expect(computeDrawdownFigures(days(['2026-01-05', 1_000], ['2026-01-06', 0]))).toMatchObject({
      maxDrawdownCents: 0,
      recoveryFactor: null,
      longestUnderwaterDays: 0,
    });
    expect(computeDrawdownFigures([])).toMatchObject({ maxDrawdownCents: 0, recoveryFactor: null, netCents: 0 });
  });
});

describe('streaks of winning and losing days', () => {
  it('finds the longest of each and the current one; a flat day breaks both', () => {
    const pnl = [100, 50, -10, 0, -5, -5, -1, 20].map((pnlCents) => ({ pnlCents }));
    expect(computeDayStreaks(pnl)).toEqual({ longestWinningDays: 2, longestLosingDays: 3, current: { kind: 'winning', days: 1 } });
    expect(computeDayStreaks([{ pnlCents: -1 }, { pnlCents: 0 }]).current).toEqual({ kind: null, days: 0 });
  });
});

describe('Sortino, SQN and Kelly', () => {
  it('computes them from cents as worked by hand', () => {
    // Five trades, one a day: +200, -100, +100, -100, +400 cents.
    const set = setOf([
      trade('2026-02-02', 200),
      trade('2026-02-03', -100),
      trade('2026-02-04', 100),
      trade('2026-02-05', -100),
      trade('2026-02-06', 400),
    ]);
    const ratios = computeRatioFigures(set);
    // Sortino over the days: mean 100, downside squares (10,000 + 10,000) / 5 = 4,000.
    expect(ratios.sortino).toBeCloseTo(100 / Math.sqrt(4_000), 12);
    // SQN: mean 100, sample deviation sqrt(180,000 / 4) = sqrt(45,000), over 5 trades.
    expect(ratios.sqn).toBeCloseTo((Math.sqrt(5) * 100) / Math.sqrt(45_000), 12);
    expect(ratios.sqnSample).toBe(5);
    // Kelly: W = 3/5, payoff (700/3) / 100 = 7/3: 3/5 - (2/5) / (7/3) = 3/7.
    expect(ratios.kelly).toBeCloseTo(3 / 7, 12);
  });

  it('says not defined (null), never Infinity, without a losing day or without a spread', () => {
    const winners = computeRatioFigures(setOf([trade('2026-02-02', 100), trade('2026-02-03', 300)]));
    expect(winners.sortino).toBeNull();
    expect(winners.kelly).toBeNull();
    expect(winners.sqn).toBeCloseTo((Math.sqrt(2) * 200) / Math.sqrt(20_000), 12);
    const same = computeRatioFigures(setOf([trade('2026-02-02', 100), trade('2026-02-03', 100)]));
    expect(same.sqn).toBeNull();
    expect(computeRatioFigures(setOf([trade('2026-02-02', 100)])).sqn).toBeNull();
    const all = computeDepth(setOf([trade('2026-02-02', 100)]), NY);
    expect(JSON.stringify(all)).not.toMatch(/Infinity|NaN/);
  });
});

describe('drawdown per account, in R and as a share of the starting balance', () => {
  const names = (id: string) => ({ a: 'Apex 50K', b: 'Demo', c: 'Topstep' })[id];
  /** A trade of an account, with a planned risk in cents or none. */
  const of = (accountId: string | null, tradeDate: string, pnlCents: number, riskCents: number | null = null): ReportTrade => ({
    ...trade(tradeDate, pnlCents),
    accountId,
    riskCents,
  });
  // Apex 50K over Christmas 2025: +500 (2R), -300 (-3R), -100 (no plan), +100 (1R), closed on the 25th, +400 (2R), -50 (-1R).
  const apex = [
    of('a', '2025-12-19', 50_000, 25_000),
    of('a', '2025-12-22', -30_000, 10_000),
    of('a', '2025-12-23', -10_000),
    of('a', '2025-12-24', 10_000, 10_000),
    of('a', '2025-12-26', 40_000, 20_000),
    of('a', '2025-12-29', -5_000, 5_000),
  ];
  /** The trades in trading order (a stable sort by day keeps each day's own order). */
  const ordered = (trades: ReportTrade[]) => setOf([...trades].sort((x, y) => x.tradeDate.localeCompare(y.tradeDate)));
  const balances = new Map([
    ['a', 5_000_000],
    ['b', 0],
  ]);

  it('gives each account its own drawdown, time under water over the holiday, recovery factor, R and percentage', () => {
    const rows = computeAccountDrawdowns(ordered([...apex, of('b', '2025-12-22', -20_000), of(null, '2025-12-22', 10_000)]), {
      startingBalances: balances,
      accountName: names,
    });
    expect(rows.map((r) => r.label)).toEqual(['Apex 50K', 'Demo', 'Unassigned']);
    const [a, b, none] = rows;
    expect(a).toEqual({
      key: 'a',
      label: 'Apex 50K',
      trades: 6,
      maxDrawdownCents: 40_000,
      currentDrawdownCents: 5_000,
      // Friday the 19th to Friday the 26th, Christmas Day included: 7 calendar days; under again 3 days since.
      longestUnderwaterDays: 7,
      currentUnderwaterDays: 3,
      // 550.00 net over 400.00 drawn down.
      recoveryFactor: 1.375,
      netCents: 55_000,
      startingBalanceCents: 5_000_000,
      // 400.00 of 50,000.00 is 0.8%; 50.00 is 0.1%.
      maxDrawdownPercent: 0.8,
      currentDrawdownPercent: 0.1,
      // In R by day: 2, -1, (the 23rd has no plan), 0, 2, 1: 3R down from the peak of 2R, 1R down now.
      r: { maxDrawdownR: 3, currentDrawdownR: 1, tradesWithRisk: 5, tradesWithoutRisk: 1 },
    });
    // A starting balance of 0 and trades without an account give no percentage (not 0%).
    expect(b).toMatchObject({
      maxDrawdownCents: 20_000,
      startingBalanceCents: 0,
      maxDrawdownPercent: null,
      currentDrawdownPercent: null,
      r: { maxDrawdownR: null, tradesWithRisk: 0 },
    });
    expect(none).toMatchObject({ maxDrawdownCents: 0, startingBalanceCents: null, maxDrawdownPercent: null });
  });

  it('gives every account the filter names a row, one without trades in the set too', () => {
    const rows = computeAccountDrawdowns(setOf(apex), { startingBalances: balances, accountName: names, accounts: ['a', 'c'] });
    expect(rows.map((r) => [r.label, r.trades, r.maxDrawdownCents, r.maxDrawdownPercent])).toEqual([
      ['Apex 50K', 6, 40_000, 0.8],
      // Topstep has no starting balance known: no percentage.
      ['Topstep', 0, 0, null],
    ]);
  });

  it('gives the whole set its percentage on the accounts’ starting balances added up, none when a trade has no account', () => {
    const both = computeDepth(ordered([...apex, of('c', '2025-12-22', -1_000)]), NY, {
      startingBalances: new Map([
        ['a', 3_000_000],
        ['c', 2_000_000],
      ]),
    });
    // The set's lowest point is on the 23rd: 500.00 up, then -300.00, -10.00 and -100.00: 410.00 below, of 50,000.00.
    expect(both.drawdown.maxDrawdownCents).toBe(41_000);
    expect(both.drawdownPercent).toEqual({ startingBalanceCents: 5_000_000, maxDrawdownPercent: 0.8, currentDrawdownPercent: 0.1 });
    expect(both.drawdownR).toEqual({ maxDrawdownR: 3, currentDrawdownR: 1, tradesWithRisk: 5, tradesWithoutRisk: 2 });
    const withUnassigned = computeDepth(ordered([...apex, of(null, '2025-12-22', 100)]), NY, { startingBalances: balances });
    expect(withUnassigned.drawdownPercent).toEqual({ startingBalanceCents: null, maxDrawdownPercent: null, currentDrawdownPercent: null });
  });
});
