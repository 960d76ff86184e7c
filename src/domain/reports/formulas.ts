import type { Cents } from '../cents';
import type { CalendarDay } from '../dates/calendar-day';
import { calculateProfitFactor } from '../stats/profit-factor';
import type { DailyAggregate, TradeAggregate } from '../stats/trade-aggregate';
import { calculateWinRate } from '../stats/win-rate';

/**
 * The reports' formulas, each once, each on the smallest input it needs. Money is integer cents; an average
 * of cents is rounded to the cent (Math.round, as the statistics round theirs). A figure that has nothing to be
 * computed
 * from is null, never 0: a journal does not invent numbers (DESIGN).
 */

/** A share as a percentage with one decimal, rounded half up (1 of 8 is 12.5). Null of nothing. */
export function toPercent(part: number, whole: number): number | null {
  if (whole === 0) return null;
  return Math.round((part * 1000) / whole) / 10;
}

/** Gross profit / wins: the average winning trade. */
export function calculateAverageWin(aggregate: Pick<TradeAggregate, 'wins' | 'grossProfitCents'>): Cents | null {
  return aggregate.wins === 0 ? null : Math.round(aggregate.grossProfitCents / aggregate.wins);
}

/** Gross loss / losses: the average losing trade (negative). */
export function calculateAverageLoss(aggregate: Pick<TradeAggregate, 'losses' | 'grossLossCents'>): Cents | null {
  return aggregate.losses === 0 ? null : Math.round(aggregate.grossLossCents / aggregate.losses);
}

/** Net P&L / trades, break-evens counted: what the average trade made. */
export function calculateAverageTrade(aggregate: Pick<TradeAggregate, 'trades' | 'pnlCents'>): Cents | null {
  return aggregate.trades === 0 ? null : Math.round(aggregate.pnlCents / aggregate.trades);
}

/**
 * Expectancy per trade = win rate x average win + loss rate x average loss, the rates of decided trades (break-evens
 * left out, as the spec's win rate leaves them): what a trade that wins or loses is worth on average. With
 * break-evens it is larger in size than the average trade, which counts them as zeros. Null when nothing was decided.
 */
export function calculateExpectancy(aggregate: Pick<TradeAggregate, 'wins' | 'losses' | 'grossProfitCents' | 'grossLossCents'>): Cents | null {
  const decided = aggregate.wins + aggregate.losses;
  if (decided === 0) return null;
  // wins/decided x (grossProfit/wins) + losses/decided x (grossLoss/losses), with the counts cancelled: exact cents.
  return Math.round((aggregate.grossProfitCents + aggregate.grossLossCents) / decided);
}

/** Average win / |average loss|, two decimals; null without a win or a loss. */
export function calculatePayoffRatio(averageWinCents: Cents | null, averageLossCents: Cents | null): number | null {
  if (averageWinCents === null || averageLossCents === null || averageLossCents === 0) return null;
  return Math.round((averageWinCents / Math.abs(averageLossCents)) * 100) / 100;
}

/**
 * The statistics' profit factor (gross profit / |gross loss|) as a figure, two decimals: null when there is no losing
 * trade, whether something was won (an infinite ratio, written '∞') or not (only break-evens: nothing to divide).
 */
export function calculateProfitFactorOrNull(aggregate: Pick<TradeAggregate, 'grossProfitCents' | 'grossLossCents'>): number | null {
  if (aggregate.grossLossCents === 0) return null;
  return Math.round(calculateProfitFactor(aggregate) * 100) / 100;
}

/** Win rate as the spec writes it (wins / decided, one decimal), or null when nothing was won or lost. */
export function calculateWinRateOrNull(counts: { wins: number; losses: number }): number | null {
  return counts.wins + counts.losses === 0 ? null : calculateWinRate(counts);
}

export interface TradeExtreme {
  pnlCents: Cents;
  tradeDate: CalendarDay;
  id: string;
}

/** Rows of the largest win and the largest loss in `pnl` (the first on a tie); null when there is none. */
export function findLargestWinAndLoss(pnl: ArrayLike<number>): { win: number | null; loss: number | null } {
  let win: number | null = null;
  let loss: number | null = null;
  for (let i = 0; i < pnl.length; i++) {
    const p = pnl[i]!;
    if (p > 0 && (win === null || p > pnl[win]!)) win = i;
    if (p < 0 && (loss === null || p < pnl[loss]!)) loss = i;
  }
  return { win, loss };
}

export interface HoldAverages {
  /** Average seconds from entry to exit of the winning trades that have both times; null without one. */
  winnersSeconds: number | null;
  losersSeconds: number | null;
  /** Trades left out because they lack an entry or exit time (manual trades, daily P&L files). */
  withoutTimes: number;
}

/**
 * Average hold time of winners and of losers, by result (`RESULT` codes: 1 win, 2 loss), in whole seconds; `holds` are
 * seconds, NaN for a trade without times.
 */
export function calculateHoldAverages(results: ArrayLike<number>, holds: ArrayLike<number>): HoldAverages {
  let winSum = 0;
  let winCount = 0;
  let lossSum = 0;
  let lossCount = 0;
  let withoutTimes = 0;
  for (let i = 0; i < holds.length; i++) {
    const seconds = holds[i]!;
    if (Number.isNaN(seconds)) {
      withoutTimes++;
    } else if (results[i] === 1) {
      winSum += seconds;
      winCount++;
    } else if (results[i] === 2) {
      lossSum += seconds;
      lossCount++;
    }
  }
  return {
    winnersSeconds: winCount === 0 ? null : Math.round(winSum / winCount),
    losersSeconds: lossCount === 0 ? null : Math.round(lossSum / lossCount),
    withoutTimes,
  };
}

