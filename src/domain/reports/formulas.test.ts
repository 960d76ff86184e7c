import { describe, expect, it } from 'vitest';
import { aggregateTrades } from '../stats/trade-aggregate';
import {
  calculateAverageLoss,
  calculateAverageTrade,
  calculateAverageWin,
  calculateDailyFigures,
  calculateExpectancy,
  calculateHoldAverages,
  calculateMaxDrawdown,
  calculatePayoffRatio,
  calculateWinRateOrNull,
  findLargestWinAndLoss,
  toPercent,
} from './formulas';
import { RESULT } from './report-trade';

const { WIN, LOSS, BE } = RESULT;

/** Trades as (status, net cents); the status follows the sign, as every stored trade's does. */
const trades = (...cents: number[]) => cents.map((pnlCents) => ({ status: pnlCents > 0 ? 'Win' : pnlCents < 0 ? 'Loss' : 'BE', pnlCents }));

describe('averages, expectancy and payoff (Overview)', () => {
  it('NQ +$300, ES +$100, NQ -$50, MES BE: average win $200, loss -$50, trade $87.50, expectancy $116.67, payoff 4.00', () => {
    const aggregate = aggregateTrades(trades(30_000, 10_000, -5_000, 0));
    expect(calculateAverageWin(aggregate)).toBe(20_000);
    expect(calculateAverageLoss(aggregate)).toBe(-5_000);
    // (300 + 100 - 50 + 0) / 4
    expect(calculateAverageTrade(aggregate)).toBe(8_750);
    // 2/3 x 200 + 1/3 x -50 = 116.666... : the break-even is left out, as the win rate leaves it
    expect(calculateExpectancy(aggregate)).toBe(11_667);
    expect(calculatePayoffRatio(20_000, -5_000)).toBe(4);
    expect(calculateWinRateOrNull(aggregate)).toBe(66.7);
  });

  it('three wins of 1 cent each and no loss: average win 1 cent, no average loss, no payoff ratio', () => {
    const aggregate = aggregateTrades(trades(1, 1, 1));
    expect(calculateAverageWin(aggregate)).toBe(1);
    expect(calculateAverageLoss(aggregate)).toBeNull();
    expect(calculatePayoffRatio(1, null)).toBeNull();
    expect(calculateExpectancy(aggregate)).toBe(1);
  });

  it('only break-evens: no win rate, no expectancy, an average trade of $0.00', () => {
    const aggregate = aggregateTrades(trades(0, 0));
    expect(calculateWinRateOrNull(aggregate)).toBeNull();
    expect(calculateExpectancy(aggregate)).toBeNull();
    expect(calculateAverageTrade(aggregate)).toBe(0);
  });

  it('no trades: every average is null, not zero', () => {
    const aggregate = aggregateTrades([]);
    expect([
      calculateAverageWin(aggregate),
      calculateAverageLoss(aggregate),
      calculateAverageTrade(aggregate),
      calculateExpectancy(aggregate),
    ]).toEqual([null, null, null, null]);
  });

  it('a loss of $10.01 over three trades averages to the cent: -$3.34 (rounded, not truncated)', () => {
    expect(calculateAverageTrade({ trades: 3, pnlCents: -1_001 })).toBe(-334);
  });

  it('payoff of $150 won against $45.50 lost is 3.30', () => {
    expect(calculatePayoffRatio(15_000, -4_550)).toBe(3.3);
  });

  it('percentages round half up to one decimal: 1 of 8 is 12.5, 2 of 3 is 66.7, of nothing null', () => {
    expect(toPercent(1, 8)).toBe(12.5);
    expect(toPercent(2, 3)).toBe(66.7);
    expect(toPercent(0, 0)).toBeNull();
  });
});

describe('largest win and loss', () => {
  it('MNQ +$40, NQ +$400, ES -$120, NQ +$400 again: the first $400 (trade 2) and the $120 loss (trade 3)', () => {
    expect(findLargestWinAndLoss([4_000, 40_000, -12_000, 40_000])).toEqual({ win: 1, loss: 2 });
  });

  it('break-evens only: neither', () => {
    expect(findLargestWinAndLoss([0, 0])).toEqual({ win: null, loss: null });
  });
});

describe('hold time of winners and losers', () => {
  it('winners held 60 s and 181 s, a loser 30 s, a manual trade without times: 121 s, 30 s, 1 left out', () => {
    expect(calculateHoldAverages([WIN, WIN, LOSS, WIN], [60, 181, 30, Number.NaN])).toEqual({
      winnersSeconds: 121,
      losersSeconds: 30,
      withoutTimes: 1,
    });
  });

  it('a break-even with times counts in neither average and is not "without times"', () => {
    expect(calculateHoldAverages([BE], [90])).toEqual({ winnersSeconds: null, losersSeconds: null, withoutTimes: 0 });
  });
});

