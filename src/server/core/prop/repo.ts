import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { PropFill } from '../../../domain/prop';
import { queryRows, type Tx } from '../../db/client';
import { propLedgerEntries, propRuleSets, tradingAccounts } from '../../db/schema';

export interface PropAccountRow {
  id: string;
  name: string;
  kind: string;
  size: string | null;
  startingBalance: string;
  firm: string | null;
  /** USD, or an exchange account's USDT or USDC: what every amount of its status is written in. */
  currency: string;
  ruleSet: {
    templateId: string | null;
    rules: unknown;
    startsOn: string | null;
    active: boolean;
    updatedAt: string;
  } | null;
}

export interface LedgerRow {
  id: string;
  accountId: string | null;
  accountName: string | null;
  firm: string;
  kind: string;
  amount: string;
  occurredOn: string;
  note: string;
  createdAt: string;
}

/**
 * Data access of the prop-firm features. Every query names its owner; row-level security backs it up.
 */
export const propRepo = (tx: Tx, userId: string) => ({
  /** The trader's accounts with their rule sets, in the accounts panel's order (default first, then by name). */
  accounts: async (accountId?: string): Promise<PropAccountRow[]> => {
    const rows = await tx
      .select({
        id: tradingAccounts.id,
        name: tradingAccounts.name,
        kind: tradingAccounts.kind,
        size: tradingAccounts.size,
        startingBalance: tradingAccounts.startingBalance,
        firm: tradingAccounts.firm,
        currency: tradingAccounts.currency,
        templateId: propRuleSets.templateId,
        rules: propRuleSets.rules,
        startsOn: propRuleSets.startsOn,
        active: propRuleSets.active,
        ruleSetUpdatedAt: propRuleSets.updatedAt,
      })
      .from(tradingAccounts)
      .leftJoin(propRuleSets, and(eq(propRuleSets.accountId, tradingAccounts.id), eq(propRuleSets.userId, userId)))
      .where(and(eq(tradingAccounts.userId, userId), accountId === undefined ? undefined : eq(tradingAccounts.id, accountId)))
      .orderBy(desc(tradingAccounts.isDefault), sql`lower(${tradingAccounts.name})`, asc(tradingAccounts.name), asc(tradingAccounts.id));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind,
      size: r.size,
      startingBalance: r.startingBalance,
      firm: r.firm,
      currency: r.currency,
      ruleSet:
        r.rules === null
          ? null
          : { templateId: r.templateId, rules: r.rules, startsOn: r.startsOn, active: r.active ?? true, updatedAt: r.ruleSetUpdatedAt! },
    }));
  },

  /** The fills of these trades, in the order they happened, by trade: what the position rule reads. */
  fills: async (tradeIds: readonly string[]): Promise<Map<string, PropFill[]>> => {
    const byTrade = new Map<string, PropFill[]>();
    if (tradeIds.length === 0) return byTrade;
    const rows = await queryRows<{ trade_id: string; at: string; side: string; quantity: number }>(
      tx,
      sql`select f.trade_id, f.time as at, f.side, f.quantity::float8 as quantity from trade_fills f
          where f.user_id = ${userId} and f.trade_id = any(${`{${tradeIds.join(',')}}`}::uuid[])
          order by f.trade_id, f.time, f.seq`,
    );
    for (const row of rows) {
      let list = byTrade.get(row.trade_id);
      if (!list) byTrade.set(row.trade_id, (list = []));
      list.push({ at: new Date(row.at).toISOString(), side: row.side === 'Sell' ? 'Sell' : 'Buy', quantity: Number(row.quantity) });
    }
    return byTrade;
  },

  upsertRuleSet: async (accountId: string, values: { templateId: string | null; rules: unknown; startsOn: string | null; active: boolean }) =>
    (
      await tx
        .insert(propRuleSets)
        .values({ userId, accountId, ...values })
        .onConflictDoUpdate({ target: [propRuleSets.userId, propRuleSets.accountId], set: { ...values, updatedAt: sql`now()` } })
        .returning()
    )[0]!,

  deleteRuleSet: async (accountId: string) =>
    (
      await tx
        .delete(propRuleSets)
        .where(and(eq(propRuleSets.userId, userId), eq(propRuleSets.accountId, accountId)))
        .returning({ id: propRuleSets.id })
    ).length > 0,

  /** Ledger entries, newest first; of one account, or all of the trader's (deleted accounts' too). */
  ledger: async (accountId?: string): Promise<LedgerRow[]> =>
    tx
      .select({
        id: propLedgerEntries.id,
        accountId: propLedgerEntries.accountId,
        accountName: tradingAccounts.name,
        firm: propLedgerEntries.firm,
        kind: propLedgerEntries.kind,
        amount: propLedgerEntries.amount,
        occurredOn: propLedgerEntries.occurredOn,
        note: propLedgerEntries.note,
        createdAt: propLedgerEntries.createdAt,
      })
      .from(propLedgerEntries)
      .leftJoin(tradingAccounts, and(eq(tradingAccounts.id, propLedgerEntries.accountId), eq(tradingAccounts.userId, userId)))
      .where(and(eq(propLedgerEntries.userId, userId), accountId === undefined ? undefined : eq(propLedgerEntries.accountId, accountId)))
      .orderBy(desc(propLedgerEntries.occurredOn), desc(propLedgerEntries.createdAt), desc(propLedgerEntries.id)),

  insertLedger: async (values: { accountId: string; firm: string; kind: string; amount: string; occurredOn: string; note: string }) =>
    (
      await tx
        .insert(propLedgerEntries)
        .values({ userId, ...values })
        .returning({ id: propLedgerEntries.id })
    )[0]!.id,

  updateLedger: async (id: string, values: Partial<{ kind: string; amount: string; occurredOn: string; note: string }>) =>
    (
      await tx
        .update(propLedgerEntries)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(propLedgerEntries.userId, userId), eq(propLedgerEntries.id, id)))
        .returning({ id: propLedgerEntries.id })
    ).length > 0,

  deleteLedger: async (id: string) =>
    (
      await tx
        .delete(propLedgerEntries)
        .where(and(eq(propLedgerEntries.userId, userId), eq(propLedgerEntries.id, id)))
        .returning({ id: propLedgerEntries.id })
    ).length > 0,
});
