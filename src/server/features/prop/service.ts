import type { z } from 'zod';
import type { Ledger, LedgerEntry, PropAccountDetail, PropAccountSummary, PropStatusBody, RuleSet } from '../../../contract/prop';
import { propRuleSet, propTemplateFile, TIMELINE_LIMIT, type ledgerInput, type ledgerPatch, type ruleSetInput } from '../../../contract/prop';
import { marketDayOf, type TradingDayRule } from '../../../domain/market-time';
import { centsToDecimalString, toCents } from '../../../domain/money';
import { findPropTemplate, PROP_TEMPLATE_FILE, summarizeLedger, type AccountKind, type LedgerKind, type PropStatus, type PropTrade } from '../../../domain/prop';
import type { Database, Tx } from '../../db/client';
import { badRequest, notFound } from '../../http/errors';
import { preferencesIn } from '../../core/preferences/repo';
import { propRepo, type LedgerRow, type PropAccountRow } from './repo';
import { PropTradesCache } from './trades-cache';

// The templates are data edited without code: a file that does not hold what the screens and the rules expect stops
// the server here, naming the field, rather than failing a trader's request later.
propTemplateFile.parse(PROP_TEMPLATE_FILE);

export const ACCOUNT_NOT_FOUND = 'Trading account not found';
export const LEDGER_NOT_FOUND = 'Ledger entry not found';

const caches = new WeakMap<Database, PropTradesCache>();
/** This process's copy of the prop accounts' trades for a database (one per server; tests run several). */
export function propCacheOf(database: Database): PropTradesCache {
  let cache = caches.get(database);
  if (!cache) caches.set(database, (cache = new PropTradesCache()));
  return cache;
}

/**
 * The trader's current trading day, by the rule their trades are filed with (the exchange's by default, where 18:00
 * New York opens the next day): the daily loss limit's room is that day's.
 */
export function currentTradingDay(now: Date, rule: TradingDayRule): string {
  return marketDayOf(now.getTime(), { rule }).tradingDay;
}

const toPropAccount = (row: PropAccountRow) => ({
  id: row.id,
  name: row.name,
  kind: row.kind as AccountKind,
  firm: row.firm,
  size: row.size,
  starting_balance: row.startingBalance,
});

/**
 * Rule sets checked before, by their JSON: the widget asks for every account's status again and again, and checking
 * 20 rule sets with zod each time cost more than the rest of a cached status request. Bounded; a copy is shared, so
 * nothing may change it.
 */
const checkedRules = new Map<string, RuleSet['rules']>();
const MAX_CHECKED_RULES = 1_000;

function checkRules(rules: unknown): RuleSet['rules'] {
  const text = JSON.stringify(rules);
  let checked = checkedRules.get(text);
  if (!checked) {
    checked = propRuleSet.parse(rules);
    if (checkedRules.size >= MAX_CHECKED_RULES) checkedRules.clear();
    checkedRules.set(text, checked);
  }
  return checked;
}

function toRuleSet(row: PropAccountRow): RuleSet | null {
  if (!row.ruleSet) return null;
  return {
    account_id: row.id,
    template_id: row.ruleSet.templateId,
    // Checked on the way out too: the JSON column holds what the contract says, or the request fails loudly.
    rules: checkRules(row.ruleSet.rules),
    starts_on: row.ruleSet.startsOn,
    active: row.ruleSet.active,
    updated_at: new Date(row.ruleSet.updatedAt).toISOString(),
  };
}

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

interface Evaluated {
  row: PropAccountRow;
  rules: RuleSet;
  trades: PropTrade[];
  status: PropStatus;
}

/** The trader's day: today's trading day and the rule that files trades under days. */
interface TraderDay {
  today: string;
  rule: TradingDayRule;
}

