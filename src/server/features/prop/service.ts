import type { z } from 'zod';
import type { Ledger, LedgerEntry, PropAccountDetail, PropStatusBody } from '../../../contract/prop';
import { propTemplateFile, TIMELINE_LIMIT, type ledgerInput, type ledgerPatch, type ruleSetInput } from '../../../contract/prop';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { findPropTemplate, PROP_TEMPLATE_FILE, summarizeLedger, type LedgerKind } from '../../../domain/prop';
import type { Database, Tx } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import { propRepo, type LedgerRow } from '../../core/prop/repo';
import { evaluatePropAccounts, propStatusList, toPropAccount, toRuleSet } from '../../core/prop/status';

// The templates are data edited without code: a file that does not hold what the screens and the rules expect stops
// the server here, naming the field, rather than failing a trader's request later.
propTemplateFile.parse(PROP_TEMPLATE_FILE);

export const ACCOUNT_NOT_FOUND = 'Trading account not found';
export const LEDGER_NOT_FOUND = 'Ledger entry not found';

function toLedgerEntry(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    account_id: row.accountId,
    account_name: row.accountName,
    firm: row.firm,
    kind: row.kind as LedgerKind,
    amount: row.amount,
    occurred_on: row.occurredOn,
    note: row.note,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

const ledgerSummaryOf = (rows: readonly LedgerRow[], firm: string) =>
  summarizeLedger(rows.map((r) => ({ accountId: r.accountId ?? '', firm, kind: r.kind as LedgerKind, amountCents: toCents(r.amount) }))).total;

async function findAccount(tx: Tx, userId: string, accountId: string) {
  const [row] = await propRepo(tx, userId).accounts(accountId);
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  return row;
}

export const propService = {
  /** Every account with a rule set: where it stands today (the dashboard's Prop Accounts widget). */
  statusList: (database: Database, userId: string, now: Date, accountIds?: readonly string[]) => propStatusList(database, userId, now, accountIds),

  /** One account: its rule set, its full status (each trade's balance and threshold, each day), its ledger. */
  async detail(database: Database, userId: string, accountId: string, now: Date): Promise<PropAccountDetail> {
    const { row, ledger } = await database.withUser(userId, async (tx) => ({
      row: await findAccount(tx, userId, accountId),
      ledger: await propRepo(tx, userId).ledger(accountId),
    }));
    const { day, accounts } = await evaluatePropAccounts(database, userId, now, [accountId]);
    const evaluated = accounts[0] ?? null;
    const status = evaluated?.status ?? null;
    const omitted = status !== null && status.timeline.length > TIMELINE_LIMIT;
    return {
      account: toPropAccount(row),
      rule_set: evaluated?.rules ?? toRuleSet(row),
      today: day.today,
      trades: evaluated?.trades.length ?? 0,
      status: (status && omitted ? { ...status, timeline: [] } : status) satisfies PropStatusBody | null,
      timeline_omitted: omitted,
      ledger: ledger.map(toLedgerEntry),
      ledger_summary: ledgerSummaryOf(ledger, row.firm ?? ''),
    };
  },

  setRules: (database: Database, userId: string, accountId: string, parsed: z.infer<typeof ruleSetInput>) =>
    database.withUser(userId, async (tx) => {
      if (parsed.template_id !== null && !findPropTemplate(parsed.template_id)) throw badRequest('template_id: no such template');
      await findAccount(tx, userId, accountId);
      await propRepo(tx, userId).upsertRuleSet(accountId, {
        templateId: parsed.template_id,
        rules: parsed.rules,
        startsOn: parsed.starts_on,
        active: parsed.active,
      });
      return toRuleSet(await findAccount(tx, userId, accountId))!;
    }),

  deleteRules: (database: Database, userId: string, accountId: string) =>
    database.withUser(userId, async (tx) => {
      await findAccount(tx, userId, accountId);
      if (!(await propRepo(tx, userId).deleteRuleSet(accountId))) throw notFound('This account has no rule set');
    }),

  /** Every ledger entry and the prop ROI per firm and over all firms. */
  ledger: (database: Database, userId: string) =>
    database.withUser(userId, async (tx): Promise<Ledger> => {
      const rows = await propRepo(tx, userId).ledger();
      const summary = summarizeLedger(
        rows.map((r) => ({ accountId: r.accountId ?? '', firm: r.firm, kind: r.kind as LedgerKind, amountCents: toCents(r.amount) })),
      );
      return { entries: rows.map(toLedgerEntry), firms: summary.firms, total: summary.total };
    }),

  addLedgerEntry: (database: Database, userId: string, accountId: string, input: z.infer<typeof ledgerInput>) =>
    database.withUser(userId, async (tx) => {
      const account = await findAccount(tx, userId, accountId);
      const repo = propRepo(tx, userId);
      const id = await repo.insertLedger({
        accountId,
        firm: account.firm ?? '',
        kind: input.kind,
        amount: centsToDecimalString(toCents(input.amount)),
        occurredOn: input.occurred_on,
        note: input.note,
      });
      return toLedgerEntry((await repo.ledger(accountId)).find((r) => r.id === id)!);
    }),

  updateLedgerEntry: (database: Database, userId: string, id: string, patch: z.infer<typeof ledgerPatch>) =>
    database.withUser(userId, async (tx) => {
      const repo = propRepo(tx, userId);
      const updated = await repo.updateLedger(id, {
        ...(patch.kind !== undefined && { kind: patch.kind }),
        ...(patch.amount !== undefined && { amount: centsToDecimalString(toCents(patch.amount)) }),
        ...(patch.occurred_on !== undefined && { occurredOn: patch.occurred_on }),
        ...(patch.note !== undefined && { note: patch.note }),
      });
      if (!updated) throw notFound(LEDGER_NOT_FOUND);
      return toLedgerEntry((await repo.ledger()).find((r) => r.id === id)!);
    }),

  deleteLedgerEntry: (database: Database, userId: string, id: string) =>
    database.withUser(userId, async (tx) => {
      if (!(await propRepo(tx, userId).deleteLedger(id))) throw notFound(LEDGER_NOT_FOUND);
    }),
};
