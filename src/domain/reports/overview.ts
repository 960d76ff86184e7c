import type { Cents } from '../cents';
import type { CalendarDay } from '../dates/calendar-day';
import { aggregateRows, aggregateRowsByDay, countStreaks, gather, gatherResults } from './aggregate-rows';
import {
  calculateAverageLoss,
  calculateAverageTrade,
  calculateAverageWin,
  calculateDailyFigures,
  calculateExpectancy,
  calculateHoldAverages,
  calculateMaxDrawdown,
  calculatePayoffRatio,
  calculateProfitFactorOrNull,
  calculateWinRateOrNull,
  findLargestWinAndLoss,
  type DayExtreme,
  type Drawdown,
  type TradeExtreme,
} from './formulas';
import { dayOf, type TradeSet } from './report-trade';

/** Every figure of the Overview, also what Compare sets side by side and the AI cites. */
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
 * The Overview of a set of trades (in trading order). `openingBalanceCents` is the balance when the range opens (the
 * starting balance and the P&L before it), when it is known: the drawdown is then also a share of the peak balance.
 */
export function computeOverview(set: TradeSet, options: { openingBalanceCents?: Cents | null } = {}): ReportOverview {
  const { columns: c, rows } = set;
  const aggregate = aggregateRows(set);
  const pnl = gather(set, c.pnl);
  let feesCents = 0;
  for (const i of rows) feesCents += c.fee[i]!;
  const averageWinCents = calculateAverageWin(aggregate);
  const averageLossCents = calculateAverageLoss(aggregate);
  const streaks = countStreaks(set);
  const holds = calculateHoldAverages(gatherResults(set), gather(set, c.hold));
  const days = calculateDailyFigures(aggregateRowsByDay(set));
  const extremes = findLargestWinAndLoss(pnl);
  const extreme = (k: number | null): TradeExtreme | null =>
    k === null ? null : { pnlCents: pnl[k]!, tradeDate: dayOf(c, rows[k]!), id: c.id[rows[k]!]! };
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
    largestWin: extreme(extremes.win),
    largestLoss: extreme(extremes.loss),
    maxConsecutiveWins: streaks.maxWinStreak,
    maxConsecutiveLosses: streaks.maxLossStreak,
    averageHoldWinnersSeconds: holds.winnersSeconds,
    averageHoldLosersSeconds: holds.losersSeconds,
    tradesWithoutTimes: holds.withoutTimes,
    ...days,
    maxDrawdown: calculateMaxDrawdown(pnl, (k) => dayOf(c, rows[k]!), options.openingBalanceCents ?? null),
    firstDay: rows.length > 0 ? dayOf(c, rows[0]!) : null,
    lastDay: rows.length > 0 ? dayOf(c, rows[rows.length - 1]!) : null,
  };
}
