import { and, eq } from 'drizzle-orm';
import type {
  BreakdownReport,
  CalendarReport,
  DistributionReport,
  EquityReport,
  ExcursionsReport,
  DepthReportAnswer,
  HeatmapReport,
  MistakesReport,
  OverviewReport,
  ReportOptions,
  RReport,
} from '../../../contract/reports';
import type { CompareReport, CompareSet } from '../../../contract/report-compare';
import type { MonthlyReviewReport } from '../../../contract/monthly-review';
import { computeMonthlyReview, monthDays } from '../../../domain/reports/monthly-review';
import { getTodayInZone } from '../../../domain/dates';
import {
  computeBreakdown,
  computeDistribution,
  computeEquity,
  computeEquityByTrade,
  computeEquityR,
  computeEquityRByTrade,
  computeHeatmap,
  computeMistakes,
  computeOverview,
  computeROverview,
  computeYearCalendar,
  createReportFilter,
  type BreakdownBy,
  type DistributionOf,
  type ReportFilter,
  type TradeColumns,
} from '../../../domain/reports';
import { computeDepth } from '../../../domain/reports/depth';
import { summarizeExcursions, type MeasuredTrade } from '../../../domain/market/excursion-summary';
import { RESULT } from '../../../domain/reports/report-trade';
import { summarizeRColumns } from '../../../domain/risk';
import { getOpeningBalance, readerOf, withReportScope, type ReportScope, type ReportViewer } from '../../core/engine/scope';
import { playbookReportsInScope } from '../../core/engine/playbook-reports';
import type { PlaybooksReport } from '../../../contract/playbooks';
import { narrowing } from '../../core/engine/search';
import { loadMistakeTags } from '../../core/risk/repo';
import type { Database } from '../../db/client';
import { tradeExcursions } from '../../db/schema';

/**
 * The engine's scope of the trader's trades, read by the trader or, with `viewer`, by their mentor: then the scope holds
 * the shared accounts' trades only and every read beside it runs in the mentor's transaction (row-level security).
 */
const scoped = <T>(
  database: Database,
  userId: string,
  filter: ReportFilter,
  now: Date,
  viewer: ReportViewer | undefined,
  use: (scope: ReportScope) => T | Promise<T>,
): Promise<T> => withReportScope(database, userId, filter, now, use, viewer);

