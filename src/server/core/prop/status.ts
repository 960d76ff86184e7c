import type { PropAccountSummary, RuleSet } from '../../../contract/prop';
import { propRuleSet } from '../../../contract/prop';
import { marketDayOf, type TradingDayRule } from '../../../domain/market-time';
import { toCents } from '../../../domain/money';
import { evaluatePropAccount, type AccountKind, type PropStatus, type PropTrade } from '../../../domain/prop';
import { createReportFilter, type TradeColumns } from '../../../domain/reports';
import type { Currency } from '../../../domain/reports/currency';
import type { Database, Tx } from '../../db/client';
import { readerOf, withReportScope, type ReportViewer } from '../engine/scope';
import { preferencesIn } from '../preferences/repo';
import { propRepo, type PropAccountRow } from './repo';

/**
 * Where each prop account stands against its rule set, from the engine: the trader's ordered trades (the same set every
 * figure reads), each account's taken in the order their P&L was realized (src/domain/prop/replay.ts), evaluated by the
 * domain's rules. The prop page, the dashboard's widget, the import's warning and the analyst all read it.
 */

/**
 * The trader's current trading day, by the rule their trades are filed with (the exchange's by default, where 18:00
 * New York opens the next day): the daily loss limit's room is that day's.
 */
export function currentTradingDay(now: Date, rule: TradingDayRule): string {
  return marketDayOf(now.getTime(), { rule }).tradingDay;
}

