import { describe, expect, it } from 'vitest';
import { computeBreakdown, getBreakdownRowFilter } from './breakdown';
import { computeYearCalendar, getMonthGrid } from './calendar';
import { computeHoldDistribution, computePnlDistribution, getNiceStep, selectRank } from './distribution';
import { buildEquityPoints, computeEquity, sampleEquity } from './equity';
import { compareOverviews, formatDifference, formatDuration, formatFigure, listOverviewFigures } from './figures';
import { createReportFilter } from './filter';
import { computeHeatmap } from './heatmap';
import { computeOverview } from './overview';
import { aggregateTrades, aggregateTradesByDay } from '../stats/trade-aggregate';
import { aggregateRows, aggregateRowsByDay, countStreaks } from './aggregate-rows';
import { calculateStreaks } from '../stats/streaks';
import { createTradeSet, selectTrades, type ReportTrade } from './report-trade';

const NY = 'America/New_York';

/**
 * A trade as a trader would name it: "NQ short +$150 on Mar 2 at 09:31 for 90 s". Times are New York wall clock in
 * March 2026 (EST, UTC-5 until Mar 8, then EDT, UTC-4).
 */
function trade(
  day: string,
  cents: number,
  options: Partial<Omit<ReportTrade, 'entryMs' | 'exitMs'>> & { at?: string; holdFor?: number; offsetHours?: number } = {},
): ReportTrade {
  const { at, holdFor, offsetHours = Number(day.slice(8, 10)) >= 8 && day.slice(5, 7) === '03' ? 4 : 5, ...rest } = options;
  const entryMs = at ? Date.parse(`${day}T${at}:00Z`) + offsetHours * 3_600_000 : null;
  return {
    id: `${day}-${at ?? 'manual'}-${cents}`,
    tradeDate: day,
    accountId: 'acct-a',
    symbol: 'NQ',
    contract: at ? 'NQH6' : null,
    side: at ? 'Long' : null,
    setup: 'Breakout',
    session: 'AM',
    tags: [],
    status: cents > 0 ? 'Win' : cents < 0 ? 'Loss' : 'BE',
    pnlCents: cents,
    commissionCents: at ? 420 : 0,
    entryMs,
    exitMs: entryMs === null || holdFor === undefined ? null : entryMs + holdFor * 1000,
    quantity: at ? 1 : null,
    ...rest,
  };
}
const set = createTradeSet;

