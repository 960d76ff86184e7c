import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client';
import { shareLinks } from '../../db/schema';

export type ShareLinkRow = typeof shareLinks.$inferSelect;
export type NewShareLink = Omit<typeof shareLinks.$inferInsert, 'userId' | 'id'>;

/** The trader's own links, under row-level security as that trader. */
export const shareLinksRepo = (tx: Tx, userId: string) => {
  const owner = eq(shareLinks.userId, userId);
  return {
    list: () => tx.select().from(shareLinks).where(owner).orderBy(desc(shareLinks.createdAt), desc(shareLinks.id)),

    async insert(link: NewShareLink): Promise<ShareLinkRow> {
      const [row] = await tx
        .insert(shareLinks)
        .values({ ...link, userId })
        .returning();
      return row!;
    },

    /** Revoked from `now` on; a link revoked before keeps its first revocation time. False when it is not theirs. */
    async revoke(id: string, now: Date): Promise<boolean> {
      const rows = await tx
        .update(shareLinks)
        .set({ revokedAt: sql`coalesce(${shareLinks.revokedAt}, ${now.toISOString()}::timestamptz)` })
        .where(and(owner, eq(shareLinks.id, id)))
        .returning({ id: shareLinks.id });
      return rows.length > 0;
    },

    /**
     * Counts one view, only while the link still answers at `now` (read again here, in the transaction that reads
     * what it shows: a revocation that committed a moment ago wins). The row, or undefined when it no longer answers.
     */
    async view(id: string, now: Date): Promise<ShareLinkRow | undefined> {
      const at = now.toISOString();
      const [row] = await tx
        .update(shareLinks)
        .set({ views: sql`${shareLinks.views} + 1`, lastViewedAt: sql`${at}::timestamptz` })
        .where(
          and(
            owner,
            eq(shareLinks.id, id),
            sql`${shareLinks.revokedAt} is null`,
            sql`(${shareLinks.expiresAt} is null or ${shareLinks.expiresAt} > ${at}::timestamptz)`,
          ),
        )
        .returning();
      return row;
    },

    /** The link as it is, when it still answers at `now` (the preview image reads without counting a view). */
    async live(id: string, now: Date): Promise<ShareLinkRow | undefined> {
      const at = now.toISOString();
      const [row] = await tx
        .select()
        .from(shareLinks)
        .where(
          and(
            owner,
            eq(shareLinks.id, id),
            sql`${shareLinks.revokedAt} is null`,
            sql`(${shareLinks.expiresAt} is null or ${shareLinks.expiresAt} > ${at}::timestamptz)`,
          ),
        );
      return row;
    },
  };
};

/**
 * The rows whose hash begins with `lookup`, whoever owns them: the one read of this table that is not a trader's own,
 * since a visitor has no session to say whose link it is. Only the id, the owner and the hash are read, on the owner
 * connection; everything the page shows is then read as that owner alone (withUser), after the whole hash matched.
 */
export async function findByLookup(database: Database, lookup: string): Promise<Array<{ id: string; userId: string; tokenHash: string }>> {
  return database.db
    .select({ id: shareLinks.id, userId: shareLinks.userId, tokenHash: shareLinks.tokenHash })
    .from(shareLinks)
    .where(eq(shareLinks.tokenLookup, lookup))
    .limit(4);
}
