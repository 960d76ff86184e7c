import { and, asc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { mistakeTagsInput, type MistakeTags } from '../../../contract/risk';
import type { Database, Tx } from '../../db/client';
import { userTradePreferences } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson } from '../../http/validate';

/**
 * The tags a trader marks as mistakes (issue 27, point 5), kept as their trade preferences of type 'mistake' (owned,
 * under the owner policy, like their types, sessions and tags; the options' reader ignores the type).
 */
const MISTAKE = 'mistake';

export async function loadMistakeTags(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ value: userTradePreferences.preferenceValue })
    .from(userTradePreferences)
    .where(and(eq(userTradePreferences.userId, userId), eq(userTradePreferences.preferenceType, MISTAKE)))
    .orderBy(asc(userTradePreferences.createdAt), asc(userTradePreferences.preferenceValue));
  return rows.map((r) => r.value);
}

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
    await tx.delete(userTradePreferences).where(and(eq(userTradePreferences.userId, userId), eq(userTradePreferences.preferenceType, MISTAKE)));
    const base = Date.now();
    if (unique.length > 0) {
      // Creation times in the list's order: the list reads back as it was sent.
      await tx.insert(userTradePreferences).values(unique.map((value, i) => ({ userId, preferenceType: MISTAKE, preferenceValue: value, createdAt: new Date(base + i).toISOString() })));
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