describe('Overview of a week of NQ trades', () => {
  // Mon Mar 2: +150 (09:31, 90 s), -60 (10:05, 30 s). Tue Mar 3: -200 (09:45, 600 s), BE manual.
  // Wed Mar 4: +300 (14:10, 45 s), +100 (14:40, 120 s).
  const week = [
    trade('2026-03-02', 15_000, { at: '09:31', holdFor: 90 }),
    trade('2026-03-02', -6_000, { at: '10:05', holdFor: 30 }),
    trade('2026-03-03', -20_000, { at: '09:45', holdFor: 600 }),
    trade('2026-03-03', 0),
    trade('2026-03-04', 30_000, { at: '14:10', holdFor: 45 }),
    trade('2026-03-04', 10_000, { at: '14:40', holdFor: 120 }),
  ];

  it('every figure, computed by hand', () => {
    const o = computeOverview(set(week), { openingBalanceCents: 1_000_000 });
    expect(o).toMatchObject({
      trades: 6,
      wins: 3,
      losses: 2,
      breakEvens: 1,
      netCents: 29_000,
      feesCents: 5 * 420,
      grossCents: 29_000 + 2_100,
      grossProfitCents: 55_000,
      grossLossCents: -26_000,
      winRate: 60,
      // 550 / 260
      profitFactor: 2.12,
      // 290 / 5 decided trades
      expectancyCents: 5_800,
      // 290 / 6
      averageTradeCents: 4_833,
      averageWinCents: 18_333,
      averageLossCents: -13_000,
      // 183.33 / 130
      payoffRatio: 1.41,
      largestWin: { pnlCents: 30_000, tradeDate: '2026-03-04' },
      largestLoss: { pnlCents: -20_000, tradeDate: '2026-03-03' },
      // W L L BE W W: the BE breaks the loss run; the last two are the longest win run
      maxConsecutiveWins: 2,
      maxConsecutiveLosses: 2,
      // winners 90, 45, 120 -> 85; losers 30, 600 -> 315
      averageHoldWinnersSeconds: 85,
      averageHoldLosersSeconds: 315,
      tradesWithoutTimes: 1,
      tradingDays: 3,
      winningDays: 2,
      losingDays: 1,
      winningDaysPercent: 66.7,
      bestDay: { tradeDate: '2026-03-04', pnlCents: 40_000 },
      worstDay: { tradeDate: '2026-03-03', pnlCents: -20_000 },
      firstDay: '2026-03-02',
      lastDay: '2026-03-04',
    });
    // Equity 150, 90, -110, -110, 190, 290: from the 150 peak (Mar 2) down to -110 (Mar 3), back above on Mar 4.
    expect(o.maxDrawdown).toEqual({
      amountCents: 26_000,
      peakCents: 15_000,
      peakDay: '2026-03-02',
      troughDay: '2026-03-03',
      recoveryDay: '2026-03-04',
      tradesToTrough: 2,
      tradesToRecovery: 2,
      // 260 of 10,150
      percentOfPeak: 2.6,
    });
  });

  it('no trades in the filter: counts are zero and every computed figure is empty', () => {
    const o = computeOverview(set([]));
    expect(o).toMatchObject({
      trades: 0,
      netCents: 0,
      winRate: null,
      profitFactor: null,
      expectancyCents: null,
      maxDrawdown: null,
      bestDay: null,
      firstDay: null,
    });
    const figures = listOverviewFigures(o);
    expect(figures.find((f) => f.key === 'maxDrawdownCents')?.value).toBeNull();
    expect(figures.find((f) => f.key === 'profitFactor')).toMatchObject({ value: null });
    expect(figures.find((f) => f.key === 'profitFactor')?.infinite).toBeUndefined();
  });

  it('one winning trade: profit factor ∞, no drawdown ($0.00), no deviation', () => {
    const o = computeOverview(set([trade('2026-03-02', 5_000, { at: '09:31', holdFor: 10 })]));
    const figures = listOverviewFigures(o);
    expect(figures.find((f) => f.key === 'profitFactor')).toMatchObject({ value: null, infinite: true });
    expect(figures.find((f) => f.key === 'maxDrawdownCents')?.value).toBe(0);
    expect(o.dailyStdDevCents).toBeNull();
  });

  it('only break-evens: no win rate, profit factor "—" not ∞, no winning days', () => {
    const o = computeOverview(set([trade('2026-03-02', 0), trade('2026-03-03', 0)]));
    expect(o).toMatchObject({ trades: 2, breakEvens: 2, winRate: null, profitFactor: null, winningDaysPercent: 0, maxDrawdown: null });
    expect(listOverviewFigures(o).find((f) => f.key === 'profitFactor')?.infinite).toBeUndefined();
  });

  it('NQ shorts after 14:00 of the week: the filter picks the two Wednesday trades', () => {
    const shorts = week.map((t) => (t.entryMs !== null ? { ...t, side: 'Short' } : t));
    const selected = selectTrades(set(shorts).columns, createReportFilter({ side: ['Short'], hour: [14, 15, 16, 17] }), { from: null, to: null }, NY);
    expect(Array.from(selected.rows, (i) => selected.columns.pnl[i])).toEqual([30_000, 10_000]);
  });

  it('a range of the widest days a trader can type (0001-01-01 to 9999-12-31) holds every trade of the week', () => {
    const all = selectTrades(set(week).columns, createReportFilter(), { from: '0001-01-01', to: '9999-12-31' }, NY);
    expect(all.rows.length).toBe(week.length);
    const upToTuesday = selectTrades(set(week).columns, createReportFilter(), { from: null, to: '2026-03-03' }, NY);
    expect(Array.from(upToTuesday.rows, (i) => upToTuesday.columns.pnl[i])).toEqual([15_000, -6_000, -20_000, 0]);
  });
});

