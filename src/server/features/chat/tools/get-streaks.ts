import { tool } from 'ai';
import { calculateStreaks } from '../../../../domain/stats';
import { basisOf, filterInput, isRefusal, resolveFilter, withData, type ToolContext } from './common';

/** Longest winning and losing runs, and the current one. */
export const getStreaksTool = (ctx: ToolContext) =>
  tool({
    description: "The trader's longest winning and losing streaks (consecutive trades) and the streak they are on now, for a range and filters.",
    inputSchema: filterInput,
    execute: (input) =>
      withData(ctx, async (data) => {
        const filter = await resolveFilter(data, input);
        if (isRefusal(filter)) return filter;
        const streaks = calculateStreaks([...(await data.sequence(filter))].map((c) => (c === 'W' ? 'Win' : c === 'L' ? 'Loss' : 'BE')));
        return {
          basis: basisOf(await data.daily(filter), input),
          max_win_streak: streaks.maxWinStreak,
          max_loss_streak: streaks.maxLossStreak,
          current_streak: streaks.current.result ? `${streaks.current.length} ${streaks.current.result === 'Win' ? 'wins' : 'losses'} in a row` : 'none',
        };
      }),
  });
