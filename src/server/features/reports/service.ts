import type {
  BreakdownReport,
  CalendarReport,
  DistributionReport,
  EquityReport,
  HeatmapReport,
  OverviewReport,
  ReportBasis,
  ReportOptions,
} from '../../../contract/reports';
import { getTodayInZone } from '../../../domain/dates';
import { toCents } from '../../../domain/money';
import {
  computeBreakdown,
  computeDistribution,
  computeEquity,
  computeHeatmap,
  computeOverview,
  computeYearCalendar,
  describeReportBasis,
  describeReportFilter,
  EMPTY_REPORT_FILTER,
  hasTradeLevelFilter,
  resolveReportRange,
  selectReportTrades,
  UNASSIGNED,
  type BreakdownBy,
  type DistributionOf,
  type ReportFilter,
  type ReportTrade,
  type ResolvedRange,
} from '../../../domain/reports';
import type { Database } from '../../db/client';
import { preferencesIn } from '../preferences/routes';
import { reportsRepo } from './repo';
import { tradesCacheOf } from './trades-cache';

/**
 * The reports (issue 26): each reads the trader's trades (kept in memory while they do not change, trades-cache.ts),
 * picks the filter's trades with the domain's rule and computes its figures with the domain's formulas. Nothing is
 * computed here.
 */
export interface ReportScope {
  /** The filter's trades, in trading order. */
  trades: ReportTrade[];
  /** Every trade of the trader, in trading order. */
  all: readonly ReportTrade[];
  filter: ReportFilter;
  range: ResolvedRange;
  timeZone: string;
  accountName: (id: string) => string | undefined;
  startingBalanceCents: number;
  basis: ReportBasis;
}

/** The filter's trades and what every report says of them. */
export async function readReportScope(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<ReportScope> {
  const { timeZone, startingBalance, version, names } = await database.withUser(userId, async (tx) => {
    const repo = reportsRepo(tx, userId);
    const preferences = await preferencesIn(tx, userId);
    return { timeZone: preferences.timeZone, startingBalance: preferences.startingBalance, version: await repo.version(), names: await repo.accountNames() };
  });
  const snapshot = await tradesCacheOf(database).get(userId, version);
  const range = resolveReportRange(filter, now, timeZone);
  const trades = selectReportTrades(snapshot.trades, filter, range, timeZone);
  const accountName = (id: string) => names.get(id);
  const firstDay = trades[0]?.tradeDate ?? null;
  const lastDay = trades[trades.length - 1]?.tradeDate ?? null;
  return {
    trades,
    all: snapshot.trades,
    filter,
    range,
    timeZone,
    accountName,
    startingBalanceCents: toCents(startingBalance),
    basis: {
      filter,
      range,
      timeZone,
      trades: trades.length,
      firstDay,
      lastDay,
      description: describeReportFilter(filter, range, accountName),
      computedFrom: describeReportBasis({ trades: trades.length, firstDay, lastDay }, filter, range, accountName),
    },
  };
}

/**
 * The balance when the range opens: the starting balance (Profile, the dashboard's Account Balance) and the net P&L of
 * the same accounts before the range. Known only for a filter of days and accounts: "NQ shorts" have no balance.
 */
export function getOpeningBalance(scope: Pick<ReportScope, 'all' | 'filter' | 'range' | 'startingBalanceCents'>): number | null {
  if (hasTradeLevelFilter(scope.filter)) return null;
  let before = 0;
  const { from } = scope.range;
  if (from !== null) {
    for (const trade of scope.all) {
      if (trade.tradeDate >= from) break;
      if (scope.filter.account.length === 0 || scope.filter.account.includes(trade.accountId ?? UNASSIGNED)) before += trade.pnlCents;
    }
  }
  return scope.startingBalanceCents + before;
}

export const reportsService = {
  async overview(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<OverviewReport> {
    const scope = await readReportScope(database, userId, filter, now);
    const openingBalanceCents = getOpeningBalance(scope);
    return { basis: scope.basis, overview: computeOverview(scope.trades, { openingBalanceCents }), openingBalanceCents };
  },

  async equity(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<EquityReport> {
    const scope = await readReportScope(database, userId, filter, now);
    return { basis: scope.basis, equity: computeEquity(scope.trades) };
  },

  async breakdown(database: Database, userId: string, filter: ReportFilter, by: BreakdownBy, now: Date): Promise<BreakdownReport> {
    const scope = await readReportScope(database, userId, filter, now);
    return { basis: scope.basis, breakdown: computeBreakdown(scope.trades, by, { timeZone: scope.timeZone, accountName: scope.accountName }) };
  },

  async heatmap(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<HeatmapReport> {
    const scope = await readReportScope(database, userId, filter, now);
    return { basis: scope.basis, heatmap: computeHeatmap(scope.trades, scope.timeZone) };
  },

  async calendar(database: Database, userId: string, filter: ReportFilter, year: number | undefined, now: Date): Promise<CalendarReport> {
    const scope = await readReportScope(database, userId, filter, now);
    return { basis: scope.basis, calendar: computeYearCalendar(scope.trades, year ?? null, Number(getTodayInZone(now, scope.timeZone).slice(0, 4))) };
  },

  async distribution(database: Database, userId: string, filter: ReportFilter, of: DistributionOf, now: Date): Promise<DistributionReport> {
    const scope = await readReportScope(database, userId, filter, now);
    return { basis: scope.basis, distribution: computeDistribution(scope.trades, of) };
  },

  /** The values the trader's trades hold, for the filter bar. */
  async options(database: Database, userId: string, now: Date): Promise<ReportOptions> {
    const { all } = await readReportScope(database, userId, EMPTY_REPORT_FILTER, now);
    const collect = (pick: (t: ReportTrade) => string | null | readonly string[]) => {
      const values = new Set<string>();
      for (const trade of all) {
        const value = pick(trade);
        if (typeof value === 'string') {
          if (value) values.add(value);
        } else if (value) for (const v of value) values.add(v);
      }
      return [...values].sort((a, b) => a.localeCompare(b));
    };
    const sizes = new Set<number>();
    for (const trade of all) if (trade.quantity !== null) sizes.add(trade.quantity);
    return {
      symbol: collect((t) => t.symbol),
      contract: collect((t) => t.contract),
      side: collect((t) => t.side),
      setup: collect((t) => t.setup),
      session: collect((t) => t.session),
      tag: collect((t) => t.tags),
      size: [...sizes].sort((a, b) => a - b),
      trades: all.length,
    };
  },
};
