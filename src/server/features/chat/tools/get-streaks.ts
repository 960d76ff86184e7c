import { tool } from 'ai';
import { computeTradeLogStats } from '../../../../domain/reports/trade-log-stats';
import { withChatTrades } from '../trade-scope';
import { filterInput, type ToolContext } from './common';

/** Longest winning and losing runs, and the current one, in the trading order. */
export const getStreaksTool = (ctx: ToolContext) =>
  tool({
    description: "The trader's longest winning and losing streaks (consecutive trades) and the streak they are on now, for a range and filters.",
    inputSchema: filterInput,
    execute: (input) =>
      withChatTrades(ctx, input, ({ set, basis }) => {
        const { streaks } = computeTradeLogStats(set).summary;
        return {
          basis,
          max_win_streak: streaks.maxWinStreak,
          max_loss_streak: streaks.maxLossStreak,
          current_streak: streaks.current.result
            ? `${streaks.current.length} ${streaks.current.result === 'Win' ? 'wins' : 'losses'} in a row`
            : 'none',
        };
      }),
  });
