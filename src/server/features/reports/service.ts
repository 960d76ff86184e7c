import { and, eq } from 'drizzle-orm';
import type {
  BreakdownReport,
  CalendarReport,
  DistributionReport,
  EquityReport,
  ExcursionsReport,
  HeatmapReport,
  MistakesReport,
  OverviewReport,
  ReportBasis,
  ReportOptions,
  RReport,
} from '../../../contract/reports';
import { addDays, getTodayInZone } from '../../../domain/dates';
import { toCents } from '../../../domain/money';
import { DEFAULT_STARTING_BALANCE_CENTS } from '../../../domain/stats';
import {
  aggregateRows,
  computeBreakdown,
  computeDistribution,
  computeEquity,
  computeEquityR,
  computeHeatmap,
  computeMistakes,
  computeOverview,
  computeROverview,
  computeYearCalendar,
  createReportFilter,
  dayOf,
  getRiskColumn,
  describeReportBasis,
  hasMistakeFilter,
  hasRiskFilter,
  describeReportFilter,
  hasTradeLevelFilter,
  resolveReportRange,
  selectTrades,
  type BreakdownBy,
  type DistributionOf,
  type ReportFilter,
  type ResolvedRange,
  type TradeColumns,
  type TradeSet,
} from '../../../domain/reports';
import { summarizeExcursions, type MeasuredTrade } from '../../../domain/market/excursion-summary';
import { RESULT } from '../../../domain/reports/report-trade';
import { prepareRowSearch, toSearchTerm } from '../../../domain/reports/search-rows';
import { summarizeRColumns } from '../../../domain/risk';
import type { Database } from '../../db/client';
import { tradeExcursions } from '../../db/schema';
import { loadRiskDefaults } from '../risk/service';
import { loadMistakeTags } from '../risk/mistakes';
import { preferencesIn } from '../preferences/routes';
import { reportsRepo } from './repo';
import { readLowerCase, readNoteMatches } from './search';
import type { TradesSnapshot } from './repo';
import { tradesCacheOf, type TradesLease } from './trades-cache';

/**
 * The reports (issue 26): each reads the trader's trades (kept in memory while they do not change, trades-cache.ts),
 * picks the filter's trades with the domain's rule and computes its figures with the domain's formulas. Nothing is
 * computed here.
 */
export interface ReportScope {
  /** The filter's trades, in trading order. */
  set: TradeSet;
  /** Every trade of the trader. */
  columns: TradeColumns;
  filter: ReportFilter;
  range: ResolvedRange;
  timeZone: string;
  accountName: (id: string) => string | undefined;
  startingBalanceCents: number;
  basis: ReportBasis;
  /** Every trade's planned risk in cents (NaN without): its own plan, else the trader's defaults (issue 27). */
  risk: () => Float64Array;
}

/**
 * `use` given the filter's trades and what every report says of them; the trader's copy is held until `use` is done
 * (its promise settled), then released, and only then may a merge write into its buffers (trades-cache.ts). `use` must
 * not keep the copy's arrays in what it returns.
 */