export interface DayExtreme {
  tradeDate: CalendarDay;
  pnlCents: Cents;
}

export interface DailyFigures {
  tradingDays: number;
  /** Days whose net P&L is above zero, below zero. */
  winningDays: number;
  losingDays: number;
  winningDaysPercent: number | null;
  bestDay: DayExtreme | null;
  worstDay: DayExtreme | null;
  /** Mean net P&L of a trading day. */
  averageDayCents: Cents | null;
  /** Sample standard deviation of the days' net P&L (n - 1); null with fewer than two days. */
  dailyStdDevCents: Cents | null;
  /**
   * Mean / standard deviation of daily net P&L, two decimals: a Sharpe-style ratio per trading day, without a
   * risk-free rate or annualising (multiply by √252 for a yearly figure). Null when the deviation is null or 0.
   */
  dailySharpe: number | null;
}

/** Figures of the trading days (only days with trades count: a day off is not a flat day). */
export function calculateDailyFigures(days: readonly Pick<DailyAggregate, 'date' | 'pnlCents'>[]): DailyFigures {
  let winningDays = 0;
  let losingDays = 0;
  let bestDay: DayExtreme | null = null;
  let worstDay: DayExtreme | null = null;
  let sum = 0;
  for (const day of days) {
    sum += day.pnlCents;
    if (day.pnlCents > 0) winningDays++;
    else if (day.pnlCents < 0) losingDays++;
    if (bestDay === null || day.pnlCents > bestDay.pnlCents) bestDay = { tradeDate: day.date, pnlCents: day.pnlCents };
    if (worstDay === null || day.pnlCents < worstDay.pnlCents) worstDay = { tradeDate: day.date, pnlCents: day.pnlCents };
  }
  const n = days.length;
  const mean = n === 0 ? 0 : sum / n;
  let squares = 0;
  for (const day of days) squares += (day.pnlCents - mean) ** 2;
  const deviation = n < 2 ? null : Math.sqrt(squares / (n - 1));
  return {
    tradingDays: n,
    winningDays,
    losingDays,
    winningDaysPercent: toPercent(winningDays, n),
    bestDay,
    worstDay,
    averageDayCents: n === 0 ? null : Math.round(mean),
    dailyStdDevCents: deviation === null ? null : Math.round(deviation),
    dailySharpe: deviation === null || deviation === 0 ? null : Math.round((mean / deviation) * 100) / 100,
  };
}

export interface Drawdown {
  /** The largest fall of cumulative net P&L from a peak, as a positive amount. */
  amountCents: Cents;
  /** The peak it fell from (cumulative net P&L, 0 at the start). */
  peakCents: Cents;
  /** Trading day of the peak; null when the peak is the start, before the first trade. */
  peakDay: CalendarDay | null;
  /** Trading day of the lowest point. */
  troughDay: CalendarDay;
  /** First trading day back at the peak or above; null while it has not recovered. */
  recoveryDay: CalendarDay | null;
  /** Trades from the peak to the trough, and from the trough to the recovery (null while not recovered). */
  tradesToTrough: number;
  tradesToRecovery: number | null;
  /**
   * The amount as a share of the balance at the peak (starting balance + net P&L before the range + the peak), one
   * decimal; null when no balance is known.
   */
  percentOfPeak: number | null;
}

/**
 * Maximum drawdown of closed-trade equity, trade by trade in trading order: the cumulative net P&L starts at 0 (the
 * range's opening), its running peak is the highest it has been, and the drawdown is the largest fall below it. Of
 * equal
 * falls the first counts. Null when the equity never falls below a peak (no trades, or never a loss). `dayOf(i)` is
 * trade i's trading day. `openingBalanceCents` (the balance when the range opens) gives the fall as a share of the
 * balance at its peak.
 */
export function calculateMaxDrawdown(
  pnl: ArrayLike<number>,
  dayOf: (index: number) => CalendarDay,
  openingBalanceCents: Cents | null = null,
): Drawdown | null {
  let equity = 0;
  let peak = 0;
  let peakIndex = -1;
  let best: { amount: number; peak: number; peakIndex: number; troughIndex: number } | null = null;
  for (let i = 0; i < pnl.length; i++) {
    equity += pnl[i]!;
    if (equity > peak) {
      peak = equity;
      peakIndex = i;
    } else if (peak - equity > (best?.amount ?? 0)) {
      best = { amount: peak - equity, peak, peakIndex, troughIndex: i };
    }
  }
  if (best === null) return null;
  let recoveryIndex: number | null = null;
  equity = 0;
  for (let i = 0; i < pnl.length; i++) {
    equity += pnl[i]!;
    if (i > best.troughIndex && equity >= best.peak) {
      recoveryIndex = i;
      break;
    }
  }
  const balanceAtPeak = openingBalanceCents === null ? null : openingBalanceCents + best.peak;
  return {
    amountCents: best.amount,
    peakCents: best.peak,
    peakDay: best.peakIndex < 0 ? null : dayOf(best.peakIndex),
    troughDay: dayOf(best.troughIndex),
    recoveryDay: recoveryIndex === null ? null : dayOf(recoveryIndex),
    tradesToTrough: best.troughIndex - best.peakIndex,
    tradesToRecovery: recoveryIndex === null ? null : recoveryIndex - best.troughIndex,
    percentOfPeak: balanceAtPeak !== null && balanceAtPeak > 0 ? toPercent(best.amount, balanceAtPeak) : null,
  };
}