describe('Breakdowns', () => {
  const names = (id: string) => ({ 'acct-a': 'Apex', 'acct-b': 'Topstep' })[id];
  const trades = [
    trade('2026-03-02', 15_000, { at: '09:31', holdFor: 90, tags: ['A+'], accountId: 'acct-b' }),
    trade('2026-03-02', -6_000, { at: '09:50', holdFor: 30, tags: ['A+', 'FOMO'], symbol: 'ES' }),
    trade('2026-03-03', -20_000, { at: '14:45', holdFor: 7200, symbol: 'ES', quantity: 2 }),
    trade('2026-03-03', 0, { accountId: null }),
  ];

  it('by instrument: most traded first, each row with the Overview formulas and its share of the trades', () => {
    const { rows, total, excluded } = computeBreakdown(set(trades), 'instrument', { timeZone: NY });
    expect({ total, excluded }).toEqual({ total: 4, excluded: 0 });
    expect(rows.map((r) => [r.label, r.trades, r.netCents, r.winRate, r.profitFactor, r.averageCents, r.sharePercent])).toEqual([
      // ES: two losses (-60, -200), no win: profit factor 0
      ['ES', 2, -26_000, 0, 0, -13_000, 50],
      // NQ: +150 and a break-even: no loss, so no profit factor (∞)
      ['NQ', 2, 15_000, 100, null, 7_500, 50],
    ]);
  });

  it('by hour of entry (New York): 09:00 has two trades, 14:00 one, the manual trade is left out and counted', () => {
    const { rows, excluded } = computeBreakdown(set(trades), 'hour', { timeZone: NY });
    expect(rows.map((r) => [r.key, r.label, r.trades])).toEqual([
      ['9', '09:00-10:00', 2],
      ['14', '14:00-15:00', 1],
    ]);
    expect(excluded).toBe(1);
    // The same trades read on a Tokyo clock land 14 hours later.
    expect(computeBreakdown(set(trades), 'hour', { timeZone: 'Asia/Tokyo' }).rows.map((r) => r.key)).toEqual(['4', '23']);
  });

  it('by hold time in the six buckets, by tag (a trade in each of its tags), by account with names', () => {
    expect(computeBreakdown(set(trades), 'hold', { timeZone: NY }).rows.map((r) => [r.label, r.trades])).toEqual([
      ['< 1 min', 1],
      ['1-5 min', 1],
      ['1-4 h', 1],
    ]);
    const tags = computeBreakdown(set(trades), 'tag', { timeZone: NY });
    expect(tags.rows.map((r) => [r.label, r.trades, r.sharePercent])).toEqual([
      ['A+', 2, 50],
      ['FOMO', 1, 25],
    ]);
    expect(tags.excluded).toBe(2);
    expect(computeBreakdown(set(trades), 'account', { timeZone: NY, accountName: names }).rows.map((r) => [r.label, r.trades])).toEqual([
      ['Apex', 2],
      ['Topstep', 1],
      ['Unassigned', 1],
    ]);
  });

  it('by weekday, size, month and year in their own order', () => {
    expect(computeBreakdown(set(trades), 'weekday', { timeZone: NY }).rows.map((r) => r.label)).toEqual(['Monday', 'Tuesday']);
    expect(computeBreakdown(set(trades), 'size', { timeZone: NY }).rows.map((r) => [r.key, r.trades])).toEqual([
      ['1', 2],
      ['2', 1],
    ]);
    expect(computeBreakdown(set(trades), 'month', { timeZone: NY }).rows.map((r) => r.label)).toEqual(['Mar 2026']);
    expect(computeBreakdown(set(trades), 'year', { timeZone: NY }).rows.map((r) => r.key)).toEqual(['2026']);
  });

  it("a row's drill-down filter replaces its dimension and keeps the rest; a month stays inside the range", () => {
    const filter = createReportFilter({ range: 'custom', from: '2026-03-10', to: null, symbol: ['ES'], hour: [9] });
    expect(getBreakdownRowFilter(filter, { from: '2026-03-10', to: null }, 'hour', '14')).toMatchObject({ symbol: ['ES'], hour: [14] });
    expect(getBreakdownRowFilter(filter, { from: '2026-03-10', to: null }, 'month', '2026-03')).toMatchObject({
      range: 'custom',
      from: '2026-03-10',
      to: '2026-03-31',
    });
    expect(getBreakdownRowFilter(createReportFilter(), { from: null, to: null }, 'year', '2024')).toMatchObject({
      from: '2024-01-01',
      to: '2024-12-31',
    });
    expect(getBreakdownRowFilter(filter, { from: null, to: null }, 'size', '2')).toMatchObject({ sizeMin: 2, sizeMax: 2 });
    expect(getBreakdownRowFilter(createReportFilter({ tag: ['X'], tagMode: 'none' }), { from: null, to: null }, 'tag', 'A+')).toMatchObject({
      tag: ['A+'],
      tagMode: 'any',
    });
  });
});

