import { Hono } from 'hono';
import { eq, sql } from 'drizzle-orm';
import { preferencesPatch, type Preferences, type PreferencesUpdate } from '../../../contract/preferences';
import type { TradingDayRule } from '../../../domain/market-time';
import type { Database, Tx } from '../../db/client';
import { userPreferences } from '../../db/schema';
import type { AppDeps, AppEnv } from '../../http/context';
import { readJson } from '../../http/validate';
import { refileImportedTrades } from '../imports/trading-day';

function toDto(row: typeof userPreferences.$inferSelect): Preferences {
  return {
    theme: row.theme as Preferences['theme'],
    time_zone: row.timeZone,
    widgets: row.widgets,
    layout: row.layout,
    stats_widgets_order: row.statsWidgetsOrder,
    quick_note: row.quickNote,
    trading_day: row.tradingDay as TradingDayRule,
    onboarded: row.onboardedAt !== null,
  };
}

/** Reads the trader's preferences, creating the row with the defaults on first use. */
export function getPreferences(database: Database, userId: string) {
  return database.withUser(userId, (tx) => preferencesIn(tx, userId));
}

/** The trader's preferences (created with their defaults on first use), inside a transaction the caller has open. */
export async function preferencesIn(tx: Tx, userId: string) {
  const read = () => tx.select().from(userPreferences).where(eq(userPreferences.userId, userId));
  // Read first: most requests need the zone of a trader whose row exists, and an insert attempt on every read
  // was a write per request under load (issue 13 point 7).
  const [row] = await read();
  if (row) return row;
  await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
  return (await read())[0]!;
}

export function preferenceRoutes({ database }: AppDeps) {
  return new Hono<AppEnv>()
    .get('/', async (c) => c.json(toDto(await getPreferences(database, c.var.user.id))))
    .patch('/', async (c) => {
      const patch = await readJson(c, preferencesPatch);
      const userId = c.var.user.id;
      const row = await database.withUser(userId, async (tx) => {
        await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
        // Locked, so two changes of the trading day at once re-file from the rule each of them saw.
        const [before] = await tx.select().from(userPreferences).where(eq(userPreferences.userId, userId)).for('update');
        const [updated] = await tx
          .update(userPreferences)
          .set({
            ...(patch.theme !== undefined && { theme: patch.theme }),
            ...(patch.time_zone !== undefined && { timeZone: patch.time_zone }),
            ...(patch.widgets !== undefined && { widgets: patch.widgets }),
            ...(patch.layout !== undefined && { layout: patch.layout }),
            ...(patch.stats_widgets_order !== undefined && { statsWidgetsOrder: patch.stats_widgets_order }),
            ...(patch.quick_note !== undefined && { quickNote: patch.quick_note }),
            ...(patch.trading_day !== undefined && { tradingDay: patch.trading_day }),
            updatedAt: sql`now()`,
          })
          .where(eq(userPreferences.userId, userId))
          .returning();
        const refiled = patch.trading_day !== undefined
          ? await refileImportedTrades(tx, userId, before!.tradingDay as TradingDayRule, patch.trading_day)
          : 0;
        return { ...toDto(updated!), refiled_trades: refiled } satisfies PreferencesUpdate;
      });
      return c.json(row);
    });
}
