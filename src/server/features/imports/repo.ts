import { and, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { yieldConnection, type BatchSizes, type Tx } from '../../db/client';
import type { ColumnMapping } from '../../../domain/importers';
import { importAccountLinks, importColumnMappings, trades } from '../../db/schema';

/**
 * What the imports feature reads and remembers besides the trades (which the trades write module writes): the import
 * keys an account already holds, and the mappings and account links remembered from earlier files.
 */
export const importsRepo = (tx: Tx, userId: string) => ({
  /**
   * The subset of `keys` that trades of this account already carry (the duplicates a confirm would skip). The keys go
   * as one text[] parameter per chunk rather than one bind parameter each. Not `in (select
   * jsonb_array_elements_text(..))`:
   * right after a large import, before autovacuum has analysed the table, PostgreSQL planned that as a nested loop
   * over every stored trade times every key (124 s for 36,000 keys); `= any(array constant)` is an index probe per key
   * or one hashed lookup per row, whatever the statistics say.
   */
  async existingKeys(accountId: string, keys: string[], batch: BatchSizes): Promise<Set<string>> {
    const found = new Set<string>();
    // `batch.keys` a statement (Database.batch); between statements other requests get their turn.
    const size = batch.keys;
    for (let i = 0; i < keys.length; i += size) {
      if (i > 0) await yieldConnection(tx);
      const chunk = keys.slice(i, i + size);
      const rows = await tx
        .select({ key: trades.importKey })
        .from(trades)
        .where(and(eq(trades.userId, userId), eq(trades.accountId, accountId), sql`${trades.importKey} = any(${sql.param(chunk)}::text[])`));
      for (const row of rows) if (row.key) found.add(row.key);
    }
    return found;
  },

  /**
   * Round trips the account holds with an entry time in [from, to] (and their keys), for the duplicate check against
   * another export of the same account. The trade-date condition lets the list index find them.
   */
  async roundTripsBetween(accountId: string, from: number, to: number) {
    const day = 86_400_000;
    return tx
      .select({
        id: trades.id,
        // Whether the stored trade keeps its fills: a re-import adds them to one that does not.
        hasFills: sql<boolean>`exists (select 1 from trade_fills f where f.user_id = ${userId} and f.trade_id = ${trades.id})`,
        importKey: trades.importKey,
        importSource: trades.importSource,
        contract: trades.contract,
        side: trades.side,
        quantity: trades.quantity,
        entryPrice: trades.entryPrice,
        exitPrice: trades.exitPrice,
        entryTime: trades.entryTime,
        exitTime: trades.exitTime,
      })
      .from(trades)
      .where(
        and(
          eq(trades.userId, userId),
          eq(trades.accountId, accountId),
          gte(trades.tradeDate, new Date(from - 4 * day).toISOString()),
          lte(trades.tradeDate, new Date(to + 4 * day).toISOString()),
          isNotNull(trades.entryTime),
          gte(trades.entryTime, new Date(from - 60_000).toISOString()),
          lte(trades.entryTime, new Date(to + 60_000).toISOString()),
        ),
      );
  },

  /** The column mapping remembered for a header row. */
  async mappingFor(headerKey: string): Promise<ColumnMapping | null> {
    const [row] = await tx
      .select({ mapping: importColumnMappings.mapping })
      .from(importColumnMappings)
      .where(and(eq(importColumnMappings.userId, userId), eq(importColumnMappings.headerKey, headerKey)));
    return (row?.mapping as ColumnMapping | undefined) ?? null;
  },

  async rememberMapping(headerKey: string, mapping: ColumnMapping) {
    await tx
      .insert(importColumnMappings)
      .values({ userId, headerKey, mapping })
      .onConflictDoUpdate({
        target: [importColumnMappings.userId, importColumnMappings.headerKey],
        set: { mapping, updatedAt: sql`now()` },
      });
  },

  /** Remembered trading accounts for accounts named in import files. */
  async links(fileAccounts: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (fileAccounts.length === 0) return found;
    const rows = await tx
      .select({ fileAccount: importAccountLinks.fileAccount, accountId: importAccountLinks.accountId })
      .from(importAccountLinks)
      .where(and(eq(importAccountLinks.userId, userId), inArray(importAccountLinks.fileAccount, fileAccounts)));
    for (const row of rows) found.set(row.fileAccount, row.accountId);
    return found;
  },

  async remember(links: Array<{ fileAccount: string; accountId: string }>) {
    if (links.length === 0) return;
    await tx
      .insert(importAccountLinks)
      .values(links.map((link) => ({ ...link, userId })))
      .onConflictDoUpdate({
        target: [importAccountLinks.userId, importAccountLinks.fileAccount],
        set: { accountId: sql`excluded.account_id`, updatedAt: sql`now()` },
      });
  },
});
