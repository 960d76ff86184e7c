import { tool } from 'ai';
import { z } from 'zod';
import { day, withData, type ToolContext } from './common';

/** What the trader wrote in a range: trade notes, reflections (and rule adherence), notebook and journal notes. */
export const getNotesAndReflectionsTool = (ctx: ToolContext) =>
  tool({
    description:
      'What the trader wrote between two days: notes on trades, their reflections and whether each trade followed their rules, and notebook or daily journal notes.',
    inputSchema: z.object({
      from: day.describe('First day, yyyy-MM-dd'),
      to: day.describe('Last day, yyyy-MM-dd'),
    }),
    execute: ({ from, to }) =>
      withData(ctx, async (data) => {
        const { tradeNotes, journal } = await data.writings(from, to, 40);
        return {
          basis: { trades: tradeNotes.length, from, to, filters: [], text: `notes and reflections, ${from} to ${to}` },
          trade_notes: tradeNotes.map((n) => ({
            date: n.date,
            symbol: n.symbol,
            notes: n.notes.slice(0, 300),
            reflection: n.reflection?.slice(0, 300) ?? null,
            followed_rules: n.followedRules,
          })),
          notes: journal.map((n) => ({ title: n.title, updated: n.updatedAt, content: n.content.slice(0, 600) })),
        };
      }),
  });
