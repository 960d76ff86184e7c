import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { QuickLinkInput } from '../../../domain/links/quick-links';
import type { Tx } from '../../db/client';
import { quickLinks } from '../../db/schema';

type Row = typeof quickLinks.$inferSelect;

/** Data access for quick links (ordered by position, then created_at). */
export const quickLinksRepo = (tx: Tx, userId: string) => {
  const owner = eq(quickLinks.userId, userId);
  return {
    list: () => tx.select().from(quickLinks).where(owner).orderBy(asc(quickLinks.position), asc(quickLinks.createdAt), asc(quickLinks.id)),

    /**
     * Serializes this trader's quick-link writes until the transaction ends, so "new links last" and "only when the
     * trader has none" hold when two tabs write at once. Keyed on the trader only: other traders never wait.
     */
    lock: () => tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`quick_links:${userId}`}, 0))`),

    async maxPosition(): Promise<number> {
      const [row] = await tx
        .select({ max: sql<number>`coalesce(max(${quickLinks.position}), 0)::int` })
        .from(quickLinks)
        .where(owner);
      return row?.max ?? 0;
    },

    async insert(links: Array<QuickLinkInput & { position: number }>): Promise<Row[]> {
      if (links.length === 0) return [];
      return tx
        .insert(quickLinks)
        .values(links.map((l) => ({ userId, title: l.title, url: l.url, icon: l.icon, position: l.position })))
        .returning();
    },

    async update(id: string, values: Partial<QuickLinkInput>): Promise<Row | undefined> {
      const [row] = await tx
        .update(quickLinks)
        .set(values)
        .where(and(owner, eq(quickLinks.id, id)))
        .returning();
      return row;
    },

    async remove(id: string): Promise<boolean> {
      const rows = await tx
        .delete(quickLinks)
        .where(and(owner, eq(quickLinks.id, id)))
        .returning({ id: quickLinks.id });
      return rows.length > 0;
    },

    async ownedCount(ids: string[]): Promise<number> {
      const rows = await tx
        .select({ id: quickLinks.id })
        .from(quickLinks)
        .where(and(owner, inArray(quickLinks.id, ids)));
      return rows.length;
    },

    async setPositions(positions: Array<{ id: string; position: number }>) {
      const ids = positions.map((p) => p.id);
      const cases = sql.join(
        positions.map((p) => sql`when ${p.id}::uuid then ${p.position}::int`),
        sql` `,
      );
      await tx
        .update(quickLinks)
        .set({ position: sql`case ${quickLinks.id} ${cases} end` })
        .where(and(owner, inArray(quickLinks.id, ids)));
    },
  };
};
