import { tool } from 'ai';
import { z } from 'zod';
import { toCents } from '../../../../domain/money';
import type { TradeRow } from '../../../core/trades/repo';
import { byPnl, withChatTrades } from '../trade-scope';
import { filterInput, money, type ToolContext } from './common';

const describe = (t: TradeRow) => ({
  date: new Date(t.tradeDate).toISOString().slice(0, 10),
  symbol: t.symbol,
  side: t.side,
  setup: t.tradeType,
  session: t.period,
  net_pnl: money(toCents(t.pnl)),
  notes: t.notes.slice(0, 200),
});

/** The best and worst trades of a filter. */
export const getBestWorstTradesTool = (ctx: ToolContext) =>
  tool({
    description: "The trader's best and worst trades (by net P&L) for a range and filters.",
    inputSchema: filterInput.extend({ count: z.number().int().min(1).max(10).default(3).describe('How many of each, 1 to 10') }),
    execute: ({ count, ...input }) =>
      withChatTrades(ctx, input, async ({ set, basis, details }) => ({
        basis,
        best: (await details(byPnl(set, 'best', count))).map(describe),
        worst: (await details(byPnl(set, 'worst', count))).map(describe),
      })),
  });