export const reportsService = {
  overview(database: Database, userId: string, filter: ReportFilter, now: Date, viewer?: ReportViewer): Promise<OverviewReport> {
    return scoped(database, userId, filter, now, viewer, (scope) => {
      const openingBalanceCents = getOpeningBalance(scope);
      return {
        basis: scope.basis,
        overview: computeOverview(scope.set, { openingBalanceCents }),
        openingBalanceCents,
        r: computeROverview(scope.set, scope.risk()),
      };
    });
  },

  /** What each of the trader's mistakes cost in the filter's trades. */
  mistakes(database: Database, userId: string, filter: ReportFilter, now: Date, viewer?: ReportViewer): Promise<MistakesReport> {
    return scoped(database, userId, filter, now, viewer, async (scope) => {
      const tags = await readerOf(database, userId, viewer)((tx) => loadMistakeTags(tx, userId));
      return { basis: scope.basis, mistakes: computeMistakes(scope.set, tags, scope.risk()) };
    });
  },

  /**
   * The filter's trades in R, and each day's and week's (the dashboard and its calendar in R). The
   * Trade Log narrows them as its list does: by its search (the list's rule, applied to the copy: search-rows.ts; the
   * notes asked of the database) and less the trades whose delete waits for Undo. The basis still describes the filter.
   */
  r(
    database: Database,
    userId: string,
    filter: ReportFilter,
    now: Date,
    narrow: { q?: string; exclude?: readonly string[] } = {},
    viewer?: ReportViewer,
  ): Promise<RReport> {
    const narrowed = narrowing(database, userId, narrow, viewer);
    return scoped(database, userId, filter, now, viewer, async (scope) => ({
      basis: scope.basis,
      r: summarizeRColumns(scope.set.columns, await narrowed.apply(scope), scope.risk()),
    }));
  },

  /**
   * Compare: each set's Overview figures and equity curves (in dollars and in R), and its breakdown by `by` when asked,
   * each from the engine's own scope of that set's filter, so a set's figures are the ones its Overview, Equity and
   * Breakdown reports show. The sets are read one after another.
   */
  async compare(
    database: Database,
    userId: string,
    filters: readonly ReportFilter[],
    now: Date,
    by?: BreakdownBy,
    viewer?: ReportViewer,
  ): Promise<CompareReport> {
    const sets: CompareSet[] = [];
    for (const filter of filters) {
      sets.push(
        await scoped(database, userId, filter, now, viewer, (scope) => {
          const openingBalanceCents = getOpeningBalance(scope);
          const risk = scope.risk();
          // The curves by trade only: the page draws no day-by-day curve, and leaving it out spares its pass.
          const equity = computeEquityByTrade(scope.set);
          const equityR = computeEquityRByTrade(scope.set, risk);
          return {
            basis: scope.basis,
            overview: computeOverview(scope.set, { openingBalanceCents }),
            openingBalanceCents,
            r: computeROverview(scope.set, risk),
            equity,
            equityR,
            ...(by && {
              breakdown: computeBreakdown(scope.set, by, {
                timeZone: scope.timeZone,
                accountName: scope.accountName,
                risk,
                markets: scope.filter.markets,
              }),
            }),
          };
        }),
      );
    }
    return { sets };
  },

  equity(database: Database, userId: string, filter: ReportFilter, now: Date, viewer?: ReportViewer): Promise<EquityReport> {
    return scoped(database, userId, filter, now, viewer, (scope) => ({
      basis: scope.basis,
      equity: computeEquity(scope.set),
      r: computeEquityR(scope.set, scope.risk()),
    }));
  },

  breakdown(database: Database, userId: string, filter: ReportFilter, by: BreakdownBy, now: Date, viewer?: ReportViewer): Promise<BreakdownReport> {
    return scoped(database, userId, filter, now, viewer, (scope) => ({
      basis: scope.basis,
      breakdown: computeBreakdown(scope.set, by, {
        timeZone: scope.timeZone,
        accountName: scope.accountName,
        risk: scope.risk(),
        markets: scope.filter.markets,
      }),
    }));
  },

  /** The depth figures: weeks, entry-time buckets, drawdown (in all, in R, as a share and per account), streaks of days and the ratios. */
  depth(database: Database, userId: string, filter: ReportFilter, now: Date, viewer?: ReportViewer): Promise<DepthReportAnswer> {
    return scoped(database, userId, filter, now, viewer, (scope) => ({
      basis: scope.basis,
      depth: computeDepth(scope.set, scope.timeZone, {
        risk: scope.risk(),
        startingBalances: scope.startingBalances,
        accountName: scope.accountName,
        accounts: scope.filter.account,
      }),
    }));
  },

  heatmap(database: Database, userId: string, filter: ReportFilter, now: Date, viewer?: ReportViewer): Promise<HeatmapReport> {
    return scoped(database, userId, filter, now, viewer, (scope) => ({
      basis: scope.basis,
      heatmap: computeHeatmap(scope.set, scope.timeZone, scope.risk()),
    }));
  },

  calendar(
    database: Database,
    userId: string,
    filter: ReportFilter,
    year: number | undefined,
    now: Date,
    viewer?: ReportViewer,
  ): Promise<CalendarReport> {
    return scoped(database, userId, filter, now, viewer, (scope) => ({
      basis: scope.basis,
      calendar: computeYearCalendar(scope.set, year ?? null, Number(getTodayInZone(now, scope.timeZone).slice(0, 4)), scope.risk()),
    }));
  },

  /**
   * The MAE/MFE figures stored per trade (trade_excursions, recomputed when bars or the trade change), over the
   * filter's trades. Trades without complete figures are counted, not estimated.
   */
  excursions(database: Database, userId: string, filter: ReportFilter, now: Date, viewer?: ReportViewer): Promise<ExcursionsReport> {
    return scoped(database, userId, filter, now, viewer, async (scope) => {
      const stored = await readerOf(
        database,
        userId,
        viewer,
      )((tx) =>
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
        measured.push({
          result: code === RESULT.WIN ? 'win' : code === RESULT.LOSS ? 'loss' : 'even',
          mae: row.mae,
          mfe: row.mfe,
          capture: row.capture,
        });
      }
      return { basis: scope.basis, excursions: summarizeExcursions(measured, rows.length - measured.length) };
    });
  },

  distribution(
    database: Database,
    userId: string,
    filter: ReportFilter,
    of: DistributionOf,
    now: Date,
    viewer?: ReportViewer,
  ): Promise<DistributionReport> {
    return scoped(database, userId, filter, now, viewer, (scope) => ({
      basis: scope.basis,
      distribution: computeDistribution(scope.set, of, of === 'r' ? scope.risk() : undefined),
    }));
  },

  /**
   * One month of the filter's trades for the printable review: the month's days replace the filter's range, and every
   * part is the figure its own report gives for that filter (one scope, so all parts are of the same trades).
   */
  monthlyReview(
    database: Database,
    userId: string,
    filter: ReportFilter,
    month: string,
    now: Date,
    viewer?: ReportViewer,
  ): Promise<MonthlyReviewReport> {
    const monthFilter: ReportFilter = { ...filter, range: 'custom', ...monthDays(month) };
    return scoped(database, userId, monthFilter, now, viewer, async (scope) => {
      const mistakeTags = await readerOf(database, userId, viewer)((tx) => loadMistakeTags(tx, userId));
      const playbooks = (await playbookReportsInScope(database, userId, scope, viewer)).map(({ id, name, report }) => ({
        key: id,
        label: name,
        trades: report.trades,
        winRate: report.winRate,
        netCents: report.netCents,
      }));
      return {
        basis: scope.basis,
        review: computeMonthlyReview(scope.set, {
          month,
          timeZone: scope.timeZone,
          accountName: scope.accountName,
          risk: scope.risk(),
          markets: scope.filter.markets,
          openingBalanceCents: getOpeningBalance(scope),
          mistakeTags,
          playbooks,
        }),
      };
    });
  },

  /** Every playbook's report over the filter's trades (the By Playbook table). */
  playbooks(database: Database, userId: string, filter: ReportFilter, now: Date, viewer?: ReportViewer): Promise<PlaybooksReport> {
    return scoped(database, userId, filter, now, viewer, async (scope) => ({
      basis: scope.basis,
      playbooks: await playbookReportsInScope(database, userId, scope, viewer),
    }));
  },

  /**
   * The values the trader's trades hold, for the filter bar's choices; for a mentor, those of the shared accounts'
   * trades only (the copy holds every trade of the trader).
   */
  options(database: Database, userId: string, now: Date, viewer?: ReportViewer): Promise<ReportOptions> {
    const none = createReportFilter({ range: 'custom', from: '0001-01-01', to: '0001-01-01' });
    return scoped(database, userId, none, now, viewer, ({ columns: c, accounts }) =>
      viewer ? optionsOfRows(c, rowsOfAccounts(c, accounts)) : optionsOfColumns(c),
    );
  },
};

