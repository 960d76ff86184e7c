import type { Cents } from '../cents';
import type { CalendarDay } from '../dates/calendar-day';
import { calculateStreaks } from '../stats/streaks';
import { aggregateTrades, aggregateTradesByDay } from '../stats/trade-aggregate';
import {
  calculateAverageLoss,
  calculateAverageTrade,
  calculateAverageWin,
  calculateDailyFigures,
  calculateExpectancy,
  calculateHoldAverages,
  calculateMaxDrawdown,
  calculateProfitFactorOrNull,
  calculatePayoffRatio,
  calculateWinRateOrNull,
  findLargestWinAndLoss,
  type DayExtreme,
  type Drawdown,
  type TradeExtreme,
} from './formulas';
import type { ReportTrade } from './report-trade';

/** Every figure of the Overview (issue 26 point 2), also what Compare sets side by side and the AI cites. */
export interface ReportOverview {
  trades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  /** Net of fees. */
  netCents: Cents;
  /** Before fees: net + fees. */
  grossCents: Cents;
  feesCents: Cents;
  grossProfitCents: Cents;
  grossLossCents: Cents;
  winRate: number | null;
  /** Null when there is no losing trade (an infinite ratio, '∞' when something was won) or no trade. */
  profitFactor: number | null;
  expectancyCents: Cents | null;
  averageTradeCents: Cents | null;
  averageWinCents: Cents | null;
  averageLossCents: Cents | null;
  payoffRatio: number | null;
  largestWin: TradeExtreme | null;
  largestLoss: TradeExtreme | null;
  maxConsecutiveWins: number;
  maxConsecutiveLosses: number;
  averageHoldWinnersSeconds: number | null;
  averageHoldLosersSeconds: number | null;
  tradesWithoutTimes: number;
  tradingDays: number;
  winningDays: number;
  losingDays: number;
  winningDaysPercent: number | null;
  bestDay: DayExtreme | null;
  worstDay: DayExtreme | null;
  averageDayCents: Cents | null;
  dailyStdDevCents: Cents | null;
  dailySharpe: number | null;
  maxDrawdown: Drawdown | null;
  firstDay: CalendarDay | null;
  lastDay: CalendarDay | null;
}

/**
 * The Overview of trades given in trading order. `openingBalanceCents` is the balance when the range opens (the
 * starting balance and the P&L before it), when it is known: the drawdown is then also a share of the peak balance.
 */
export function computeOverview(trades: readonly ReportTrade[], options: { openingBalanceCents?: Cents | null } = {}): ReportOverview {
  const aggregate = aggregateTrades(trades);
  let feesCents = 0;
  for (const t of trades) feesCents += t.commissionCents;
  const averageWinCents = calculateAverageWin(aggregate);
  const averageLossCents = calculateAverageLoss(aggregate);
  const streaks = calculateStreaks(trades.map((t) => t.status));
  const holds = calculateHoldAverages(trades);
  const days = calculateDailyFigures(aggregateTradesByDay(trades));
  const { largestWin, largestLoss } = findLargestWinAndLoss(trades);
  return {
    trades: aggregate.trades,
    wins: aggregate.wins,
    losses: aggregate.losses,
    breakEvens: aggregate.breakEvens,
    netCents: aggregate.pnlCents,
    grossCents: aggregate.pnlCents + feesCents,
    feesCents,
    grossProfitCents: aggregate.grossProfitCents,
    grossLossCents: aggregate.grossLossCents,
    winRate: calculateWinRateOrNull(aggregate),
    profitFactor: calculateProfitFactorOrNull(aggregate),
    expectancyCents: calculateExpectancy(aggregate),
    averageTradeCents: calculateAverageTrade(aggregate),
    averageWinCents,
    averageLossCents,
    payoffRatio: calculatePayoffRatio(averageWinCents, averageLossCents),
    largestWin,
    largestLoss,
    maxConsecutiveWins: streaks.maxWinStreak,
    maxConsecutiveLosses: streaks.maxLossStreak,
    averageHoldWinnersSeconds: holds.winnersSeconds,
    averageHoldLosersSeconds: holds.losersSeconds,
    tradesWithoutTimes: holds.withoutTimes,
    ...days,
    maxDrawdown: calculateMaxDrawdown(trades, options.openingBalanceCents ?? null),
    firstDay: trades[0]?.tradeDate ?? null,
    lastDay: trades[trades.length - 1]?.tradeDate ?? null,
  };
}
