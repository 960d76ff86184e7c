import { Hono } from 'hono';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { onboardingInput, type OnboardingResult } from '../../../contract/config';
import { getTodayInZone } from '../../../domain/dates';
import { buildOnboardingTasks, buildSampleTrades } from '../../../domain/tasks';
import type { Database } from '../../db/client';
import { tasks, trades, userPreferences } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson } from '../../http/validate';
import { toRow } from '../../core/trades/trade-rows';
import { writeTrades } from '../../core/trades/write';

/**
 * A new trader (no trades) gets the sample trades for the current month and five onboarding tasks
 * dated today, exactly once. Whichever request first flips user_preferences.onboarded_at from null does the work,
 * in the same transaction; a concurrent sign-in waits on that row and then finds it set.
 */
export async function runOnboarding(database: Database, userId: string, now: Date, browserTimeZone?: string): Promise<OnboardingResult> {
  return writeTrades(database, userId, async (writer) => {
    const { tx } = writer;
    await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
    const [claimed] = await tx
      .update(userPreferences)
      // The trader's clock starts as their browser's, set once with the first sign-in's samples
      // (which are dated in it); Profile Settings changes it afterwards.
      .set({ onboardedAt: sql`now()`, ...(browserTimeZone && { timeZone: browserTimeZone }) })
      .where(
        and(
          eq(userPreferences.userId, userId),
          isNull(userPreferences.onboardedAt),
          sql`not exists (select 1 from ${trades} where ${trades.userId} = ${userId})`,
        ),
      )
      .returning({ timeZone: userPreferences.timeZone });
    if (!claimed) return { created: false };
    const samples = buildSampleTrades(now, claimed.timeZone);
    // A microsecond apart (the writer's creation times), the samples of one day keep the order they are written in.
    await writer.insert(samples.map((t) => ({ ...toRow(t), importSource: 'sample' })));
    const today = getTodayInZone(now, claimed.timeZone);
    await tx.insert(tasks).values(buildOnboardingTasks(today).map((t) => ({ ...t, userId })));
    return { created: true };
  });
}

export function onboardingRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>().post('/', async (c) => {
    // The body is optional: older pages (and scripts) post nothing.
    const input = (await c.req.text()) === '' ? {} : await readJson(c, onboardingInput);
    return c.json(await runOnboarding(database, c.var.user.id, new Date(), input.time_zone));
  });
}