/** An account's trades (from this process's copy while current) and their evaluation against its rule set. */
async function evaluateAccount(database: Database, tx: Tx, userId: string, row: PropAccountRow, { today, rule }: TraderDay): Promise<Evaluated | null> {
  const rules = toRuleSet(row);
  if (!rules) return null;
  const cache = propCacheOf(database);
  // Fills are read only for a position limit, the one rule that needs them.
  const fills = rules.rules.maxPosition !== null;
  const key = `${row.id}|${rules.starts_on ?? ''}|${fills ? 'fills' : ''}`;
  let trades = cache.get(key, row.tradesVersion);
  if (!trades) {
    trades = await propRepo(tx, userId).trades(row.id, rules.starts_on, { fills });
    cache.set(key, row.tradesVersion, trades);
  }
  const status = cache.evaluate(key, row.tradesVersion, {
    kind: row.kind as AccountKind,
    startingBalanceCents: toCents(row.startingBalance),
    rules: rules.rules,
    trades,
    today,
    tradingDay: rule,
  });
  return { row, rules, trades, status };
}

function toSummary({ row, rules, trades, status }: Evaluated, today: string): PropAccountSummary {
  return {
    account: toPropAccount(row),
    active: rules.active,
    template_id: rules.template_id,
    starts_on: rules.starts_on,
    today,
    trades: trades.length,
    first_day: status.days[0]?.day ?? null,
    last_day: status.days[status.days.length - 1]?.day ?? null,
    state: status.state,
    outcome: status.outcome,
    headline: status.headline,
    balance_cents: status.balanceCents,
    profit_cents: status.profitCents,
    rules: status.rules,
    broken_by: status.brokenBy,
    soft_breaches: status.breaches.filter((b) => !b.fatal).length,
    target_reached_on: status.targetReachedOn,
    passed_on: status.passedOn,
  };
}

async function todayOf(tx: Tx, userId: string, now: Date): Promise<TraderDay> {
  const preferences = await preferencesIn(tx, userId);
  const rule = preferences.tradingDay as TradingDayRule;
  return { today: currentTradingDay(now, rule), rule };
}

async function findAccount(tx: Tx, userId: string, accountId: string) {
  const [row] = await propRepo(tx, userId).accounts(accountId);
  if (!row) throw notFound(ACCOUNT_NOT_FOUND);
  return row;
}

export const propService = {
  /** Every account with a rule set: where it stands today (the dashboard's Prop Accounts widget). */
  statusList: (database: Database, userId: string, now: Date, accountIds?: readonly string[]) =>
    database.withUser(userId, async (tx) => {
      const day = await todayOf(tx, userId, now);
      const wanted = accountIds ? new Set(accountIds) : null;
      const summaries: PropAccountSummary[] = [];
      for (const row of await propRepo(tx, userId).accounts()) {
        if (wanted && !wanted.has(row.id)) continue;
        const evaluated = await evaluateAccount(database, tx, userId, row, day);
        if (evaluated) summaries.push(toSummary(evaluated, day.today));
      }
      return { accounts: summaries };
    }),

  /** One account: its rule set, its full status (each trade's balance and threshold, each day), its ledger. */
  detail: (database: Database, userId: string, accountId: string, now: Date) =>
    database.withUser(userId, async (tx): Promise<PropAccountDetail> => {
      const day = await todayOf(tx, userId, now);
      const today = day.today;
      const row = await findAccount(tx, userId, accountId);
      const evaluated = await evaluateAccount(database, tx, userId, row, day);
      const ledger = await propRepo(tx, userId).ledger(accountId);
      const status = evaluated?.status ?? null;
      const omitted = status !== null && status.timeline.length > TIMELINE_LIMIT;
      return {
        account: toPropAccount(row),
        rule_set: evaluated?.rules ?? null,
        today,
        trades: evaluated?.trades.length ?? 0,
        status: (status && omitted ? { ...status, timeline: [] } : status) satisfies PropStatusBody | null,
        timeline_omitted: omitted,
        ledger: ledger.map(toLedgerEntry),
        ledger_summary: ledgerSummaryOf(ledger, row.firm ?? ''),
      };
    }),

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
      const summary = summarizeLedger(rows.map((r) => ({ accountId: r.accountId ?? '', firm: r.firm, kind: r.kind as LedgerKind, amountCents: toCents(r.amount) })));
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

/** The accounts an import wrote into whose status is amber or red: what the import dialog warns about. */
export async function propWarningsAfterImport(database: Database, userId: string, accountIds: readonly string[], now: Date) {
  if (accountIds.length === 0) return [];
  const { accounts } = await propService.statusList(database, userId, now, accountIds);
  return accounts.filter((a) => a.state !== 'ok');
}
