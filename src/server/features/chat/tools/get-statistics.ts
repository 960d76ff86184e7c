import { tool } from 'ai';
import { calculateAverageLoss, calculateAverageWin, calculateDailyFigures } from '../../../../domain/reports/formulas';
import { computeTradeLogStats } from '../../../../domain/reports/trade-log-stats';
import { formatProfitFactor } from '../../../../domain/stats';
import { withChatTrades } from '../trade-scope';
import { filterInput, money, percent, type ToolContext } from './common';

/** Summary statistics of any filter: the Trade Log's statistics, from the same trades and formulas. */
export const getStatisticsTool = (ctx: ToolContext) =>
  tool({
    description:
      "The trader's statistics for a date range and optional account, instrument, session or setup: trade count, wins, losses, break-evens, win rate, net P&L, gross profit and loss, profit factor, average win and loss, streaks, best and worst day. Use it for any question about totals or rates.",
    inputSchema: filterInput,
    execute: (input) =>
      withChatTrades(ctx, input, ({ set, days, basis }) => {
        const { summary } = computeTradeLogStats(set);
        const averageWin = calculateAverageWin(summary);
        const averageLoss = calculateAverageLoss(summary);
        const { bestDay: best, worstDay: worst } = calculateDailyFigures(days);
        return {
          basis,
          trades: summary.trades,
          wins: summary.wins,
          losses: summary.losses,
          break_evens: summary.breakEvens,
          win_rate: percent(summary.winRate),
          net_pnl: money(summary.pnlCents),
          gross_profit: money(summary.grossProfitCents),
          gross_loss: money(summary.grossLossCents),
          profit_factor: summary.trades ? formatProfitFactor(summary.profitFactor, summary.trades) : '-',
          average_win: averageWin === null ? '-' : money(averageWin),
          average_loss: averageLoss === null ? '-' : money(averageLoss),
          max_win_streak: summary.streaks.maxWinStreak,
          max_loss_streak: summary.streaks.maxLossStreak,
          trading_days: days.length,
          best_day: best ? `${best.tradeDate}: ${money(best.pnlCents)}` : '-',
          worst_day: worst ? `${worst.tradeDate}: ${money(worst.pnlCents)}` : '-',
        };
      }),
  });
