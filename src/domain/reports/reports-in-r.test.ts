import { describe, expect, it } from 'vitest';
import { computeYearCalendar } from './calendar';
import { computeEquity, computeEquityByTrade, computeEquityR, computeEquityRByTrade, computeEquityRExactly } from './equity';
import { compareROverviews } from './figures';
import { computeHeatmap } from './heatmap';
import { computeRiskColumn, computeROverview } from './r-multiples';
import { allTrades, buildTradeColumns, type ReportTrade } from './report-trade';

/**
 * Equity, the heatmap, the year calendar and Compare in R, on trades computed by hand. A trade is
 * named as a trader would: "+2R on a $100 plan". R = net P&L over the planned risk; trades without a plan have none.
 */
const NY = 'America/New_York';

function trade(id: string, day: string, pnlCents: number, riskCents: number | null, at?: string): ReportTrade {
  // March 2026 before the 8th is EST (UTC-5): 09:40 New York is 14:40 UTC.
  const entryMs = at ? Date.parse(`${day}T${at}:00-05:00`) : null;
  return {
    id,
    tradeDate: day,
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
    entryMs,
    exitMs: null,
    quantity: 1,
    riskCents,
  };
}

const r = (trades: ReportTrade[]) => {
  const columns = buildTradeColumns(trades);
  return { set: allTrades(columns), risk: computeRiskColumn(columns, []) };
};

// Mon Mar 2 to Thu Mar 5, 2026, in trading order.
const week = [
  trade('plus-2r-on-100', '2026-03-02', 20_000, 10_000, '09:40'), // +2R
  trade('scratch-0r', '2026-03-02', 0, 10_000, '09:55'), // exactly 0R: a point, no move
  trade('no-plan-minus-50', '2026-03-02', -5_000, null, '09:58'), // no R: off the curve
  trade('minus-1r-on-150', '2026-03-03', -15_000, 15_000, '10:05'), // -1R
  trade('third-of-r-lost', '2026-03-03', -10_000, 30_000, '10:20'), // -1/3R
  trade('no-plan-day', '2026-03-04', 50_000, null, '11:00'), // the day's only trade, without a plan
  trade('plus-3r-on-100', '2026-03-05', 30_000, 10_000, '09:35'), // +3R: a new high
];

