import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { PropTrade } from '../../../domain/prop';
import type { Tx } from '../../db/client';
import { propLedgerEntries, propRuleSets, tradingAccounts } from '../../db/schema';

export interface PropAccountRow {
  id: string;
  name: string;
  kind: string;
  size: string | null;
  startingBalance: string;
  firm: string | null;
  tradesVersion: number;
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

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

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
        tradesVersion: tradingAccounts.tradesVersion,
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
      tradesVersion: Number(r.tradesVersion),
      ruleSet:
        r.rules === null
          ? null
          : { templateId: r.templateId, rules: r.rules, startsOn: r.startsOn, active: r.active ?? true, updatedAt: r.ruleSetUpdatedAt! },
    }));
  },

  /**
   * The account's closed trades as the rules read them: the one place the prop features read an account's trades.
   * In the trading order (the evaluation puts them in the order their P&L was realized, which starts from it at little
   * cost). `from`: the first trading day counted (a reset), null for all of them. With `fills`, each trade's fills in
   * time order (a position limit reads them; a trade without fills held its quantity from entry to exit).
   *
   * Only the columns the rules read (the contract, for micros, where the trade has one), in ONE row of JSON: PGlite
   * returned 5,000 rows of 7 columns in ~55 ms of CPU, their JSON array in ~18 ms.
   */
  trades: async (accountId: string, from: string | null, options: { fills: boolean }): Promise<PropTrade[]> => {
    const fills = options.fills
      ? sql`(select json_agg(json_build_array(extract(epoch from f.time), f.side, f.quantity::float8) order by f.time, f.seq)
          from trade_fills f where f.user_id = t.user_id and f.trade_id = t.id)`
      : sql`null::json`;
    const result = await tx.execute(sql`
      select coalesce(json_agg(json_build_array(t.id, extract(epoch from t.trade_date), extract(epoch from t.entry_time),
          extract(epoch from t.exit_time), (t.pnl * 100)::bigint, coalesce(nullif(t.contract, ''), t.symbol), t.quantity::float8,
          extract(epoch from t.created_at), t.side, ${fills})
        order by t.trade_date, t.ordering_entry_time, t.ordering_exit_time, t.created_at, t.id), '[]')::text as trades
      from trades t
      where t.user_id = ${userId} and t.account_id = ${accountId}
        ${from === null ? sql`` : sql`and t.trade_date >= ${from}::date::timestamp at time zone 'UTC'`}`);
    const rows = JSON.parse(rowsOf<{ trades: string }>(result)[0]!.trades) as Array<
      [string, number, number | null, number | null, number, string | null, number | null, number, string | null, Array<[number, string, number]> | null]
    >;
    const iso = (seconds: number | null) => (seconds === null ? null : new Date(Math.round(seconds * 1000)).toISOString());
    return rows.map(([id, day, entry, exit, netCents, symbol, quantity, created, side, tradeFills]) => ({
      id,
      // trade_date is the trading day at 12:00 UTC.
      day: iso(day)!.slice(0, 10),
      entryAt: iso(entry),
      exitAt: iso(exit),
      createdAt: iso(created),
      netCents,
      symbol: symbol === 'Unknown' ? null : symbol,
      quantity,
      side: side === 'Long' || side === 'Short' ? side : null,
      fills: tradeFills?.map(([at, fillSide, qty]) => ({ at: iso(at)!, side: fillSide === 'Sell' ? ('Sell' as const) : ('Buy' as const), quantity: qty })) ?? null,
    }));
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
    (await tx.delete(propRuleSets).where(and(eq(propRuleSets.userId, userId), eq(propRuleSets.accountId, accountId))).returning({ id: propRuleSets.id }))
      .length > 0,

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
    (await tx.insert(propLedgerEntries).values({ userId, ...values }).returning({ id: propLedgerEntries.id }))[0]!.id,

  updateLedger: async (id: string, values: Partial<{ kind: string; amount: string; occurredOn: string; note: string }>) =>
    (
      await tx
        .update(propLedgerEntries)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(eq(propLedgerEntries.userId, userId), eq(propLedgerEntries.id, id)))
        .returning({ id: propLedgerEntries.id })
    ).length > 0,

  deleteLedger: async (id: string) =>
    (await tx.delete(propLedgerEntries).where(and(eq(propLedgerEntries.userId, userId), eq(propLedgerEntries.id, id))).returning({ id: propLedgerEntries.id }))
      .length > 0,
});
