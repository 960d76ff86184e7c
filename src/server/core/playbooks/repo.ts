import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { playbookRules, playbooks, tradeReflections, tradeRuleChecks, trades } from '../../db/schema';

export type PlaybookRow = typeof playbooks.$inferSelect & { trades: number };
export type RuleRow = typeof playbookRules.$inferSelect;

/**
 * Data access for playbooks, their rules and trades' ticks. Every query names its owner; RLS backs it up. A trade's
 * playbook and ticks are written by the trades write module (core/trades/write.ts), which logs them as changes.
 */
export const playbooksRepo = (tx: Tx, userId: string) => {
  const owner = eq(playbooks.userId, userId);
  // Written out: inside a select drizzle leaves columns unqualified, and "id" would be the trade's.
  const tradeCount = sql<number>`(select count(*)::int from trades t where t.user_id = ${userId} and t.playbook_id = "playbooks"."id")`;
  return {
    list: (id?: string): Promise<PlaybookRow[]> =>
      tx
        .select({ ...getTableColumns(playbooks), trades: tradeCount })
        .from(playbooks)
        .where(id === undefined ? owner : and(owner, eq(playbooks.id, id)))
        .orderBy(sql`lower(${playbooks.name})`, asc(playbooks.createdAt)),

    /** One playbook without its count of trades (its report counts them in the reports' copy of the trades). */
    find: (id: string) =>
      tx
        .select()
        .from(playbooks)
        .where(and(owner, eq(playbooks.id, id))),

    /** Ids and names only, by name: what a report of every playbook needs (no count of trades over the table). */
    names: () =>
      tx
        .select({ id: playbooks.id, name: playbooks.name })
        .from(playbooks)
        .where(owner)
        .orderBy(sql`lower(${playbooks.name})`, asc(playbooks.createdAt)),

    /** Rules of the given playbooks (all of the trader's without), in their order. */
    rules: (playbookIds?: readonly string[]): Promise<RuleRow[]> =>
      tx
        .select()
        .from(playbookRules)
        .where(and(eq(playbookRules.userId, userId), playbookIds === undefined ? undefined : inArray(playbookRules.playbookId, [...playbookIds])))
        .orderBy(asc(playbookRules.playbookId), asc(playbookRules.position)),

    nameTaken: async (name: string, exceptId: string | null) => {
      const rows = await tx
        .select({ id: playbooks.id })
        .from(playbooks)
        .where(and(owner, sql`lower(${playbooks.name}) = lower(${name})`, exceptId === null ? undefined : sql`${playbooks.id} <> ${exceptId}`));
      return rows.length > 0;
    },

    insert: async (values: { name: string; description: string; entryCriteria: string }) => {
      const [row] = await tx
        .insert(playbooks)
        .values({ ...values, userId })
        .returning({ id: playbooks.id });
      return row!.id;
    },

    update: async (id: string, values: { name: string; description: string; entryCriteria: string }) => {
      const rows = await tx
        .update(playbooks)
        .set({ ...values, updatedAt: sql`now()` })
        .where(and(owner, eq(playbooks.id, id)))
        .returning({ id: playbooks.id });
      return rows.length > 0;
    },

    /** The rules as given, in order: kept ids keep their ticks, the others are made; rules left out go with their ticks. */
    async replaceRules(playbookId: string, rules: ReadonlyArray<{ id?: string; text: string }>) {
      const kept = rules.flatMap((r) => (r.id ? [r.id] : []));
      await tx
        .delete(playbookRules)
        .where(
          and(
            eq(playbookRules.userId, userId),
            eq(playbookRules.playbookId, playbookId),
            kept.length > 0 ? sql`${playbookRules.id} <> all(${`{${kept.join(',')}}`}::uuid[])` : undefined,
          ),
        );
      for (const [position, rule] of rules.entries()) {
        if (rule.id) {
          await tx
            .update(playbookRules)
            .set({ position, text: rule.text })
            .where(and(eq(playbookRules.userId, userId), eq(playbookRules.id, rule.id)));
        } else {
          await tx.insert(playbookRules).values({ userId, playbookId, position, text: rule.text });
        }
      }
    },

    /** The ids of the playbook's trades. */
    tradeIds: async (playbookId: string): Promise<string[]> =>
      (
        await tx
          .select({ id: trades.id })
          .from(trades)
          .where(and(eq(trades.userId, userId), eq(trades.playbookId, playbookId)))
      ).map((r) => r.id),

    /** Deletes the playbook (its trades keep none: the foreign key's SET NULL; its rules' ticks go by cascade). */
    remove: async (id: string): Promise<boolean> =>
      (
        await tx
          .delete(playbooks)
          .where(and(owner, eq(playbooks.id, id)))
          .returning({ id: playbooks.id })
      ).length > 0,

    /** The trade's playbook; undefined when the trader has no such trade. */
    async tradePlaybook(tradeId: string): Promise<{ playbookId: string | null } | undefined> {
      const [row] = await tx
        .select({ playbookId: trades.playbookId })
        .from(trades)
        .where(and(eq(trades.userId, userId), eq(trades.id, tradeId)));
      return row;
    },

    ticks: async (tradeId: string) =>
      (
        await tx
          .select({ ruleId: tradeRuleChecks.ruleId })
          .from(tradeRuleChecks)
          .innerJoin(playbookRules, and(eq(playbookRules.id, tradeRuleChecks.ruleId), eq(playbookRules.userId, userId)))
          .where(and(eq(tradeRuleChecks.userId, userId), eq(tradeRuleChecks.tradeId, tradeId)))
          .orderBy(asc(playbookRules.position))
      ).map((r) => r.ruleId),

    async setFollowedRules(tradeId: string, followedRules: boolean | null) {
      await tx
        .insert(tradeReflections)
        .values({ tradeId, userId, followedRules })
        .onConflictDoUpdate({ target: [tradeReflections.userId, tradeReflections.tradeId], set: { followedRules, updatedAt: sql`now()` } });
    },

    async followedRules(tradeId: string): Promise<boolean | null> {
      const [row] = await tx
        .select({ followedRules: tradeReflections.followedRules })
        .from(tradeReflections)
        .where(and(eq(tradeReflections.userId, userId), eq(tradeReflections.tradeId, tradeId)));
      return row?.followedRules ?? null;
    },

    /** Per trade of the playbook, how many of its rules it ticked. */
    async tickCounts(playbookId: string | null): Promise<Array<{ tradeId: string; playbookId: string; ticked: number }>> {
      const rows = await tx
        .select({
          tradeId: trades.id,
          playbookId: trades.playbookId,
          ticked: sql<number>`(select count(*)::int from trade_rule_checks c where c.user_id = ${userId} and c.trade_id = "trades"."id")`,
        })
        .from(trades)
        .where(and(eq(trades.userId, userId), playbookId === null ? sql`${trades.playbookId} is not null` : eq(trades.playbookId, playbookId)));
      return rows as Array<{ tradeId: string; playbookId: string; ticked: number }>;
    },
  };
};