describe('equity in R', () => {
  it('the week: +2R, 0R, -1R, -1/3R, +3R; the trades without a plan off the curve and counted apart', () => {
    const { set, risk } = r(week);
    const equity = computeEquityR(set, risk);
    expect(equity.byTrade.map((p) => [p.index, p.tradeDate, p.equityR, p.drawdownR])).toEqual([
      [1, '2026-03-02', 2, 0],
      [2, '2026-03-02', 2, 0], // the 0R scratch: the curve stays at its peak
      [3, '2026-03-03', 1, -1],
      [4, '2026-03-03', 0.67, -1.33], // 2/3R, 4/3R under the peak of 2R
      [5, '2026-03-05', 3.67, 0],
    ]);
    // Mar 4 had only a trade without a plan: no R, no point.
    expect(equity.byDay.map((p) => [p.index, p.tradeDate, p.equityR, p.drawdownR])).toEqual([
      [1, '2026-03-02', 2, 0],
      [2, '2026-03-03', 0.67, -1.33],
      [3, '2026-03-05', 3.67, 0],
    ]);
    expect(equity).toMatchObject({ tradesWithRisk: 5, tradesWithoutRisk: 2, days: 3, sampled: false });
    // Compare's curves leave the day-by-day curve out but count the days: 3 with R, 4 in dollars (Mar 4 too).
    const { byDay: _days, ...byTrade } = equity;
    expect(computeEquityRByTrade(set, risk)).toEqual(byTrade);
    expect(computeEquityByTrade(set)).toMatchObject({ trades: 7, days: 4, sampled: false });
    // The curve ends on the Overview's total R.
    expect(equity.byTrade.at(-1)!.equityR).toBe(computeROverview(set, risk).totalR);
  });

  it('a losing start is under water from the opening (0R is the first peak)', () => {
    const { set, risk } = r([
      trade('minus-half', '2026-03-02', -5_000, 10_000),
      trade('minus-1r', '2026-03-02', -10_000, 10_000),
      trade('plus-1r', '2026-03-03', 10_000, 10_000),
    ]);
    const equity = computeEquityR(set, risk);
    expect(equity.byTrade.map((p) => [p.equityR, p.drawdownR])).toEqual([
      [-0.5, -0.5],
      [-1.5, -1.5],
      [-0.5, -0.5],
    ]);
    expect(equity.byDay.map((p) => [p.equityR, p.drawdownR])).toEqual([
      [-1.5, -1.5],
      [-0.5, -0.5],
    ]);
  });

  it('sums exactly: +$10.05 on a $10 plan is 1.005R, +1.01R (a float division reads 1.00R); three thirds of R are 1R', () => {
    const { set, risk } = r([
      trade('one-point-005', '2026-03-02', 1_005, 1_000),
      trade('third-a', '2026-03-03', 1_000, 3_000),
      trade('third-b', '2026-03-03', 1_000, 3_000),
      trade('third-c', '2026-03-03', 1_000, 3_000),
    ]);
    expect(computeEquityR(set, risk).byTrade.map((p) => p.equityR)).toEqual([1.01, 1.34, 1.67, 2.01]);
  });

  it('a long curve drawn as a sample keeps the deepest drawdown and ends on the total: 2,000 wins, 1,000 losses, 2,000 wins', () => {
    // +1R on a $100 plan, -1R on a $300 plan.
    const trades = [
      ...Array.from({ length: 2000 }, (_, k) => trade(`win-${k}`, '2026-03-02', 10_000, 10_000)),
      ...Array.from({ length: 1000 }, (_, k) => trade(`loss-${k}`, '2026-03-03', -30_000, 30_000)),
      ...Array.from({ length: 2000 }, (_, k) => trade(`win-again-${k}`, '2026-03-04', 10_000, 10_000)),
    ];
    const { set, risk } = r(trades);
    const equity = computeEquityR(set, risk, 100);
    expect(equity.sampled).toBe(true);
    expect(equity.byTrade.length).toBeLessThanOrEqual(120);
    expect(Math.min(...equity.byTrade.map((p) => p.drawdownR))).toBe(-1000);
    expect(equity.byTrade.find((p) => p.drawdownR === -1000)).toMatchObject({ index: 3000, equityR: 1000 });
    expect(equity.byTrade.at(-1)).toMatchObject({ index: 5000, equityR: 3000, drawdownR: 0 });
    expect(equity.byDay.map((p) => [p.equityR, p.drawdownR])).toEqual([
      [2000, 0],
      [1000, -1000],
      [3000, 0],
    ]);
    // The dollar curve of the same trades is untouched.
    expect(computeEquity(set).byDay.map((p) => p.equityCents)).toEqual([20_000_000, -10_000_000, 10_000_000]);
  });

  it('plans of $999.91, $999.89 and $999.71 (a common multiple past the safe integers, summed in BigInt): +2R, -1R, +1R, -1/3R', () => {
    const { set, risk } = r([
      trade('plus-2r', '2026-03-02', 199_982, 99_991),
      trade('minus-1r', '2026-03-02', -99_989, 99_989),
      trade('plus-1r', '2026-03-03', 99_971, 99_971),
      trade('minus-third', '2026-03-03', -33_330, 99_990),
    ]);
    const equity = computeEquityR(set, risk);
    expect(equity.byTrade.map((p) => [p.equityR, p.drawdownR])).toEqual([
      [2, 0],
      [1, -1],
      [2, 0],
      [1.67, -0.33],
    ]);
    expect(equity.byTrade.at(-1)!.equityR).toBe(computeROverview(set, risk).totalR);
  });

  it('2,000 trades each with a risk of its own (no small common multiple): +1R and -1R in turn, summed as decimals, still exact', () => {
    const trades = Array.from({ length: 2000 }, (_, k) => trade(`own-risk-${k}`, '2026-03-02', k % 2 === 0 ? 1_000 + k : -(1_000 + k), 1_000 + k));
    const { set, risk } = r(trades);
    const equity = computeEquityR(set, risk, 5000);
    expect(equity.byTrade.slice(0, 4).map((p) => [p.equityR, p.drawdownR])).toEqual([
      [1, 0],
      [0, -1],
      [1, 0],
      [0, -1],
    ]);
    expect(equity.byTrade.at(-1)).toMatchObject({ index: 2000, equityR: 0, drawdownR: -1 });
    expect(computeROverview(set, risk).totalR).toBe(0);
  });

  it('the float sums give what the exact sums give: 3,000 random trades on 90 plans, most of them on half hundredths of R', () => {
    // A seeded generator (mulberry32): the same trades every run.
    let seed = 27;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = (count: number) => Math.floor(random() * count);
    // Plans of $2 to $120 in $2 steps (each cent of a 200-cent plan is half a hundredth of R) and $30 to $59 (thirds,
    // sevenths...). Most trades make an odd number of half hundredths of R (0.005R, 0.015R, ... -2R to +2R) on the
    // former, so the curve lands on half hundredths; some make any cents on the latter, as pairs that cancel later
    // (+$12.34 then -$12.34 on a $37 plan), so the curve leaves that lattice and comes back.
    const plans = Array.from({ length: 60 }, (_, k) => 200 * (k + 1));
    const oddPlans = Array.from({ length: 30 }, (_, k) => 3_000 + 100 * k);
    const trades: ReportTrade[] = [];
    let open: { plan: number; pnl: number } | null = null;
    for (let k = 0; k < 3000; k++) {
      const day = `2026-03-${String(2 + Math.floor(k / 120)).padStart(2, '0')}`;
      let plan = plans[pick(plans.length)]!;
      let pnl = ((2 * (pick(401) - 200) + 1) * plan) / 200;
      if (random() < 0.1) {
        if (open === null) open = { plan: (plan = oddPlans[pick(oddPlans.length)]!), pnl: (pnl = pick(2 * plan + 1) - plan) };
        else [plan, pnl, open] = [open.plan, -open.pnl, null];
      }
      trades.push(trade(`random-${k}`, day, pnl, random() < 0.05 ? null : plan));
    }
    const { set, risk } = r(trades);
    for (const maxPoints of [5000, 300]) {
      const fast = computeEquityR(set, risk, maxPoints);
      const exact = computeEquityRExactly(set, risk, maxPoints);
      expect(fast).toEqual(exact);
      expect(fast.byDay).toHaveLength(25);
      // Without the day-by-day curve (Compare), the curve by trade and the counts are the same, on both paths.
      const { byDay: _days, ...byTrade } = fast;
      expect(computeEquityRByTrade(set, risk, maxPoints)).toEqual(byTrade);
      const { byDay: none, ...exactByTrade } = computeEquityRExactly(set, risk, maxPoints, false);
      expect(exactByTrade).toEqual(byTrade);
      expect(none).toEqual([]);
      const { byDay: _dollarDays, ...dollars } = computeEquity(set, maxPoints);
      expect(computeEquityByTrade(set, maxPoints)).toEqual(dollars);
    }
    // The test reaches the exact path: a plain float sum, rounded, reads some points a hundredth off.
    const all = computeEquityRExactly(set, risk, 5000).byTrade;
    let float = 0;
    let step = 0;
    let misread = 0;
    for (const i of set.rows) {
      if (!(risk[i]! > 0)) continue;
      float += set.columns.pnl[i]! / risk[i]!;
      if ((Math.sign(float) * Math.round(Math.abs(float) * 100)) / 100 + 0 !== all[step++]!.equityR) misread++;
    }
    expect(step).toBe(all.length);
    expect(misread).toBeGreaterThan(10);
    expect(computeEquityR(set, risk).byTrade.at(-1)!.equityR).toBe(computeROverview(set, risk).totalR);
  });

  it('1,000 trades of +0.005R, each on a plan of its own: every other point on a half hundredth, rounded up as decimals', () => {
    // $10.00 on a $2,000 plan, $10.01 on $2,002...: no small common multiple; the float sum cannot tell 0.015R's rounding.
    const trades = Array.from({ length: 1000 }, (_, k) => trade(`half-hundredth-${k}`, '2026-03-02', 1_000 + k, 200 * (1_000 + k)));
    const { set, risk } = r(trades);
    const equity = computeEquityR(set, risk, 5000);
    expect(equity.byTrade.map((p) => p.equityR)).toEqual(Array.from({ length: 1000 }, (_, k) => Math.ceil((k + 1) / 2) / 100));
    expect(equity.byTrade.every((p) => p.drawdownR === 0)).toBe(true);
    expect(equity.byDay).toEqual([{ index: 1, tradeDate: '2026-03-02', equityR: 5, drawdownR: 0 }]);
  });

  it('no trade with a plan: no curve, every trade counted apart', () => {
    const { set, risk } = r([trade('no-plan', '2026-03-02', 5_000, null)]);
    expect(computeEquityR(set, risk)).toEqual({ byTrade: [], byDay: [], tradesWithRisk: 0, tradesWithoutRisk: 1, days: 0, sampled: false });
  });
});

