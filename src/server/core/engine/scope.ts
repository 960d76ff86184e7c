import type { ReportBasis } from '../../../contract/reports';
import { addDays } from '../../../domain/dates';
import { toCents } from '../../../domain/money';
import { DEFAULT_STARTING_BALANCE_CENTS } from '../../../domain/stats';
import {
  aggregateRows,
  createReportFilter,
  dayOf,
  describeLeftOut,
  describeReportBasis,
  describeReportFilter,
  getRiskColumn,
  hasMistakeFilter,
  hasNewsFilter,
  hasRiskFilter,
  hasTradeLevelFilter,
  narrowToOneCurrency,
  resolveReportRange,
  selectTrades,
  type ReportFilter,
  type ResolvedRange,
  type TradeColumns,
  type TradeSet,
} from '../../../domain/reports';
import type { Database } from '../../db/client';
import { loadNewsInstants } from '../news/repo';
import { preferencesIn } from '../preferences/repo';
import { loadMistakeTags, loadRiskDefaults } from '../risk/repo';
import { reportsRepo, type TradesSnapshot } from './repo';
import { tradesCacheOf, type TradesLease } from './trades-cache';

/**
 * The one engine for figures: every figure reads the trader's trades (kept in memory while they do not change,
 * trades-cache.ts),
 * picks the filter's trades with the domain's rule and computes its figures with the domain's formulas. Nothing is
 * computed here.
 */
export interface ReportScope {
  /** The trader's trades' version the copy holds (figures remembered for it are current while it is). */
  version: number;
  /** The filter's trades, in trading order. */
  set: TradeSet;
  /** Every trade of the trader. */
  columns: TradeColumns;
  /** The filter as figures read it: narrowed to the accounts of one currency (figuresInOneCurrency). */
  filter: ReportFilter;
  range: ResolvedRange;
  timeZone: string;
  accountName: (id: string) => string | undefined;
  /** The trader's trading accounts, id to name (those without trades too). */
  accounts: ReadonlyMap<string, string>;
  startingBalanceCents: number;
  /** Each of the trader's accounts' own starting balance in cents, by id. */
  startingBalances: ReadonlyMap<string, number>;
  basis: ReportBasis;
  /** Every trade's planned risk in cents (NaN without): its own plan, else the trader's defaults. */
  risk: () => Float64Array;
  /** The stored high-impact events' instants, sorted; read only for a filter with the news key (else empty). */
  newsEvents: Float64Array;
}

/**
 * `use` given the filter's trades and what every report says of them; the trader's copy is held until `use` is done
 * (its promise settled), then released, and only then may a merge write into its buffers (trades-cache.ts). `use` must
 * not keep the copy's arrays in what it returns.
 */
export async function withReportScope<T>(
  database: Database,
  userId: string,
  filter: ReportFilter,
  now: Date,
  use: (scope: ReportScope) => T | Promise<T>,
): Promise<T> {
  let lease: TradesLease | undefined;
  try {
    const scope = await openReportScope(database, userId, filter, now, async (version) => {
      lease = await tradesCacheOf(database).acquire(userId, version);
      return lease.snapshot;
    });
    return await use(scope);
  } finally {
    lease?.release();
  }
}

