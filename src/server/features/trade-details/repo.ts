import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { trades } from '../../db/schema';
import { compareKey, newestFirst, oldestFirst, type TradingKey } from '../../core/trades/order';

/**
 * The trades just before and after one trade in the trading order (day, entry, exit, creation, id), for the previous
 * and next arrows of /trade/{id}: each is one step along the list's (user_id, trading order) index.
 */
export const tradeNeighborsRepo = (tx: Tx, userId: string) => ({
  async neighbors(trade: TradingKey) {
    const [previous] = await tx
      .select({ id: trades.id })
      .from(trades)
      .where(and(eq(trades.userId, userId), compareKey('<', trade)))
      .orderBy(...newestFirst())
      .limit(1);
    const [next] = await tx
      .select({ id: trades.id })
      .from(trades)
      .where(and(eq(trades.userId, userId), compareKey('>', trade)))
      .orderBy(...oldestFirst())
      .limit(1);
    return { previous: previous?.id ?? null, next: next?.id ?? null };
  },
});