describe('trading days', () => {
  it('Mon +$200, Tue -$100, Wed +$50, Thu $0: 4 days, 2 winning (50%), best Mon, worst Tue, deviation $125.00, Sharpe 0.30', () => {
    const figures = calculateDailyFigures([
      { date: '2026-03-02', pnlCents: 20_000 },
      { date: '2026-03-03', pnlCents: -10_000 },
      { date: '2026-03-04', pnlCents: 5_000 },
      { date: '2026-03-05', pnlCents: 0 },
    ]);
    // mean 37.50; squares 162.5² + 137.5² + 12.5² + 37.5² = 46,875 dollars²; / 3 = 15,625; √ = 125; 37.5 / 125 = 0.30
    expect(figures).toEqual({
      tradingDays: 4,
      winningDays: 2,
      losingDays: 1,
      winningDaysPercent: 50,
      bestDay: { tradeDate: '2026-03-02', pnlCents: 20_000 },
      worstDay: { tradeDate: '2026-03-03', pnlCents: -10_000 },
      averageDayCents: 3_750,
      dailyStdDevCents: 12_500,
      dailySharpe: 0.3,
    });
  });

  it('one day: no deviation and no Sharpe ratio (a spread needs two days)', () => {
    const figures = calculateDailyFigures([{ date: '2026-03-02', pnlCents: 500 }]);
    expect(figures.dailyStdDevCents).toBeNull();
    expect(figures.dailySharpe).toBeNull();
    expect(figures.winningDaysPercent).toBe(100);
  });

  it('two equal days: deviation 0 and no Sharpe ratio (not infinity)', () => {
    const figures = calculateDailyFigures([
      { date: '2026-03-02', pnlCents: 500 },
      { date: '2026-03-03', pnlCents: 500 },
    ]);
    expect(figures.dailyStdDevCents).toBe(0);
    expect(figures.dailySharpe).toBeNull();
  });

  it('no days: zeros for counts, nulls for everything computed', () => {
    expect(calculateDailyFigures([])).toMatchObject({
      tradingDays: 0,
      winningDaysPercent: null,
      bestDay: null,
      worstDay: null,
      averageDayCents: null,
    });
  });
});

describe('maximum drawdown, trade by trade', () => {
  const day = (d: number) => `2026-03-${String(d).padStart(2, '0')}`;
  /** Trades as (trading day, net cents), in trading order. */
  const calculate = (trades: Array<{ tradeDate: string; pnlCents: number }>, opening: number | null = null) =>
    calculateMaxDrawdown(
      trades.map((t) => t.pnlCents),
      (k) => trades[k]!.tradeDate,
      opening,
    );

  it('+100 (2nd), +200 (3rd), -150 (4th), -100 (5th), +300 (6th): $250 from the 3rd to the 5th, recovered on the 6th', () => {
    const dd = calculate(
      [
        { tradeDate: day(2), pnlCents: 10_000 },
        { tradeDate: day(3), pnlCents: 20_000 },
        { tradeDate: day(4), pnlCents: -15_000 },
        { tradeDate: day(5), pnlCents: -10_000 },
        { tradeDate: day(6), pnlCents: 30_000 },
      ],
      1_000_000,
    );
    expect(dd).toEqual({
      amountCents: 25_000,
      peakCents: 30_000,
      peakDay: day(3),
      troughDay: day(5),
      recoveryDay: day(6),
      tradesToTrough: 2,
      tradesToRecovery: 1,
      // 250 of a $10,300 peak balance
      percentOfPeak: 2.4,
    });
  });

  it('a first trade that loses $80 falls from the start: no peak day, not recovered, no balance known', () => {
    expect(calculate([{ tradeDate: day(2), pnlCents: -8_000 }])).toEqual({
      amountCents: 8_000,
      peakCents: 0,
      peakDay: null,
      troughDay: day(2),
      recoveryDay: null,
      tradesToTrough: 1,
      tradesToRecovery: null,
      percentOfPeak: null,
    });
  });

  it('intraday: +50 then -200 then +100 on one day is a $200 drawdown the daily total (-50) would hide', () => {
    const dd = calculate([
      { tradeDate: day(2), pnlCents: 5_000 },
      { tradeDate: day(2), pnlCents: -20_000 },
      { tradeDate: day(2), pnlCents: 10_000 },
    ]);
    expect(dd?.amountCents).toBe(20_000);
  });

  it('two falls of $100: the first one counts, and its recovery is the first trade back at the peak', () => {
    const dd = calculate([
      { tradeDate: day(2), pnlCents: 10_000 },
      { tradeDate: day(3), pnlCents: -10_000 },
      { tradeDate: day(4), pnlCents: 10_000 },
      { tradeDate: day(5), pnlCents: 10_000 },
      { tradeDate: day(6), pnlCents: -10_000 },
    ]);
    expect(dd).toMatchObject({ amountCents: 10_000, peakDay: day(2), troughDay: day(3), recoveryDay: day(4) });
  });

  it('only wins (or nothing): no drawdown', () => {
    expect(calculate([{ tradeDate: day(2), pnlCents: 100 }])).toBeNull();
    expect(calculate([])).toBeNull();
  });
});
