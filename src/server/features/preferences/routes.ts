import { Hono } from 'hono';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { userPreferences } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson } from '../../http/validate';

const isTimeZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

const preferencesPatch = z
  .object({
    theme: z.enum(['dark', 'light']).optional(),
    time_zone: z.string().refine(isTimeZone, 'time_zone must be an IANA time zone such as America/New_York').optional(),
  })
  .strict();

function toDto(row: typeof userPreferences.$inferSelect) {
  return { theme: row.theme, time_zone: row.timeZone };
}

/** Reads the trader's preferences, creating the row with the defaults on first use. */
export function getPreferences(database: Database, userId: string) {
  return database.withUser(userId, async (tx) => {
    await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
    const [row] = await tx.select().from(userPreferences).where(eq(userPreferences.userId, userId));
    return row!;
  });
}

export function preferenceRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(toDto(await getPreferences(database, c.var.user.id))))
    .patch('/', async (c) => {
      const patch = await readJson(c, preferencesPatch);
      const userId = c.var.user.id;
      const row = await database.withUser(userId, async (tx) => {
        await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
        const [updated] = await tx
          .update(userPreferences)
          .set({
            ...(patch.theme && { theme: patch.theme }),
            ...(patch.time_zone && { timeZone: patch.time_zone }),
            updatedAt: sql`now()`,
          })
          .where(eq(userPreferences.userId, userId))
          .returning();
        return updated!;
      });
      return c.json(toDto(row));
    });
}