describe('Equity and its drawdown', () => {
  it('+100, -30, -50, +200 by trade; two days by day', () => {
    const equity = computeEquity(
      set([trade('2026-03-02', 10_000), trade('2026-03-02', -3_000), trade('2026-03-03', -5_000), trade('2026-03-03', 20_000)]),
    );
    expect(equity.byTrade.map((p) => [p.index, p.equityCents, p.drawdownCents])).toEqual([
      [1, 10_000, 0],
      [2, 7_000, -3_000],
      [3, 2_000, -8_000],
      [4, 22_000, 0],
    ]);
    expect(equity.byDay.map((p) => [p.tradeDate, p.equityCents, p.drawdownCents])).toEqual([
      ['2026-03-02', 7_000, 0],
      ['2026-03-03', 22_000, 0],
    ]);
    expect(equity.sampled).toBe(false);
  });

  it('a first losing day is under water from the start (the opening counts as a peak of 0)', () => {
    expect(computeEquity(set([trade('2026-03-02', -500)])).byDay[0]).toMatchObject({ equityCents: -500, drawdownCents: -500 });
  });

  it('10,000 trades sampled to about 1,000 points keep the highest, the lowest and the deepest drawdown', () => {
    const steps = Array.from({ length: 10_000 }, (_, i) => (i === 4_321 ? -1_000_000 : i === 7_777 ? 2_000_000 : ((i * 7919) % 201) - 100));
    const all = buildEquityPoints(steps, () => '2026-03-02');
    const kept = sampleEquity(all, 1_000);
    expect(kept.length).toBeLessThanOrEqual(1_000);
    const extreme = (points: typeof all, pick: (p: (typeof all)[number]) => number, sign: 1 | -1) =>
      Math.max(...points.map((p) => sign * pick(p))) * sign;
    expect(extreme(kept, (p) => p.equityCents, 1)).toBe(extreme(all, (p) => p.equityCents, 1));
    expect(extreme(kept, (p) => p.equityCents, -1)).toBe(extreme(all, (p) => p.equityCents, -1));
    expect(extreme(kept, (p) => p.drawdownCents, -1)).toBe(extreme(all, (p) => p.drawdownCents, -1));
    expect(kept[0]).toEqual(all[0]);
    expect(kept[kept.length - 1]).toEqual(all[all.length - 1]);
    expect(kept.every((p, i) => i === 0 || p.index > kept[i - 1]!.index)).toBe(true);
  });
});

describe('Heatmap and year calendar', () => {
  const trades = [
    trade('2025-12-31', -2_000),
    trade('2026-03-02', 15_000, { at: '09:31' }),
    trade('2026-03-02', -5_000, { at: '09:59' }),
    trade('2026-03-06', 8_000, { at: '14:05' }),
    trade('2026-03-07', 1_000, { at: '10:00' }),
  ];

  it('Monday 09:00 holds +150 and -50 (win rate 50%), Friday 14:00 one win, Saturday shows up, a manual trade is counted apart', () => {
    const map = computeHeatmap(set(trades.filter((t) => t.tradeDate >= '2026-01-01')), NY);
    expect(map.cells.map((c) => [c.weekday, c.hour, c.trades, c.netCents, c.winRate])).toEqual([
      [1, 9, 2, 10_000, 50],
      [5, 14, 1, 8_000, 100],
      [6, 10, 1, 1_000, 100],
    ]);
    expect(map.weekdays).toEqual([1, 2, 3, 4, 5, 6]);
    expect(map.hours).toEqual([9, 10, 11, 12, 13, 14]);
    expect(map.withoutTime).toBe(0);
    expect(computeHeatmap(set(trades), NY).withoutTime).toBe(1);
  });

  it('the year calendar of 2026 (the latest year) and of 2025 on request', () => {
    const calendar = computeYearCalendar(set(trades), null, 2030);
    expect(calendar.year).toBe(2026);
    expect(calendar.years).toEqual([2026, 2025]);
    expect(calendar.days).toEqual([
      // No trade has a planned risk: each day's R is none, its trades counted apart.
      { tradeDate: '2026-03-02', trades: 2, netCents: 10_000, r: { tradesWithRisk: 0, tradesWithoutRisk: 2, totalR: null } },
      { tradeDate: '2026-03-06', trades: 1, netCents: 8_000, r: { tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null } },
      { tradeDate: '2026-03-07', trades: 1, netCents: 1_000, r: { tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null } },
    ]);
    expect(calendar.months[2]).toEqual({
      month: 3,
      trades: 4,
      netCents: 19_000,
      tradingDays: 3,
      r: { tradesWithRisk: 0, tradesWithoutRisk: 4, totalR: null },
    });
    expect(calendar.netCents).toBe(19_000);
    expect(computeYearCalendar(set(trades), 2025, 2030).days).toEqual([
      { tradeDate: '2025-12-31', trades: 1, netCents: -2_000, r: { tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null } },
    ]);
    expect(computeYearCalendar(set([]), null, 2030)).toMatchObject({ year: 2030, years: [], days: [] });
  });

  it('March 2026 starts on a Sunday: the first week has six empty cells before it', () => {
    const grid = getMonthGrid(2026, 3);
    expect(grid[0]).toEqual([null, null, null, null, null, null, '2026-03-01']);
    expect(grid.length).toBe(6);
    expect(grid[5]).toEqual(['2026-03-30', '2026-03-31', null, null, null, null, null]);
  });
});