describe('the heatmap in R', () => {
  it('Monday 09:00 holds +2R, 0R and a trade without a plan; Wednesday 11:00 only a trade without a plan: no R', () => {
    const { set, risk } = r([...week, trade('no-plan-no-time', '2026-03-05', 1_000, null)]);
    const map = computeHeatmap(set, NY, risk);
    const cell = (weekday: number, hour: number) => map.cells.find((c) => c.weekday === weekday && c.hour === hour)!;
    expect(cell(1, 9)).toMatchObject({ trades: 3, wins: 1, losses: 1, r: { tradesWithRisk: 2, tradesWithoutRisk: 1, totalR: 2, expectancyR: 1 } });
    // Tuesday 10:00: -1R and -1/3R, an average of -2/3R.
    expect(cell(2, 10).r).toEqual({ tradesWithRisk: 2, tradesWithoutRisk: 0, totalR: -1.33, expectancyR: -0.67 });
    expect(cell(3, 11).r).toEqual({ tradesWithRisk: 0, tradesWithoutRisk: 1, totalR: null, expectancyR: null });
    expect(cell(4, 9).r.totalR).toBe(3);
    // Counted apart: the two in cells; the trade without a time is in no cell, and counted as such.
    expect([map.tradesWithoutRisk, map.withoutTime]).toEqual([2, 1]);
    // The cells' R add up to the Overview's when every trade has a time.
    const timed = r(week);
    const total = computeHeatmap(timed.set, NY, timed.risk).cells.reduce((sum, c) => sum + Math.round((c.r.totalR ?? 0) * 100), 0) / 100;
    expect(total).toBe(computeROverview(timed.set, timed.risk).totalR);
  });
});

