import { and, asc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { placeholder, preparedSelects } from '../../db/prepared';
import { riskDefaults } from '../../db/schema';

export type RiskDefaultRow = typeof riskDefaults.$inferSelect;

const listStatement = preparedSelects<RiskDefaultRow>('risk_defaults_list');

const listQuery = (tx: Tx, userId: string) =>
  tx
    .select()
    .from(riskDefaults)
    .where(eq(riskDefaults.userId, userId))
    .orderBy(sql`${riskDefaults.accountId} is null`, sql`${riskDefaults.root} is null`, asc(riskDefaults.root), asc(riskDefaults.createdAt));

/** Data access for the trader's default risk (issue 27). Every query names its owner; row-level security backs it up. */
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
        .where(and(owner, accountId === null ? isNull(riskDefaults.accountId) : eq(riskDefaults.accountId, accountId), root === null ? isNull(riskDefaults.root) : eq(riskDefaults.root, root)));
      return row;
    },

    async remove(id: string): Promise<boolean> {
      const removed = await tx.delete(riskDefaults).where(and(owner, eq(riskDefaults.id, id))).returning({ id: riskDefaults.id });
      return removed.length > 0;
    },
  };
};