export async function withReportScope<T>(database: Database, userId: string, filter: ReportFilter, now: Date, use: (scope: ReportScope) => T | Promise<T>): Promise<T> {
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

async function openReportScope(database: Database, userId: string, filter: ReportFilter, now: Date, take: (version: number) => Promise<TradesSnapshot>): Promise<ReportScope> {
  const { timeZone, startingBalances, version, names, riskDefaults, mistakeTags } = await database.withUser(userId, async (tx) => {
    const context = await reportsRepo(tx, userId).context();
    // A trader who never opened a page has no preferences row yet: made with its defaults, as every screen does.
    const preferences = context.timeZone === null ? await preferencesIn(tx, userId) : null;
    return {
      timeZone: preferences?.timeZone ?? context.timeZone!,
      startingBalances: context.startingBalances,
      version: context.version,
      // Accounts' and playbooks' names by id: the filter's words name both (describeReportFilterParts).
      names: new Map([...context.accounts, ...context.playbooks]),
      riskDefaults: await loadRiskDefaults(tx, userId),
      mistakeTags: hasMistakeFilter(filter) ? await loadMistakeTags(tx, userId) : [],
    };
  });
  const { columns } = await take(version);
  const range = resolveReportRange(filter, now, timeZone);
  const risk = () => getRiskColumn(columns, riskDefaults);
  const set = selectTrades(columns, filter, range, timeZone, { risk: hasRiskFilter(filter) ? risk() : undefined, mistakeTags });
  const accountName = (id: string) => names.get(id);
  const { rows } = set;
  const firstDay = rows.length > 0 ? dayOf(columns, rows[0]!) : null;
  const lastDay = rows.length > 0 ? dayOf(columns, rows[rows.length - 1]!) : null;
  return {
    set,
    columns,
    filter,
    range,
    timeZone,
    accountName,
    startingBalanceCents: sumStartingBalances(startingBalances, filter.account),
    risk,
    basis: {
      filter,
      range,
      timeZone,
      trades: rows.length,
      firstDay,
      lastDay,
      description: describeReportFilter(filter, range, accountName),
      computedFrom: describeReportBasis({ trades: rows.length, firstDay, lastDay }, filter, range, accountName),
    },
  };
}

/**
 * The starting balance of the filter's accounts (issue 28: each account has its own, as the dashboard's balance): the
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
 * The balance when the range opens: the starting balance of its accounts (as the dashboard's Account Balance) and the net P&L of
 * the same accounts before the range. Known only for a filter of days and accounts: "NQ shorts" have no balance.
 */
export function getOpeningBalance(scope: Pick<ReportScope, 'columns' | 'filter' | 'range' | 'startingBalanceCents' | 'timeZone'>): number | null {
  if (hasTradeLevelFilter(scope.filter)) return null;
  const { from } = scope.range;
  if (from === null) return scope.startingBalanceCents;
  const before = selectTrades(scope.columns, createReportFilter({ account: scope.filter.account }), { from: null, to: addDays(from, -1) }, scope.timeZone);
  return scope.startingBalanceCents + aggregateRows(before).pnlCents;
}

export const reportsService = {
  overview(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<OverviewReport> {
    return withReportScope(database, userId, filter, now, (scope) => {
      const openingBalanceCents = getOpeningBalance(scope);
      return {
        basis: scope.basis,
        overview: computeOverview(scope.set, { openingBalanceCents }),
        openingBalanceCents,
        r: computeROverview(scope.set, scope.risk()),
      };
    });
  },

  /** What each of the trader's mistakes cost in the filter's trades (issue 27, point 5). */
  mistakes(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<MistakesReport> {
    return withReportScope(database, userId, filter, now, async (scope) => {
      const tags = await database.withUser(userId, (tx) => loadMistakeTags(tx, userId));
      return { basis: scope.basis, mistakes: computeMistakes(scope.set, tags, scope.risk()) };
    });
  },

  /**
   * The filter's trades in R, and each day's and week's (the dashboard and its calendar in R; issue 27, point 3). The
   * Trade Log narrows them as its list does: by its search (the list's rule, applied to the copy: search-rows.ts; the
   * notes asked of the database) and less the trades whose delete waits for Undo. The basis still describes the filter.
   */
  r(database: Database, userId: string, filter: ReportFilter, now: Date, narrow: { q?: string; exclude?: readonly string[] } = {}): Promise<RReport> {
    const term = toSearchTerm(narrow.q ?? '');
    // The notes' matches are read while the trades are (on PostgreSQL, on a connection of their own).
    const noteMatches = term ? database.withUser(userId, (tx) => readNoteMatches(tx, userId, term)) : null;
    noteMatches?.catch(() => undefined);
    return withReportScope(database, userId, filter, now, async (scope) => {
      const { columns: c } = scope.set;
      let rows = scope.set.rows;
      if (term) {
        const search = prepareRowSearch(c, rows, term, scope.accountName);
        const lowered = search.texts.length > 0 ? await database.withUser(userId, (tx) => readLowerCase(tx, search.texts)) : new Map<string, string>();
        const notes = await noteMatches!;
        rows = search.match(lowered, notes);
      }
      if (narrow.exclude && narrow.exclude.length > 0) {
        const left = new Set(narrow.exclude);
        rows = rows.filter((i) => !left.has(c.id[i]!));
      }
      return { basis: scope.basis, r: summarizeRColumns(c, rows, scope.risk()) };
    });
  },

  equity(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<EquityReport> {
    return withReportScope(database, userId, filter, now, (scope) => ({ basis: scope.basis, equity: computeEquity(scope.set), r: computeEquityR(scope.set, scope.risk()) }));
  },

  breakdown(database: Database, userId: string, filter: ReportFilter, by: BreakdownBy, now: Date): Promise<BreakdownReport> {
    return withReportScope(database, userId, filter, now, (scope) => ({
      basis: scope.basis,
      breakdown: computeBreakdown(scope.set, by, { timeZone: scope.timeZone, accountName: scope.accountName, risk: scope.risk() }),
    }));
  },

  heatmap(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<HeatmapReport> {
    return withReportScope(database, userId, filter, now, (scope) => ({ basis: scope.basis, heatmap: computeHeatmap(scope.set, scope.timeZone, scope.risk()) }));
  },

  calendar(database: Database, userId: string, filter: ReportFilter, year: number | undefined, now: Date): Promise<CalendarReport> {
    return withReportScope(database, userId, filter, now, (scope) => ({
      basis: scope.basis,
      calendar: computeYearCalendar(scope.set, year ?? null, Number(getTodayInZone(now, scope.timeZone).slice(0, 4)), scope.risk()),
    }));
  },

  /**
   * Issue 29: the MAE/MFE figures stored per trade (trade_excursions, recomputed when bars or the trade change), over the
   * filter's trades. Trades without complete figures are counted, not estimated.
   */
  excursions(database: Database, userId: string, filter: ReportFilter, now: Date): Promise<ExcursionsReport> {
    return withReportScope(database, userId, filter, now, async (scope) => {
      const stored = await database.withUser(userId, (tx) =>
        tx
          .select({ tradeId: tradeExcursions.tradeId, mae: tradeExcursions.mae, mfe: tradeExcursions.mfe, capture: tradeExcursions.capture })
          .from(tradeExcursions)
          .where(and(eq(tradeExcursions.userId, userId), eq(tradeExcursions.status, 'complete'))),
      );
      const byTrade = new Map(stored.map((row) => [row.tradeId, row]));
      const { columns, rows } = scope.set;
      const measured: MeasuredTrade[] = [];
      for (const i of rows) {
        const row = byTrade.get(columns.id[i]!);
        if (!row || row.mae === null || row.mfe === null) continue;
        const code = columns.result[i]!;
        measured.push({ result: code === RESULT.WIN ? 'win' : code === RESULT.LOSS ? 'loss' : 'even', mae: row.mae, mfe: row.mfe, capture: row.capture });
      }
      return { basis: scope.basis, excursions: summarizeExcursions(measured, rows.length - measured.length) };
    });
  },

  distribution(database: Database, userId: string, filter: ReportFilter, of: DistributionOf, now: Date): Promise<DistributionReport> {
    return withReportScope(database, userId, filter, now, (scope) => ({
      basis: scope.basis,
      distribution: computeDistribution(scope.set, of, of === 'r' ? scope.risk() : undefined),
    }));
  },

  /** The values the trader's trades hold, for the filter bar's choices. */
  options(database: Database, userId: string, now: Date): Promise<ReportOptions> {
    return withReportScope(database, userId, createReportFilter({ range: 'custom', from: '0001-01-01', to: '0001-01-01' }), now, ({ columns: c }) => {
      const texts = (values: ReadonlyArray<string | null>) => values.filter((v): v is string => Boolean(v)).sort((a, b) => a.localeCompare(b));
      const sizes = new Set<number>();
      for (const q of c.quantity) if (!Number.isNaN(q)) sizes.add(q);
      return {
        symbol: texts(c.symbol.values),
        contract: texts(c.contract.values),
        side: texts(c.side.values),
        setup: texts(c.setup.values),
        session: texts(c.session.values),
        tag: texts(c.tagValues),
        size: [...sizes].sort((a, b) => a - b),
        trades: c.size,
      };
    });
  },
};
