import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { savedViews } from '../../db/schema';

export type SavedViewRow = typeof savedViews.$inferSelect;

/** Data access for a trader's saved report views; every query carries the owner. */
export const savedViewsRepo = (tx: Tx, userId: string) => {
  const owner = eq(savedViews.userId, userId);
  return {
    list: () =>
      tx
        .select()
        .from(savedViews)
        .where(owner)
        .orderBy(asc(sql`lower(${savedViews.name})`), asc(savedViews.createdAt), asc(savedViews.id)),

    /**
     * Serializes this trader's saved-view writes until the transaction ends, so the name check and the limit hold
     * when two tabs save at once. Keyed on the trader only: other traders never wait.
     */
    lock: () => tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`saved_views:${userId}`}, 0))`),

    async count(): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(savedViews).where(owner);
      return row?.n ?? 0;
    },

    /** Whether another of the trader's views has this name, whatever its case. */
    async nameTaken(name: string, exceptId?: string): Promise<boolean> {
      const same = sql`lower(${savedViews.name}) = lower(${name})`;
      const rows = await tx
        .select({ id: savedViews.id })
        .from(savedViews)
        .where(and(owner, same, exceptId ? ne(savedViews.id, exceptId) : undefined))
        .limit(1);
      return rows.length > 0;
    },

    find: async (id: string): Promise<SavedViewRow | undefined> =>
      (
        await tx
          .select()
          .from(savedViews)
          .where(and(owner, eq(savedViews.id, id)))
      )[0],

    insert: async (values: { name: string; filter: string }): Promise<SavedViewRow> =>
      (
        await tx
          .insert(savedViews)
          .values({ userId, ...values })
          .returning()
      )[0]!,

    rename: async (id: string, name: string): Promise<SavedViewRow | undefined> =>
      (
        await tx
          .update(savedViews)
          .set({ name, updatedAt: sql`now()` })
          .where(and(owner, eq(savedViews.id, id)))
          .returning()
      )[0],

    async remove(id: string): Promise<boolean> {
      const rows = await tx
        .delete(savedViews)
        .where(and(owner, eq(savedViews.id, id)))
        .returning({ id: savedViews.id });
      return rows.length > 0;
    },
  };
};
