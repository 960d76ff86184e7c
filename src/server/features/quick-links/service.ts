import type { QuickLink, QuickLinkImport } from '../../../contract/quick-links';
import { DEFAULT_QUICK_LINKS, reorderPositions, type QuickLinkInput } from '../../../domain/links/quick-links';
import type { Database } from '../../db/client';
import { quickLinks } from '../../db/schema';
import { badRequest, notFound } from '../../http/errors';
import { quickLinksRepo } from './repo';

export function toQuickLinkDto(row: typeof quickLinks.$inferSelect): QuickLink {
  return {
    id: row.id,
    title: row.title,
    url: row.url,
    icon: row.icon,
    position: row.position,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/** Links positioned after the trader's last one, in the given order. */
async function appendLinks(repo: ReturnType<typeof quickLinksRepo>, links: readonly QuickLinkInput[]) {
  const last = await repo.maxPosition();
  return repo.insert(links.map((link, index) => ({ ...link, position: last + index + 1 })));
}

export const quickLinksService = {
  list: (db: Database, userId: string) => db.withUser(userId, async (tx) => (await quickLinksRepo(tx, userId).list()).map(toQuickLinkDto)),

  /** A new link's position defaults to the last plus 1. */
  create: (db: Database, userId: string, input: QuickLinkInput) =>
    db.withUser(userId, async (tx) => {
      const repo = quickLinksRepo(tx, userId);
      await repo.lock();
      const [row] = await appendLinks(repo, [input]);
      return toQuickLinkDto(row!);
    }),

  async update(db: Database, userId: string, id: string, patch: Partial<QuickLinkInput>) {
    const row = await db.withUser(userId, (tx) =>
      quickLinksRepo(tx, userId).update(id, {
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.url !== undefined && { url: patch.url }),
        ...(patch.icon !== undefined && { icon: patch.icon }),
      }),
    );
    if (!row) throw notFound('Quick link not found');
    return toQuickLinkDto(row);
  },

  async remove(db: Database, userId: string, id: string) {
    if (!(await db.withUser(userId, (tx) => quickLinksRepo(tx, userId).remove(id)))) throw notFound('Quick link not found');
  },

  /** Position = index + 1. Every id must be the trader's, or nothing changes. */
  reorder: (db: Database, userId: string, ids: string[]) =>
    db.withUser(userId, async (tx) => {
      const repo = quickLinksRepo(tx, userId);
      await repo.lock();
      if ((await repo.ownedCount(ids)) !== ids.length) throw badRequest('ids: Quick link not found');
      await repo.setPositions(reorderPositions(ids));
      return (await repo.list()).map(toQuickLinkDto);
    }),

  /**
   * Bulk import. With only_if_empty (the legacy browser list after sign-in) nothing is added when
   * the trader already has links, so two tabs signing in at once import the list once.
   */
  importLinks: (db: Database, userId: string, links: QuickLinkInput[], onlyIfEmpty: boolean): Promise<QuickLinkImport> =>
    db.withUser(userId, async (tx) => {
      const repo = quickLinksRepo(tx, userId);
      await repo.lock();
      if (onlyIfEmpty && (await repo.list()).length > 0) return { imported: 0, links: (await repo.list()).map(toQuickLinkDto) };
      const inserted = await appendLinks(repo, links);
      return { imported: inserted.length, links: (await repo.list()).map(toQuickLinkDto) };
    }),

  /** The default links the trader does not have yet (by address), after their own. */
  importDefaults: (db: Database, userId: string): Promise<QuickLinkImport> =>
    db.withUser(userId, async (tx) => {
      const repo = quickLinksRepo(tx, userId);
      await repo.lock();
      const have = new Set((await repo.list()).map((l) => l.url));
      const inserted = await appendLinks(
        repo,
        DEFAULT_QUICK_LINKS.filter((l) => !have.has(l.url)),
      );
      return { imported: inserted.length, links: (await repo.list()).map(toQuickLinkDto) };
    }),
};
