import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { attachments, tradeReflections, trades } from '../../db/schema';

export interface ReflectionRow {
  id: string;
  tradeDate: string;
  symbol: string;
  period: string;
  tradeType: string;
  side: string | null;
  status: string;
  pnlCents: string;
  notes: string;
  link: string;
  tags: string[];
  createdAt: string;
  accountId: string | null;
  imageUrl: string | null;
  followedRules: boolean | null;
  overrideTags: string[] | null;
  description: string | null;
}

export interface OverrideValues {
  followedRules?: boolean | null;
  tags?: string[] | null;
  description?: string | null;
}

/** Data access for reflections: the trades Reflect shows with the trader's overrides. Every query names its owner. */
export const reflectionsRepo = (tx: Tx, userId: string) => {
  const owner = eq(trades.userId, userId);

  return {
    /**
     * These trades (the engine chose them: the period's, in the trading order) with what Reflect shows of each: the
     * trader's overrides and the trade's first image. In no particular order.
     */
    async reflectedTrades(ids: readonly string[]): Promise<ReflectionRow[]> {
      if (ids.length === 0) return [];
      const rows = await tx
        .select({
          id: trades.id,
          tradeDate: trades.tradeDate,
          symbol: trades.symbol,
          period: trades.period,
          tradeType: trades.tradeType,
          side: trades.side,
          status: trades.status,
          pnlCents: sql<string>`(${trades.pnl} * 100)::bigint::text`,
          notes: trades.notes,
          link: trades.link,
          tags: trades.tags,
          createdAt: trades.createdAt,
          accountId: trades.accountId,
          imageUrl: sql<
            string | null
          >`(select ${attachments.url} from ${attachments} where ${attachments.userId} = ${userId} and ${attachments.tradeId} = ${trades.id} order by ${attachments.createdAt} limit 1)`,
          followedRules: tradeReflections.followedRules,
          overrideTags: tradeReflections.tags,
          description: tradeReflections.description,
        })
        .from(trades)
        .leftJoin(tradeReflections, and(eq(tradeReflections.tradeId, trades.id), eq(tradeReflections.userId, userId)))
        .where(and(owner, sql`${trades.id} = any(${`{${ids.join(',')}}`}::uuid[])`));
      return rows as ReflectionRow[];
    },

    async tradeExists(tradeId: string): Promise<boolean> {
      const rows = await tx
        .select({ id: trades.id })
        .from(trades)
        .where(and(owner, eq(trades.id, tradeId)));
      return rows.length > 0;
    },

    async upsertOverride(tradeId: string, values: OverrideValues) {
      const set = {
        ...(values.followedRules !== undefined && { followedRules: values.followedRules }),
        ...(values.tags !== undefined && { tags: values.tags }),
        ...(values.description !== undefined && { description: values.description }),
      };
      const [row] = await tx
        .insert(tradeReflections)
        .values({ tradeId, userId, ...set })
        .onConflictDoUpdate({ target: [tradeReflections.userId, tradeReflections.tradeId], set: { ...set, updatedAt: sql`now()` } })
        .returning();
      return row!;
    },
  };
};