describe('Distributions', () => {
  it('round bucket widths: 1, 2, 2.5, 5 times a power of ten', () => {
    expect([getNiceStep(730), getNiceStep(1_900), getNiceStep(2_100), getNiceStep(4_000), getNiceStep(0)]).toEqual([1_000, 2_000, 2_500, 5_000, 1]);
  });

  it('net P&L of -$120, -$45, $0, +$30, +$95, +$310 in $25 buckets from -$125 to $325, every trade counted once', () => {
    const trades = [-12_000, -4_500, 0, 3_000, 9_500, 31_000].map((c) => trade('2026-03-02', c));
    const dist = computePnlDistribution(set(trades), 18);
    expect(dist.buckets[0]).toMatchObject({ from: -12_500, to: -10_000, trades: 1, label: '-$125.00 to -$100.00' });
    expect(dist.buckets[dist.buckets.length - 1]).toMatchObject({ from: 30_000, to: 32_500, trades: 1 });
    expect(dist.buckets.reduce((n, b) => n + b.trades, 0)).toBe(6);
    // The break-even falls in [$0, $25) with the +$0 side.
    expect(dist.buckets.find((b) => b.from === 0)).toMatchObject({ trades: 1, winRate: null });
  });

  it('one outlier of +$50,000 among small trades gets an open bucket instead of stretching the axis', () => {
    const trades = [...Array.from({ length: 199 }, (_, i) => trade('2026-03-02', (i % 20) * 100 - 1_000)), trade('2026-03-02', 5_000_000)];
    const dist = computePnlDistribution(set(trades));
    const last = dist.buckets[dist.buckets.length - 1]!;
    expect(last.to).toBeNull();
    expect(last.trades).toBe(1);
    expect(dist.buckets.length).toBeLessThan(40);
  });

  it('the 1st and 99th percentiles picked without a sort are the sorted values at those ranks, ties and signs included', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (const length of [1, 2, 3, 10, 101, 1_000, 5_003]) {
      const values = Float64Array.from({ length }, () => (next() % 41) * 250 - 5_000);
      const sorted = values.slice().sort();
      for (const k of [0, Math.floor(length / 100), Math.ceil(0.99 * length) - 1, length - 1])
        expect(selectRank(values.slice(), k), `rank ${k} of ${length}`).toBe(sorted[k]);
      // Within the values before a rank already selected, as the P&L distribution asks its two ranks.
      const high = Math.ceil(0.99 * length) - 1;
      const partly = values.slice();
      selectRank(partly, high);
      expect(selectRank(partly, Math.floor(high / 3), 0, high)).toBe(sorted[Math.floor(high / 3)]);
    }
  });

  it('hold times of 20 s, 45 s, 10 min and 3 h, and a manual trade left out', () => {
    const trades = [
      trade('2026-03-02', 100, { at: '09:31', holdFor: 20 }),
      trade('2026-03-02', -100, { at: '09:32', holdFor: 45 }),
      trade('2026-03-02', 100, { at: '09:33', holdFor: 600 }),
      trade('2026-03-02', 100, { at: '09:34', holdFor: 3 * 3600 }),
      trade('2026-03-02', 100),
    ];
    const dist = computeHoldDistribution(set(trades));
    expect(dist.excluded).toBe(1);
    expect(dist.buckets[0]).toMatchObject({ from: 15, to: 30, trades: 1 });
    expect(dist.buckets[dist.buckets.length - 1]).toMatchObject({ from: 7200, to: 14_400, trades: 1, label: '2h to 4h' });
    expect(dist.buckets.reduce((n, b) => n + b.trades, 0)).toBe(4);
  });
});