async function openReportScope(
  database: Database,
  userId: string,
  asked: ReportFilter,
  now: Date,
  take: (version: number) => Promise<TradesSnapshot>,
): Promise<ReportScope> {
  const { timeZone, startingBalances, version, names, accounts, currencies, riskDefaults, mistakeTags, newsEvents } = await database.withUser(
    userId,
    async (tx) => {
      const context = await reportsRepo(tx, userId).context();
      // A trader who never opened a page has no preferences row yet: made with its defaults, as every screen does.
      const preferences = context.timeZone === null ? await preferencesIn(tx, userId) : null;
      return {
        timeZone: preferences?.timeZone ?? context.timeZone!,
        startingBalances: context.startingBalances,
        version: context.version,
        // Accounts' and playbooks' names by id: the filter's words name both (describeReportFilterParts).
        names: new Map([...context.accounts, ...context.playbooks]),
        accounts: context.accounts,
        currencies: context.currencies,
        riskDefaults: await loadRiskDefaults(tx, userId),
        mistakeTags: hasMistakeFilter(asked) ? await loadMistakeTags(tx, userId) : [],
        newsEvents: hasNewsFilter(asked) ? await loadNewsInstants(tx) : new Float64Array(0),
      };
    },
  );
  const { columns, version: held } = await take(version);
  const oneCurrency = figuresInOneCurrency(asked, currencies);
  const filter = oneCurrency.filter;
  const range = resolveReportRange(filter, now, timeZone);
  const risk = () => getRiskColumn(columns, riskDefaults);
  const set = selectTrades(columns, filter, range, timeZone, { risk: hasRiskFilter(filter) ? risk() : undefined, mistakeTags, newsEvents });
  const accountName = (id: string) => names.get(id);
  const { rows } = set;
  const firstDay = rows.length > 0 ? dayOf(columns, rows[0]!) : null;
  const lastDay = rows.length > 0 ? dayOf(columns, rows[rows.length - 1]!) : null;
  return {
    version: held,
    set,
    columns,
    filter,
    range,
    timeZone,
    accountName,
    accounts,
    startingBalanceCents: sumStartingBalances(startingBalances, filter.account),
    startingBalances: new Map([...startingBalances].map(([id, balance]) => [id, toCents(balance)])),
    risk,
    newsEvents,
    basis: {
      filter: asked,
      range,
      timeZone,
      trades: rows.length,
      firstDay,
      lastDay,
      description: describeReportFilter(filter, range, accountName),
      computedFrom: describeReportBasis({ trades: rows.length, firstDay, lastDay }, filter, range, accountName),
      currency: oneCurrency.currency,
      currencyNote: describeLeftOut(oneCurrency),
    },
  };
}

/**
 * Amounts in different currencies are never added into one figure (a USD futures account and a USDT exchange account):
 * a filter whose accounts span currencies is narrowed to its accounts of the trader's main currency, and the basis
 * names the accounts left out (the rule: src/domain/reports/currency.ts).
 */
export function figuresInOneCurrency(filter: ReportFilter, accounts: Parameters<typeof narrowToOneCurrency>[1]) {
  return narrowToOneCurrency(filter, accounts);
}

/**
 * The starting balance of the filter's accounts (each account has its own, as the dashboard's balance): the
 * sum of those named, or of every account without any named; trades without an account have none of their own; a
 * trader without accounts has the spec's default.
 */
function sumStartingBalances(balances: ReadonlyMap<string, string>, accounts: readonly string[]): number {
  if (accounts.length === 0) {
    if (balances.size === 0) return DEFAULT_STARTING_BALANCE_CENTS;
    let sum = 0;
    for (const balance of balances.values()) sum += toCents(balance);
    return sum;
  }
  return accounts.reduce((sum, id) => sum + toCents(balances.get(id) ?? '0'), 0);
}

/**
 * The balance when the range opens: the starting balance of its accounts (as the dashboard's Account Balance) and
 * the net P&L of
 * the same accounts before the range. Known only for a filter of days and accounts: "NQ shorts" have no balance.
 */
export function getOpeningBalance(scope: Pick<ReportScope, 'columns' | 'filter' | 'range' | 'startingBalanceCents' | 'timeZone'>): number | null {
  if (hasTradeLevelFilter(scope.filter)) return null;
  const { from } = scope.range;
  if (from === null) return scope.startingBalanceCents;
  const before = selectTrades(
    scope.columns,
    createReportFilter({ account: scope.filter.account }),
    { from: null, to: addDays(from, -1) },
    scope.timeZone,
  );
  return scope.startingBalanceCents + aggregateRows(before).pnlCents;
}
