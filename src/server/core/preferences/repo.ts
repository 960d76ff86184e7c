import { eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client';
import { userPreferences } from '../../db/schema';

export type PreferencesRow = typeof userPreferences.$inferSelect;

/** What a change of the trader's preferences may set (the PATCH's fields, as columns). */
export type PreferencesValues = Partial<
  Pick<PreferencesRow, 'theme' | 'timeZone' | 'widgets' | 'layout' | 'statsWidgetsOrder' | 'quickNote' | 'tradingDay'>
>;

/** The trader's preferences. Every query names its owner; row-level security backs it up. */
export const preferencesRepo = (tx: Tx, userId: string) => ({
  /** The row, created with its defaults on first use. */
  async get(): Promise<PreferencesRow> {
    const read = () => tx.select().from(userPreferences).where(eq(userPreferences.userId, userId));
    // Read first: most requests need the zone of a trader whose row exists, and an insert attempt on every read was a
    // write per request under load.
    const [row] = await read();
    if (row) return row;
    await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
    return (await read())[0]!;
  },

  /** The row as it is now, locked until the transaction ends (created first when missing). */
  async lock(): Promise<PreferencesRow> {
    await tx.insert(userPreferences).values({ userId }).onConflictDoNothing();
    const [row] = await tx.select().from(userPreferences).where(eq(userPreferences.userId, userId)).for('update');
    return row!;
  },

  async update(values: PreferencesValues): Promise<PreferencesRow> {
    const [updated] = await tx
      .update(userPreferences)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(userPreferences.userId, userId))
      .returning();
    return updated!;
  },
});

/** The trader's preferences (created with their defaults on first use), inside a transaction the caller has open. */
export const preferencesIn = (tx: Tx, userId: string) => preferencesRepo(tx, userId).get();

/** The trader's preferences in a transaction of their own. */
export const getPreferences = (database: Database, userId: string) => database.withUser(userId, (tx) => preferencesIn(tx, userId));