describe('Compare: mornings against afternoons', () => {
  const mornings = computeOverview(
    set([trade('2026-03-02', 10_000, { at: '09:31', holdFor: 60 }), trade('2026-03-03', -5_000, { at: '10:00', holdFor: 60 })]),
  );
  const afternoons = computeOverview(set([trade('2026-03-02', 30_000, { at: '14:31', holdFor: 60 })]));

  it('every figure side by side with B minus A and which side it favours', () => {
    const rows = compareOverviews(mornings, afternoons);
    const row = (key: string) => rows.find((r) => r.key === key)!;
    expect(row('netCents')).toMatchObject({ a: 5_000, b: 30_000, difference: 25_000, favours: 'b' });
    expect(row('winRate')).toMatchObject({ a: 50, b: 100, difference: 50, favours: 'b' });
    expect(row('trades')).toMatchObject({ a: 2, b: 1, difference: -1, favours: null });
    expect(row('maxConsecutiveLosses')).toMatchObject({ a: 1, b: 0, difference: -1, favours: 'b' });
    // Afternoons lost nothing: their profit factor is ∞ and has no difference.
    expect(row('profitFactor')).toMatchObject({ a: 2, b: null, difference: null, bInfinite: true });
    expect(rows.length).toBe(listOverviewFigures(mornings).length);
  });

  it('writes figures and differences as a trader reads them', () => {
    expect(formatFigure('money', -1_234_56)).toBe('-$1,234.56');
    expect(formatFigure('percent', 66.7)).toBe('66.7%');
    expect(formatFigure('ratio', null)).toBe('—');
    expect(formatFigure('ratio', null, true)).toBe('∞');
    expect(formatDifference('percent', -3.5)).toBe('-3.5 pts');
    expect(formatDifference('money', 25_000)).toBe('+$250.00');
    expect([formatDuration(45), formatDuration(125), formatDuration(4_980), formatDuration(200_000)]).toEqual(['45s', '2m 05s', '1h 23m', '2d 7h']);
  });
});

describe("the columns' sums are the statistics' sums", () => {
  it('over a month of NQ trades with wins, losses and break-evens, per trade and per day', () => {
    const trades = Array.from({ length: 200 }, (_, k) =>
      trade(`2026-03-${String(2 + Math.floor(k / 10)).padStart(2, '0')}`, ((k * 7919) % 2001) - 1000),
    );
    const asStats = trades.map((t) => ({ tradeDate: t.tradeDate, status: t.status, pnlCents: t.pnlCents }));
    expect(aggregateRows(set(trades))).toEqual(aggregateTrades(asStats));
    expect(aggregateRowsByDay(set(trades))).toEqual(aggregateTradesByDay(asStats));
    // A selection of the rows sums only those.
    const shorts = selectTrades(set(trades).columns, createReportFilter({ result: ['Loss'] }), { from: null, to: null }, NY);
    expect(aggregateRows(shorts)).toEqual(aggregateTrades(asStats.filter((t) => t.status === 'Loss')));
  });

  it("the streaks counted from the result codes are the statistics' streaks, a break-even ending a run, over 300 runs of wins, losses and break-evens", () => {
    let seed = 11;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let round = 0; round < 300; round++) {
      const trades = Array.from({ length: 1 + (next() % 40) }, () => trade('2026-03-02', [100, -100, 0, 100, -100][next() % 5]!));
      const { maxWinStreak, maxLossStreak } = calculateStreaks(trades.map((t) => t.status));
      expect(countStreaks(set(trades)), `round ${round}`).toEqual({ maxWinStreak, maxLossStreak });
    }
    // Wins, a break-even, wins: two runs of two, not one of four.
    expect(countStreaks(set([100, 100, 0, 100, 100].map((c) => trade('2026-03-02', c))))).toEqual({ maxWinStreak: 2, maxLossStreak: 0 });
  });
});