export const toPropAccount = (row: PropAccountRow) => ({
  id: row.id,
  name: row.name,
  kind: row.kind as AccountKind,
  firm: row.firm,
  size: row.size,
  starting_balance: row.startingBalance,
  currency: row.currency as Currency,
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

export function toRuleSet(row: PropAccountRow): RuleSet | null {
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

export interface EvaluatedAccount {
  row: PropAccountRow;
  rules: RuleSet;
  trades: readonly PropTrade[];
  status: PropStatus;
}

/** The trader's day: today's trading day and the rule that files trades under days. */
export interface TraderDay {
  today: string;
  rule: TradingDayRule;
}

const iso = (ms: number) => (Number.isNaN(ms) ? null : new Date(ms).toISOString());

/**
 * Each wanted account's trades from the engine's columns, in the trading order (the replay takes them in the realized
 * order; ties keep this order, which already breaks them by creation and id). From a rule set's first day on.
 */
function propTradesOf(c: TradeColumns, accounts: ReadonlyMap<string, string | null>): Map<string, PropTrade[]> {
  const byAccount = new Map<string, PropTrade[]>();
  for (const id of accounts.keys()) byAccount.set(id, []);
  // Account codes of the columns to the accounts wanted.
  const wanted = c.account.values.map((id) => (id !== null && accounts.has(id) ? id : null));
  for (let i = 0; i < c.size; i++) {
    const account = wanted[c.account.codes[i]!];
    if (!account) continue;
    const day = c.days[c.day[i]!]!;
    const from = accounts.get(account);
    if (from && day < from) continue;
    const contract = c.contract.values[c.contract.codes[i]!];
    const symbol = contract || c.symbol.values[c.symbol.codes[i]!] || null;
    const side = c.side.values[c.side.codes[i]!];
    byAccount.get(account)!.push({
      id: c.id[i]!,
      day,
      entryAt: iso(c.entry[i]!),
      exitAt: iso(c.exit[i]!),
      createdAt: null,
      netCents: c.pnl[i]!,
      symbol: symbol === 'Unknown' ? null : symbol,
      quantity: Number.isNaN(c.quantity[i]!) ? null : c.quantity[i]!,
      side: side === 'Long' || side === 'Short' ? side : null,
      fills: null,
    });
  }
  return byAccount;
}

/**
 * Evaluations remembered per trader for the version of their trades they were made from, and for the account's rules,
 * start, kind, balance and day: the widget and the page ask again and again between two writes, and a replay of
 * thousands of trades takes milliseconds. Bounded per process.
 */
interface Remembered {
  version: number;
  byKey: Map<string, { trades: readonly PropTrade[]; status: PropStatus }>;
  lastUsed: number;
}
const MAX_TRADERS = 500;
const remembered = new WeakMap<Database, Map<string, Remembered>>();

function memoOf(database: Database, userId: string, version: number): Remembered {
  let traders = remembered.get(database);
  if (!traders) remembered.set(database, (traders = new Map()));
  let entry = traders.get(userId);
  if (!entry || entry.version !== version) {
    entry = { version, byKey: new Map(), lastUsed: Date.now() };
    traders.set(userId, entry);
    if (traders.size > MAX_TRADERS) {
      const oldest = [...traders].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0]!;
      traders.delete(oldest[0]);
    }
  }
  entry.lastUsed = Date.now();
  return entry;
}

/**
 * The accounts a status read is of: all, these, or those a check answers in the transaction that reads the rule sets
 * (a mentor's live grant, which may refuse the read).
 */
export type PropAccountChoice = readonly string[] | ((tx: Tx) => Promise<readonly string[]>);

/** The trader's accounts with rule sets (all, or those of `accountIds`), evaluated: in the accounts panel's order. */
export async function evaluatePropAccounts(
  database: Database,
  userId: string,
  now: Date,
  accountIds?: PropAccountChoice,
  viewer?: ReportViewer,
): Promise<{ day: TraderDay; accounts: EvaluatedAccount[] }> {
  const { rows, day, chosen } = await database.withUser(userId, async (tx) => {
    const chosen = typeof accountIds === 'function' ? await accountIds(tx) : accountIds;
    const preferences = await preferencesIn(tx, userId);
    const rule = preferences.tradingDay as TradingDayRule;
    return { rows: await propRepo(tx, userId).accounts(), day: { today: currentTradingDay(now, rule), rule }, chosen };
  });
  const wanted = chosen ? new Set(chosen) : null;
  const ruled = rows.flatMap((row) => {
    if (wanted && !wanted.has(row.id)) return [];
    const rules = toRuleSet(row);
    return rules ? [{ row, rules }] : [];
  });
  if (ruled.length === 0) return { day, accounts: [] };
  // A mentor's trades and fills come from the mentor's transaction: row-level security holds them to the shared accounts.
  const read = readerOf(database, userId, viewer);
  return withReportScope(
    database,
    userId,
    createReportFilter(),
    now,
    async (scope) => {
      const memo = memoOf(database, userId, scope.version);
      const keyOf = ({ row, rules }: (typeof ruled)[number]) =>
        JSON.stringify([row.id, row.kind, row.startingBalance, row.currency, rules.starts_on, rules.rules, day.today, day.rule]);
      const missing = ruled.filter((account) => !memo.byKey.has(keyOf(account)));
      if (missing.length > 0) {
        const tradesByAccount = propTradesOf(scope.columns, new Map(missing.map(({ row, rules }) => [row.id, rules.starts_on])));
        // Fills only for a position limit, the one rule that reads them.
        const fillsFor = missing
          .filter(({ rules }) => rules.rules.maxPosition !== null)
          .flatMap(({ row }) => tradesByAccount.get(row.id)!.map((t) => t.id));
        const fills = fillsFor.length > 0 ? await read((tx) => propRepo(tx, userId).fills(fillsFor)) : new Map();
        for (const account of missing) {
          const { row, rules } = account;
          const trades = tradesByAccount.get(row.id)!;
          if (rules.rules.maxPosition !== null) for (const trade of trades) trade.fills = fills.get(trade.id) ?? null;
          const status = evaluatePropAccount({
            kind: row.kind as AccountKind,
            startingBalanceCents: toCents(row.startingBalance),
            rules: rules.rules,
            trades,
            today: day.today,
            tradingDay: day.rule,
            currency: row.currency,
          });
          memo.byKey.set(keyOf(account), { trades, status });
        }
      }
      return {
        day,
        accounts: ruled.map((account) => ({ ...account, ...memo.byKey.get(keyOf(account))! })),
      };
    },
    viewer,
  );
}

export function toPropSummary({ row, rules, trades, status }: EvaluatedAccount, today: string): PropAccountSummary {
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

/** Every account with a rule set: where it stands today (the dashboard's Prop Accounts widget, the analyst). */
export async function propStatusList(database: Database, userId: string, now: Date, accountIds?: PropAccountChoice, viewer?: ReportViewer) {
  const { day, accounts } = await evaluatePropAccounts(database, userId, now, accountIds, viewer);
  return { accounts: accounts.map((account) => toPropSummary(account, day.today)) };
}

/** The accounts an import wrote into whose status is amber or red: what the import dialog warns about. */
export async function propWarningsAfterImport(database: Database, userId: string, accountIds: readonly string[], now: Date) {
  if (accountIds.length === 0) return [];
  const { accounts } = await propStatusList(database, userId, now, accountIds);
  return accounts.filter((a) => a.state !== 'ok');
}
