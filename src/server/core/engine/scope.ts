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
import type { Database, Tx } from '../../db/client';
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
  /**
   * The filter as asked, for a mentor limited to the accounts they may see (for a trader, as asked); not narrowed to
   * one currency: a list of trades adds nothing up.
   */
  asked: ReportFilter;
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
  /**
   * The high-impact events' instants the trader's filter matches (the feed's and their imported ones), sorted; read
   * only for a filter with the news key (else empty).
   */
  newsEvents: Float64Array;
}

/**
 * Who looks at the trader's figures when it is not the trader: a mentor, whose scope holds only the trades of the
 * accounts the trader shares with them through live grants, whatever the filter asks.
 */
export interface ReportViewer {
  mentorId: string;
}

/**
 * The transaction a read of the trader's rows runs in: the trader's own, or, for a mentor, the mentor's, where
 * row-level security shows only what live grants share.
 */
export function readerOf(database: Database, userId: string, viewer?: ReportViewer) {
  return <R>(fn: (tx: Tx) => Promise<R>): Promise<R> => (viewer ? database.withMentor(userId, viewer.mentorId, fn) : database.withUser(userId, fn));
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
  viewer?: ReportViewer,
): Promise<T> {
  let lease: TradesLease | undefined;
  try {
    const scope = await openReportScope(database, userId, filter, now, viewer, async (version) => {
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
  wanted: ReportFilter,
  now: Date,
  viewer: ReportViewer | undefined,
  take: (version: number) => Promise<TradesSnapshot>,
): Promise<ReportScope> {
  // A mentor's context is read in a mentor's transaction: row-level security shows the shared accounts only (and
  // none once the grant is revoked), and their risk defaults, the zone, the playbooks.
  const within = readerOf(database, userId, viewer);
  const { timeZone, startingBalances, version, names, accounts, currencies, riskDefaults, mistakeTags, newsEvents } = await within(async (tx) => {
    const context = await reportsRepo(tx, userId).context();
    // A trader who never opened a page has no preferences row yet: made with its defaults, as every screen does. A
    // mentor makes nothing: the zone is then the default one the row would be made with.
    const preferences = context.timeZone === null && !viewer ? await preferencesIn(tx, userId) : null;
    return {
      timeZone: preferences?.timeZone ?? context.timeZone ?? DEFAULT_TIME_ZONE,
      startingBalances: context.startingBalances,
      version: context.version,
      // Accounts' and playbooks' names by id: the filter's words name both (describeReportFilterParts).
      names: new Map([...context.accounts, ...context.playbooks]),
      accounts: context.accounts,
      currencies: context.currencies,
      riskDefaults: await loadRiskDefaults(tx, userId),
      mistakeTags: hasMistakeFilter(wanted) ? await loadMistakeTags(tx, userId) : [],
      newsEvents: hasNewsFilter(wanted) ? await loadNewsInstants(tx, userId) : new Float64Array(0),
    };
  });
  const asked = viewer ? limitToAccounts(wanted, [...accounts.keys()]) : wanted;
  const { columns, version: held } = await take(version);
  const oneCurrency = figuresInOneCurrency(asked, currencies);
  const filter = oneCurrency.filter;
  const range = resolveReportRange(filter, now, timeZone);
  const risk = () => getRiskColumn(columns, riskDefaults);
  const picked = selectTrades(columns, filter, range, timeZone, { risk: hasRiskFilter(filter) ? risk() : undefined, mistakeTags, newsEvents });
  // The copy holds every trade of the trader: for a mentor, a second fence after the filter's own.
  const set = viewer ? onlyAccounts(picked, accounts) : picked;
  const accountName = (id: string) => names.get(id);
  const { rows } = set;
  const firstDay = rows.length > 0 ? dayOf(columns, rows[0]!) : null;
  const lastDay = rows.length > 0 ? dayOf(columns, rows[rows.length - 1]!) : null;
  return {
    version: held,
    set,
    columns,
    filter,
    asked,
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

/** The zone a trader's preferences row is made with (its column's default), for a mentor of a trader without one. */
const DEFAULT_TIME_ZONE = 'America/New_York';

/** An id no account has: a filter of it selects no trade (an empty list of accounts would mean all of them). */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000';

/**
 * A filter limited to `visible` accounts: those it names that are visible, or all the visible ones when it names none.
 * Never the trades without an account, and never every account: with nothing left it names an account no trade has.
 */
export function limitToAccounts(filter: ReportFilter, visible: readonly string[]): ReportFilter {
  const named = filter.account.length > 0 ? filter.account.filter((id) => visible.includes(id)) : [...visible];
  return { ...filter, account: named.length > 0 ? named : [NO_ACCOUNT] };
}

/** The set's trades of the `visible` accounts only. */
function onlyAccounts(set: TradeSet, visible: ReadonlyMap<string, string>): TradeSet {
  const { codes, values } = set.columns.account;
  const shown = values.map((id) => id !== null && visible.has(id));
  const rows = set.rows.filter((row) => shown[codes[row]!] === true);
  return rows.length === set.rows.length ? set : { ...set, rows };
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