const texts = (values: Iterable<string | null>) => [...values].filter((v): v is string => Boolean(v)).sort((a, b) => a.localeCompare(b));

function optionsOfColumns(c: TradeColumns): ReportOptions {
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
}

/** The rows of the copy whose account is one of `visible` (never those without an account). */
function rowsOfAccounts(c: TradeColumns, visible: ReadonlyMap<string, string>): number[] {
  const shown = c.account.values.map((id) => id !== null && visible.has(id));
  const rows: number[] = [];
  for (let i = 0; i < c.size; i++) if (shown[c.account.codes[i]!]) rows.push(i);
  return rows;
}

/** The filter bar's choices from these rows' values alone. */
function optionsOfRows(c: TradeColumns, rows: readonly number[]): ReportOptions {
  const used = (column: TradeColumns['symbol']) => texts(new Set(rows.map((i) => column.values[column.codes[i]!] ?? null)));
  const sizes = new Set<number>();
  const tags = new Set<string>();
  for (const i of rows) {
    const q = c.quantity[i]!;
    if (!Number.isNaN(q)) sizes.add(q);
    for (let k = c.tagStart[i]!; k < c.tagStart[i + 1]!; k++) tags.add(c.tagValues[c.tagCodes[k]!]!);
  }
  return {
    symbol: used(c.symbol),
    contract: used(c.contract),
    side: used(c.side),
    setup: used(c.setup),
    session: used(c.session),
    tag: texts(tags),
    size: [...sizes].sort((a, b) => a - b),
    trades: rows.length,
  };
}
