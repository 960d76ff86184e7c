import { tool } from 'ai';
import { z } from 'zod';
import { toCents } from '../../../../domain/money';
import { basisOf, filterInput, isRefusal, money, resolveFilter, withData, type ToolContext } from './common';

const describe = (t: { tradeDate: string; symbol: string; side: string | null; setup: string; session: string; pnl: string; notes: string }) => ({
  date: new Date(t.tradeDate).toISOString().slice(0, 10),
  symbol: t.symbol,
  side: t.side,
  setup: t.setup,
  session: t.session,
  net_pnl: money(toCents(t.pnl)),
  notes: t.notes.slice(0, 200),
});

/** The best and worst trades of a filter. */
export const getBestWorstTradesTool = (ctx: ToolContext) =>
  tool({
    description: "The trader's best and worst trades (by net P&L) for a range and filters.",
    inputSchema: filterInput.extend({ count: z.number().int().min(1).max(10).default(3).describe('How many of each, 1 to 10') }),
    execute: ({ count, ...input }) =>
      withData(ctx, async (data) => {
        const filter = await resolveFilter(data, input);
        if (isRefusal(filter)) return filter;
        const [best, worst, days] = [await data.list(filter, 'best', count), await data.list(filter, 'worst', count), await data.daily(filter)];
        return { basis: basisOf(days, input), best: best.map(describe), worst: worst.map(describe) };
      }),
  });
