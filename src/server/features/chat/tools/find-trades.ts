import { tool } from 'ai';
import { z } from 'zod';
import { toCents } from '../../../../domain/money';
import { newestFirst, withChatTrades } from '../trade-scope';
import { filterInput, money, type ToolContext } from './common';

/** Trades matching a filter, newest first in the trading order (at most 50). */
export const findTradesTool = (ctx: ToolContext) =>
  tool({
    description:
      "Lists the trader's trades matching filters (newest first, at most 50): range, account, instrument, session, setup, side, result, and text found as the Trade Log's search finds it (notes, tags, instrument, setup, session, account).",
    inputSchema: filterInput.extend({
      result: z.enum(['Win', 'Loss', 'BE']).optional().describe('Only wins, losses or break-evens'),
      text: z.string().max(100).optional().describe('Text to find in the notes, tags and the other searched fields, e.g. FOMO'),
      limit: z.number().int().min(1).max(50).default(20),
    }),
    execute: ({ limit, ...input }) =>
      withChatTrades(ctx, input, async ({ set, basis, details }) => ({
        basis,
        total_matching: set.rows.length,
        trades: (await details(newestFirst(set, limit))).map((t) => ({
          date: new Date(t.tradeDate).toISOString().slice(0, 10),
          symbol: t.symbol,
          side: t.side,
          session: t.period,
          setup: t.tradeType,
          result: t.status,
          net_pnl: money(toCents(t.pnl)),
          quantity: t.quantity,
          entry_time: t.entryTime && new Date(t.entryTime).toISOString(),
          tags: t.tags,
          notes: t.notes.slice(0, 200),
        })),
      })),
  });
