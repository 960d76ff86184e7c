import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { trades } from '../../db/schema';

/**
 * The trades just before and after one trade in the trader's order (trade_date, created_at, id), for the previous
 * and next arrows of /trade/{id}: each is one step along the (user_id, trade_date, created_at, id) index.
 */
export const tradeNeighborsRepo = (tx: Tx, userId: string) => ({
  async neighbors(trade: { tradeDate: string; createdAt: string; id: string }) {
    const key = sql`(${trades.tradeDate}, ${trades.createdAt}, ${trades.id})`;
    const here = sql`(${trade.tradeDate}::timestamptz, ${trade.createdAt}::timestamptz, ${trade.id}::uuid)`;
    const [previous] = await tx
      .select({ id: trades.id })
      .from(trades)
      .where(and(eq(trades.userId, userId), sql`${key} < ${here}`))
      .orderBy(desc(trades.tradeDate), desc(trades.createdAt), desc(trades.id))
      .limit(1);
    const [next] = await tx
      .select({ id: trades.id })
      .from(trades)
      .where(and(eq(trades.userId, userId), sql`${key} > ${here}`))
      .orderBy(asc(trades.tradeDate), asc(trades.createdAt), asc(trades.id))
      .limit(1);
    return { previous: previous?.id ?? null, next: next?.id ?? null };
  },
});
