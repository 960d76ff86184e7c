import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { notes, tradeReflections, trades } from '../../db/schema';
import { newestFirst } from '../../core/trades/order';

/**
 * What the chat reads of the trader's writing (their figures come from the engine: trade-scope.ts). Every query names
 * its owner, and row-level security backs it up.
 */
export const chatTradeData = (tx: Tx, userId: string) => {
  /** Trades of the trader whose trading day lies in [from, to]. */
  const inRange = (from: string, to: string) =>
    and(
      eq(trades.userId, userId),
      sql`${trades.tradeDate} >= ${`${from}T00:00:00Z`}::timestamptz`,
      sql`${trades.tradeDate} <= ${`${to}T23:59:59Z`}::timestamptz`,
    );

  return {
    /** Trade notes, reflection descriptions and notebook/journal notes written in a range, newest first. */
    async writings(from: string, to: string, limit: number) {
      const tradeNotes = await tx
        .select({
          date: sql<string>`to_char(${trades.tradeDate} at time zone 'UTC', 'YYYY-MM-DD')`,
          symbol: trades.symbol,
          notes: trades.notes,
          reflection: tradeReflections.description,
          followedRules: tradeReflections.followedRules,
        })
        .from(trades)
        .leftJoin(tradeReflections, and(eq(tradeReflections.tradeId, trades.id), eq(tradeReflections.userId, userId)))
        .where(
          and(
            inRange(from, to),
            sql`(${trades.notes} <> '' or ${tradeReflections.description} is not null or ${tradeReflections.followedRules} is not null)`,
          ),
        )
        .orderBy(...newestFirst())
        .limit(limit);
      const journal = await tx
        .select({ title: notes.title, content: notes.content, updatedAt: notes.updatedAt })
        .from(notes)
        .where(
          and(
            eq(notes.userId, userId),
            sql`${notes.updatedAt} >= ${`${from}T00:00:00Z`}::timestamptz`,
            sql`${notes.updatedAt} < (${to}::date + 2)::timestamptz`,
          ),
        )
        .orderBy(desc(notes.updatedAt))
        .limit(limit);
      return { tradeNotes, journal };
    },
  };
};

export type ChatTradeData = ReturnType<typeof chatTradeData>;
