import { tool } from 'ai';
import { z } from 'zod';
import { toCents } from '../../../../domain/money';
import { basisOf, filterInput, isRefusal, money, resolveFilter, withData, type ToolContext } from './common';

/** Trades matching a filter, newest first (at most 50). */
export const findTradesTool = (ctx: ToolContext) =>
  tool({
    description: "Lists the trader's trades matching filters (newest first, at most 50): range, account, instrument, session, setup, side, result, and text in the notes or tags.",
    inputSchema: filterInput.extend({
      result: z.enum(['Win', 'Loss', 'BE']).optional().describe('Only wins, losses or break-evens'),
      text: z.string().max(100).optional().describe('Text to find in the notes or tags, e.g. FOMO'),
      limit: z.number().int().min(1).max(50).default(20),
    }),
    execute: ({ result, text, limit, ...input }) =>
      withData(ctx, async (data) => {
        const filter = await resolveFilter(data, input);
        if (isRefusal(filter)) return filter;
        const full = { ...filter, result, text };
        const [rows, days] = [await data.list(full, 'newest', limit), await data.daily(full)];
        return {
          basis: basisOf(days, input),
          total_matching: days.reduce((n, d) => n + d.trades, 0),
          trades: rows.map((t) => ({
            date: new Date(t.tradeDate).toISOString().slice(0, 10),
            symbol: t.symbol,
            side: t.side,
            session: t.session,
            setup: t.setup,
            result: t.status,
            net_pnl: money(toCents(t.pnl)),
            quantity: t.quantity,
            entry_time: t.entryTime,
            tags: t.tags,
            notes: t.notes.slice(0, 200),
          })),
        };
      }),
  });
