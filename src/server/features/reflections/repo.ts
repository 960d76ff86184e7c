import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { attachments, tradeReflections, trades } from '../../db/schema';
import { newestFirst } from '../../core/trades/order';
import type { AccountScope } from '../../core/trades/repo';

export interface ReflectionRow {
  id: string;
  tradeDate: string;
  symbol: string;
  period: string;
  tradeType: string;
  side: string | null;
  status: string;
  pnlCents: string;
  notes: string;
  link: string;
  tags: string[];
  createdAt: string;
  accountId: string | null;
  contract: string | null;
  quantity: string | null;
  entryPrice: string | null;
  stopPrice: string | null;
  riskCents: string | null;
  imageUrl: string | null;
  followedRules: boolean | null;
  overrideTags: string[] | null;
  description: string | null;
}

export type PlanRow = Pick<ReflectionRow, 'tradeDate' | 'symbol' | 'status' | 'pnlCents' | 'accountId' | 'contract' | 'quantity' | 'entryPrice' | 'stopPrice' | 'riskCents'>;

export interface OverrideValues {
  followedRules?: boolean | null;
  tags?: string[] | null;
  description?: string | null;
}

/** Data access for reflections: a period's trades with the trader's overrides. Every query names its owner. */
/** A trade's plan, which its R needs (issue 27). */
const planColumns = {
  contract: trades.contract,
  quantity: trades.quantity,
  entryPrice: trades.entryPrice,
  stopPrice: trades.stopPrice,
  riskCents: sql<string | null>`(${trades.riskAmount} * 100)::bigint::text`,
};

/** trade_date is the trading day at 12:00 UTC (spec part 2 §3), so a range of trading days is a timestamp range. */
const inDayRange = (from: string, to: string) =>
  and(sql`${trades.tradeDate} >= ${`${from}T00:00:00Z`}::timestamptz`, sql`${trades.tradeDate} <= ${`${to}T23:59:59Z`}::timestamptz`);

export const reflectionsRepo = (tx: Tx, userId: string) => {
  const owner = eq(trades.userId, userId);

  function accountScope(account: AccountScope): SQL | undefined {
    if (account === 'unassigned') return isNull(trades.accountId);
    if (account !== 'all') return eq(trades.accountId, account);
    return undefined;
  }

  return {
    /** The trades of a trading-day range in the trading order, newest first, with overrides and the first image. */
    async periodTrades(account: AccountScope, from: string, to: string, onlyIds?: string[]): Promise<ReflectionRow[]> {
      const rows = await tx
        .select({
          id: trades.id,
          tradeDate: trades.tradeDate,
          symbol: trades.symbol,
          period: trades.period,
          tradeType: trades.tradeType,
          side: trades.side,
          status: trades.status,
          pnlCents: sql<string>`(${trades.pnl} * 100)::bigint::text`,
          notes: trades.notes,
          link: trades.link,
          tags: trades.tags,
          createdAt: trades.createdAt,
          accountId: trades.accountId,
          // The trade's plan (issue 27): its R in the analysis.
          ...planColumns,
          imageUrl: sql<string | null>`(select ${attachments.url} from ${attachments} where ${attachments.userId} = ${userId} and ${attachments.tradeId} = ${trades.id} order by ${attachments.createdAt} limit 1)`,
          followedRules: tradeReflections.followedRules,
          overrideTags: tradeReflections.tags,
          description: tradeReflections.description,
        })
        .from(trades)
        .leftJoin(tradeReflections, and(eq(tradeReflections.tradeId, trades.id), eq(tradeReflections.userId, userId)))
        .where(
          and(
            owner,
            inDayRange(from, to),
            accountScope(account),
            onlyIds ? sql`${trades.id} = any(${`{${onlyIds.join(',')}}`}::uuid[])` : undefined,
          ),
        )
        .orderBy(...newestFirst());
      return rows as ReflectionRow[];
    },

    /** The trades of a trading-day range as the R sums need them (the previous periods of the analysis in R): P&L, result and plan. */
    async periodPlans(account: AccountScope, from: string, to: string): Promise<PlanRow[]> {
      const rows = await tx
        .select({
          tradeDate: trades.tradeDate,
          symbol: trades.symbol,
          status: trades.status,
          pnlCents: sql<string>`(${trades.pnl} * 100)::bigint::text`,
          accountId: trades.accountId,
          ...planColumns,
        })
        .from(trades)
        .where(
          and(
            owner,
            inDayRange(from, to),
            accountScope(account),
          ),
        );
      return rows as PlanRow[];
    },

    async tradeExists(tradeId: string): Promise<boolean> {
      const rows = await tx.select({ id: trades.id }).from(trades).where(and(owner, eq(trades.id, tradeId)));
      return rows.length > 0;
    },

    async upsertOverride(tradeId: string, values: OverrideValues) {
      const set = {
        ...(values.followedRules !== undefined && { followedRules: values.followedRules }),
        ...(values.tags !== undefined && { tags: values.tags }),
        ...(values.description !== undefined && { description: values.description }),
      };
      const [row] = await tx
        .insert(tradeReflections)
        .values({ tradeId, userId, ...set })
        .onConflictDoUpdate({ target: [tradeReflections.userId, tradeReflections.tradeId], set: { ...set, updatedAt: sql`now()` } })
        .returning();
      return row!;
    },
  };
};