describe('the year calendar in R', () => {
  it("each day's, month's and year's R from its trades: a day without a plan has none, a month of thirds is 1R, not 0.99R", () => {
    const { set, risk } = r([
      trade('last-year', '2025-12-31', 10_000, 10_000),
      ...week,
      trade('april-third-1', '2026-04-01', 1_000, 3_000),
      trade('april-third-2', '2026-04-02', 1_000, 3_000),
      trade('april-third-3', '2026-04-03', 1_000, 3_000),
    ]);
    const calendar = computeYearCalendar(set, null, 2026, risk);
    expect(calendar.year).toBe(2026);
    expect(calendar.days.map((d) => [d.tradeDate, d.trades, d.r.totalR, d.r.tradesWithoutRisk])).toEqual([
      ['2026-03-02', 3, 2, 1],
      ['2026-03-03', 2, -1.33, 0],
      ['2026-03-04', 1, null, 1],
      ['2026-03-05', 1, 3, 0],
      ['2026-04-01', 1, 0.33, 0],
      ['2026-04-02', 1, 0.33, 0],
      ['2026-04-03', 1, 0.33, 0],
    ]);
    // March: 2 - 1 - 1/3 + 3 = 3.67R (the rounded days add to 3.67 too); April: three thirds, 1R.
    expect(calendar.months[2]!.r).toEqual({ tradesWithRisk: 5, tradesWithoutRisk: 2, totalR: 3.67 });
    expect(calendar.months[3]!.r).toEqual({ tradesWithRisk: 3, tradesWithoutRisk: 0, totalR: 1 });
    expect(calendar.months[0]!.r).toEqual({ tradesWithRisk: 0, tradesWithoutRisk: 0, totalR: null });
    // The year leaves out Dec 31, 2025's +1R: 2 - 1 - 1/3 + 3 + 1 = 4.67R.
    expect(calendar.r).toEqual({ tradesWithRisk: 8, tradesWithoutRisk: 2, totalR: 4.67 });
    expect(computeYearCalendar(set, 2025, 2026, risk).r).toEqual({ tradesWithRisk: 1, tradesWithoutRisk: 0, totalR: 1 });
  });
});

