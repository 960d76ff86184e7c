import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { mistakeTagsInput, type MistakeTags } from '../../../contract/risk';
import type { Database } from '../../db/client';
import { lockFor } from '../../db/advisory-lock';
import { userTradePreferences } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson } from '../../http/validate';
import { loadMistakeTags, MISTAKE_PREFERENCE } from '../../core/risk/repo';

/** The list replaced as a whole, in one transaction: 'FOMO' and 'fomo' are one mistake, the first kept. */
async function saveMistakeTags(database: Database, userId: string, tags: readonly string[]): Promise<MistakeTags> {
  const seen = new Set<string>();
  const unique = tags.filter((tag) => {
    const k = tag.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return database.withUser(userId, async (tx) => {
    // Two lists sent at once must not merge: each delete sees only rows committed before it began, so the later one
    // kept the earlier one's new rows beside its own. One replacement at a time per trader; the later one wins whole.
    await lockFor(tx, 'mistake_tags', userId);
    await tx
      .delete(userTradePreferences)
      .where(and(eq(userTradePreferences.userId, userId), eq(userTradePreferences.preferenceType, MISTAKE_PREFERENCE)));
    const base = Date.now();
    if (unique.length > 0) {
      // Creation times in the list's order: the list reads back as it was sent.
      await tx.insert(userTradePreferences).values(
        unique.map((value, i) => ({
          userId,
          preferenceType: MISTAKE_PREFERENCE,
          preferenceValue: value,
          createdAt: new Date(base + i).toISOString(),
        })),
      );
    }
    return { tags: await loadMistakeTags(tx, userId) };
  });
}

/** /api/mistake-tags */
export function mistakeTagRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json({ tags: await database.withUser(c.var.user.id, (tx) => loadMistakeTags(tx, c.var.user.id)) } satisfies MistakeTags))
    .put('/', async (c) => c.json(await saveMistakeTags(database, c.var.user.id, (await readJson(c, mistakeTagsInput)).tags)));
}
