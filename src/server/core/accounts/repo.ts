import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { propLedgerEntries, trades, tradingAccounts } from '../../db/schema';

/** The columns a trader writes besides the name and the default flag. */
export interface AccountValues {
  description: string | null;
  kind: 'personal' | 'evaluation' | 'funded';
  size: string | null;
  startingBalance: string;
  firm: string | null;
  /** What its money is counted in (USD unless set). */
  currency?: 'USD' | 'USDT' | 'USDC';
}

/** Data access for trading accounts. Every query names its owner; row-level security backs it up. */
export const accountsRepo = (tx: Tx, userId: string) => ({
  list: () =>
    tx
      .select()
      .from(tradingAccounts)
      .where(eq(tradingAccounts.userId, userId))
      // Default first, then by name as a trader reads it ('alpha' before 'Bravo'; the databases'
      // byte order would put every capitalised name first). The exact name and the id keep the order total.
      .orderBy(desc(tradingAccounts.isDefault), sql`lower(${tradingAccounts.name})`, asc(tradingAccounts.name), asc(tradingAccounts.id)),

  find: async (id: string) =>
    (
      await tx
        .select()
        .from(tradingAccounts)
        .where(and(eq(tradingAccounts.userId, userId), eq(tradingAccounts.id, id)))
    )[0],

  /**
   * Whether the caller owns the account, holding a key-share lock on it until the transaction ends, so a delete of the
   * account racing this write waits for it (and then refuses: the account has trades) or wins first (and this finds no
   * account: a 400, not a foreign-key error).
   */
  exists: async (id: string): Promise<boolean> =>
    (
      await tx
        .select({ id: tradingAccounts.id })
        .from(tradingAccounts)
        .where(and(eq(tradingAccounts.userId, userId), eq(tradingAccounts.id, id)))
        .for('key share')
    ).length > 0,

  /**
   * The account row locked for its deletion. A trade filed into the account at the same moment holds a key-share
   * lock on it (`exists` above and the foreign key), so the delete waits and then sees that trade, or the
   * filing waits and then finds the account gone; without the lock the loser was a foreign-key error (a 500).
   */
  lockForDelete: async (id: string) =>
    (
      await tx
        .select({ id: tradingAccounts.id })
        .from(tradingAccounts)
        .where(and(eq(tradingAccounts.userId, userId), eq(tradingAccounts.id, id)))
        .for('update')
    )[0],

  insert: async (values: AccountValues & { name: string; isDefault: boolean }) =>
    (
      await tx
        .insert(tradingAccounts)
        .values({ ...values, userId })
        .returning()
    )[0]!,

  update: async (id: string, values: Partial<AccountValues & { name: string; isDefault: boolean }>) =>
    (
      await tx
        .update(tradingAccounts)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(tradingAccounts.userId, userId), eq(tradingAccounts.id, id)))
        .returning()
    )[0],

  /** The zone an import into these accounts was read in: the default of their next import. */
  rememberImportTimeZone: (ids: string[], timeZone: string) =>
    tx
      .update(tradingAccounts)
      .set({ importTimeZone: timeZone })
      .where(and(eq(tradingAccounts.userId, userId), inArray(tradingAccounts.id, [...new Set(ids)]))),

  clearDefault: () =>
    tx
      .update(tradingAccounts)
      .set({ isDefault: false, updatedAt: sql`now()` })
      .where(and(eq(tradingAccounts.userId, userId), eq(tradingAccounts.isDefault, true))),

  remove: (id: string) => tx.delete(tradingAccounts).where(and(eq(tradingAccounts.userId, userId), eq(tradingAccounts.id, id))),

  /** The prop ledger's entries of the account follow its firm (they keep it if the account is deleted). */
  setLedgerFirm: (id: string, firm: string | null) =>
    tx
      .update(propLedgerEntries)
      .set({ firm: firm ?? '', updatedAt: sql`now()` })
      .where(and(eq(propLedgerEntries.userId, userId), eq(propLedgerEntries.accountId, id))),

  hasTrades: async (id: string) =>
    (
      await tx
        .select({ one: sql<number>`1` })
        .from(trades)
        .where(and(eq(trades.userId, userId), eq(trades.accountId, id)))
        .limit(1)
    ).length > 0,
});
