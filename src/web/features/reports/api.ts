import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { BreakdownBy, DistributionOf, ReportFilter } from '../../../domain/reports';
import { writeReportFilterParams } from '../../../domain/reports/filter';
import type {
  BreakdownReport,
  CalendarReport,
  DepthReportAnswer,
  DistributionReport,
  EquityReport,
  ExcursionsReport,
  HeatmapReport,
  MistakesReport,
  OverviewReport,
  ReportOptions,
} from '../../../contract/reports';
import type { MistakeTags } from '../../../contract/risk';
import type { NewsFilterStatus } from '../../../contract/economic-calendar';
import type { CompareReport } from '../../../contract/report-compare';
import type { MonthlyReviewReport } from '../../../contract/monthly-review';
import { COMPARE_SET_KEYS } from '../../../domain/reports/compare-sets';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

// The reports' server calls. Their keys start with ['trades'], so every trade mutation (which invalidates ['trades'])
// refreshes the reports on screen too. A filter's key is its URL text: equal filters share a cache entry.

function path(kind: string, filter: ReportFilter, extra: Record<string, string> = {}) {
  const params = writeReportFilterParams(filter);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return `/api/reports/${kind}${text ? `?${text}` : ''}`;
}

/**
 * While a new filter's figures load, the last ones stay on screen (no flash of skeletons on every click), but only
 * figures of the same report and the same grouping: rows by instrument never stand in for rows by hour, whose links
 * would drill into the wrong trades.
 */
const report = <T>(kind: string, filter: ReportFilter, extra: Record<string, string> = {}) =>
  queryOptions({
    queryKey: queryKeys.reports.report(kind, writeReportFilterParams(filter).toString(), extra),
    queryFn: () => apiFetch<T>(path(kind, filter, extra)),
    placeholderData: keepSameReport(kind, extra),
  });

/** `keepPreviousData`, for a previous query of this kind and grouping only. */
function keepSameReport(kind: string, extra: Record<string, string>) {
  const keep = <T>(previous: T | undefined, previousQuery?: { queryKey: readonly unknown[] }) => {
    const key = previousQuery?.queryKey;
    return key && key[2] === kind && sameExtra(key[4] as Record<string, string> | undefined, extra) ? previous : undefined;
  };
  return keep as typeof keepPreviousData;
}

function sameExtra(a: Record<string, string> | undefined, b: Record<string, string>) {
  const keys = Object.keys(b);
  return a !== undefined && Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

export const overviewQuery = (filter: ReportFilter) => report<OverviewReport>('overview', filter);
export const equityQuery = (filter: ReportFilter) => report<EquityReport>('equity', filter);
export const breakdownQuery = (filter: ReportFilter, by: BreakdownBy) => report<BreakdownReport>('breakdown', filter, { by });
export const excursionsQuery = (filter: ReportFilter) => report<ExcursionsReport>('excursions', filter);
export const heatmapQuery = (filter: ReportFilter) => report<HeatmapReport>('heatmap', filter);
export const depthQuery = (filter: ReportFilter) => report<DepthReportAnswer>('depth', filter);
export const calendarQuery = (filter: ReportFilter, year: number | null) =>
  report<CalendarReport>('calendar', filter, year === null ? {} : { year: String(year) });
export const distributionQuery = (filter: ReportFilter, of: DistributionOf) => report<DistributionReport>('distribution', filter, { of });

/**
 * Compare's sets in one request: each set's figures and curves from the server (a..d, each filter as its URL text), and
 * each set's breakdown by `by` when one is picked. While new sets load, the last answer stays on screen only if it has
 * as many sets (and, with a breakdown asked, the breakdown).
 */
export const compareQuery = (filters: readonly ReportFilter[], by: BreakdownBy | null = null) => {
  const sets: Record<string, string> = Object.fromEntries(
    filters.map((filter, i) => [COMPARE_SET_KEYS[i]!, writeReportFilterParams(filter).toString()]),
  );
  if (by) sets.by = by;
  return queryOptions({
    queryKey: queryKeys.reports.report('compare', '', sets),
    queryFn: () => apiFetch<CompareReport>(`/api/reports/compare?${new URLSearchParams(sets)}`),
    placeholderData: (previous: CompareReport | undefined) => (previous && previous.sets.length === filters.length ? previous : undefined),
  });
};

/**
 * A month's review of the filter: the month replaces the filter's date range (on the server too), so the range is
 * left out of the request and every range shares one answer.
 */
export const monthlyReviewQuery = (filter: ReportFilter, month: string) =>
  report<MonthlyReviewReport>('monthly-review', { ...filter, range: 'all-time', from: null, to: null }, { month });

export const mistakesQuery = (filter: ReportFilter) => report<MistakesReport>('mistakes', filter);

/** The tags the trader marks as mistakes: the Mistakes report's list and the filter bar's choices. */
export const mistakeTagsQuery = queryOptions({
  queryKey: queryKeys.mistakeTags.all,
  queryFn: () => apiFetch<MistakeTags>('/api/mistake-tags'),
});

/** Whether the news filter can find anything: a feed is configured and high-impact events are stored. */
export const newsFilterStatusQuery = queryOptions({
  queryKey: queryKeys.economicEvents.news,
  queryFn: () => apiFetch<NewsFilterStatus>('/api/economic-calendar/news'),
  staleTime: 5 * 60_000,
});

export const reportOptionsQuery = queryOptions({
  queryKey: queryKeys.reports.options,
  queryFn: () => apiFetch<ReportOptions>('/api/reports/options'),
  staleTime: 60_000,
});

/**
 * The Trade Log with a filter: 'Open in Trade Log' from a report, a row or a cell. A filter of every account says so
 * (account=all), so that the Trade Log's account selector does not narrow it to the account it had chosen.
 */
export function tradeLogHref(filter: ReportFilter): string {
  const params = writeReportFilterParams(filter);
  if (filter.account.length === 0) params.set('account', 'all');
  return `/trade-log?${params}`;
}
