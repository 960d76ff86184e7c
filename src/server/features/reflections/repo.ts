import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { tradeReflections, trades } from '../../db/schema';

export interface OverrideValues {
  followedRules?: boolean | null;
  tags?: string[] | null;
  description?: string | null;
}

/** The trader's overrides of what Reflect shows of a trade (the reads are the core's: core/reflect). Every query names its owner. */
export const reflectionsRepo = (tx: Tx, userId: string) => {
  const owner = eq(trades.userId, userId);

  return {
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
