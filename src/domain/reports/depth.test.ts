import { describe, expect, it } from 'vitest';
import { computeDayStreaks, computeDepth, computeDrawdownFigures, computePnlByWeek, computeRatioFigures, computeTimeBuckets } from './depth';
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
    const weeks = computePnlByWeek(setOf([trade('2026-04-30', 10_000), trade('2026-04-30', -2_500), trade('2026-05-01', -4_000), trade('2026-05-04', 1_000)]));
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
    expect(computeDrawdownFigures(days(['2026-01-05', -1_000], ['2026-01-09', 1_500]))).toMatchObject({ maxDrawdownCents: 1_000, longestUnderwaterDays: 4, currentDrawdownCents: 0 });
    expect(computeDrawdownFigures(days(['2026-01-05', 1_000], ['2026-01-06', 0]))).toMatchObject({ maxDrawdownCents: 0, recoveryFactor: null, longestUnderwaterDays: 0 });
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
    const set = setOf([trade('2026-02-02', 200), trade('2026-02-03', -100), trade('2026-02-04', 100), trade('2026-02-05', -100), trade('2026-02-06', 400)]);
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