describe('Compare in R', () => {
  it('every R figure of the Overview on both sides, B minus A in R, and each side’s trades without a plan', () => {
    // A: Monday and Tuesday (+2R, 0R, -1R, -1/3R and one without a plan). B: Thursday's +3R and Wednesday's no-plan trade.
    const a = r(week.slice(0, 5));
    const b = r(week.slice(5));
    const rows = compareROverviews(computeROverview(a.set, a.risk), computeROverview(b.set, b.risk));
    const row = (key: string) => rows.find((x) => x.key === key)!;
    expect(row('tradesWithRisk')).toMatchObject({ a: 4, b: 1, difference: -3, favours: null });
    expect(row('tradesWithoutRisk')).toMatchObject({ a: 1, b: 1, difference: 0 });
    // A: 2/3R in all, 1/6R a trade; B: 3R.
    expect(row('totalR')).toMatchObject({ kind: 'r', a: 0.67, b: 3, difference: 2.33, favours: 'b' });
    expect(row('expectancyR')).toMatchObject({ a: 0.17, b: 3, difference: 2.83, favours: 'b' });
    expect(row('averageWinR')).toMatchObject({ a: 2, b: 3, difference: 1 });
    // B lost nothing: no average loss, and a profit factor of ∞ with no difference.
    expect(row('averageLossR')).toMatchObject({ a: -0.67, b: null, difference: null, favours: null });
    expect(row('profitFactorR')).toMatchObject({ kind: 'ratio', a: 1.5, b: null, bInfinite: true, difference: null });
    expect(row('bin:-2')).toMatchObject({ label: 'Trades -2R to -1R', a: 0, b: 0 });
    expect(row('bin:-1')).toMatchObject({ label: 'Trades -1R to 0R', a: 2, b: 0, difference: -2 });
    expect(row('bin:ge-3')).toMatchObject({ a: 0, b: 1, difference: 1 });
    // A side that lost more is the worse one: the average loss favours the smaller loss.
    const worse = r([trade('minus-2r', '2026-03-02', -20_000, 10_000)]);
    const lossRow = compareROverviews(computeROverview(a.set, a.risk), computeROverview(worse.set, worse.risk)).find(
      (x) => x.key === 'averageLossR',
    )!;
    expect(lossRow).toMatchObject({ a: -0.67, b: -2, difference: -1.33, favours: 'a' });
  });
});
