import { and, asc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { placeholder, preparedSelects } from '../../db/prepared';
import { riskDefaults, userTradePreferences } from '../../db/schema';
import { toCents } from '../../../domain/money';
import type { RiskDefault } from '../../../domain/risk';

export type RiskDefaultRow = typeof riskDefaults.$inferSelect;

const listStatement = preparedSelects<RiskDefaultRow>('risk_defaults_list');

const listQuery = (tx: Tx, userId: string) =>
  tx
    .select()
    .from(riskDefaults)
    .where(eq(riskDefaults.userId, userId))
    .orderBy(sql`${riskDefaults.accountId} is null`, sql`${riskDefaults.root} is null`, asc(riskDefaults.root), asc(riskDefaults.createdAt));

/** Data access for the trader's default risk. Every query names its owner; row-level security backs it up. */
export const riskRepo = (tx: Tx, userId: string) => {
  const owner = eq(riskDefaults.userId, userId);
  return {
    /** Most specific first: an account's before every account's, a root's before any instrument's. */
    // Read with every Trade Log page and trade (their R): a prepared statement (db/prepared.ts).
    list: (): Promise<RiskDefaultRow[]> =>
      listStatement(tx, 'all', () => ({ query: listQuery(tx, placeholder('user')), fields: getTableColumns(riskDefaults) }), { user: userId }),

    /** The default of one account (null: every account) and root (null: any), made or replaced. */
    async put(values: { accountId: string | null; root: string | null; stopPoints: string | null; riskAmount: string | null }) {
      const [row] = await tx
        .insert(riskDefaults)
        .values({ ...values, userId })
        .onConflictDoUpdate({
          target: [riskDefaults.userId, riskDefaults.accountId, riskDefaults.root],
          set: { stopPoints: values.stopPoints, riskAmount: values.riskAmount, updatedAt: sql`now()` },
        })
        .returning();
      return row!;
    },

    async find(accountId: string | null, root: string | null) {
      const [row] = await tx
        .select()
        .from(riskDefaults)
        .where(
          and(
            owner,
            accountId === null ? isNull(riskDefaults.accountId) : eq(riskDefaults.accountId, accountId),
            root === null ? isNull(riskDefaults.root) : eq(riskDefaults.root, root),
          ),
        );
      return row;
    },

    async remove(id: string): Promise<boolean> {
      const removed = await tx
        .delete(riskDefaults)
        .where(and(owner, eq(riskDefaults.id, id)))
        .returning({ id: riskDefaults.id });
      return removed.length > 0;
    },
  };
};

/** The domain's shape of a stored default (src/domain/risk), for pricing trades' planned risk. */
export function toRiskDefault(row: RiskDefaultRow): RiskDefault {
  return {
    id: row.id,
    accountId: row.accountId,
    root: row.root,
    stopPoints: row.stopPoints,
    amountCents: row.riskAmount === null ? null : toCents(row.riskAmount),
  };
}

/** The trader's defaults, in the same transaction as the trades they price. */
export async function loadRiskDefaults(tx: Tx, userId: string): Promise<RiskDefault[]> {
  return (await riskRepo(tx, userId).list()).map(toRiskDefault);
}

/**
 * The tags a trader marks as mistakes, kept as their trade preferences of type 'mistake' (owned, under the owner
 * policy, like their types, sessions and tags; the options' reader ignores the type).
 */
export const MISTAKE_PREFERENCE = 'mistake';

export async function loadMistakeTags(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ value: userTradePreferences.preferenceValue })
    .from(userTradePreferences)
    .where(and(eq(userTradePreferences.userId, userId), eq(userTradePreferences.preferenceType, MISTAKE_PREFERENCE)))
    .orderBy(asc(userTradePreferences.createdAt), asc(userTradePreferences.preferenceValue));
  return rows.map((r) => r.value);
}
