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
import type { CompareReport, CompareSet } from '../../../contract/report-compare';
import type { MonthlyReviewReport } from '../../../contract/monthly-review';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';
import { TRADER_REPORTS_BASE } from './reports-source';

// The reports' server calls. Their keys start with ['trades'], so every trade mutation (which invalidates ['trades'])
// refreshes the reports on screen too. A filter's key is its URL text: equal filters share a cache entry.

function path(base: string, kind: string, filter: ReportFilter, extra: Record<string, string> = {}) {
  const params = writeReportFilterParams(filter);
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return `${base}/${kind}${text ? `?${text}` : ''}`;
}

/**
 * While a new filter's figures load, the last ones stay on screen (no flash of skeletons on every click), but only
 * figures of the same report and the same grouping: rows by instrument never stand in for rows by hour, whose links
 * would drill into the wrong trades.
 */
const report = <T>(base: string, kind: string, filter: ReportFilter, extra: Record<string, string> = {}) =>
  queryOptions({
    queryKey: queryKeys.reports.report(kind, writeReportFilterParams(filter).toString(), extra, base),
    queryFn: () => apiFetch<T>(path(base, kind, filter, extra)),
    placeholderData: keepSameReport(base, kind, extra),
  });

/** `keepPreviousData`, for a previous query of this kind and grouping, from the same source, only. */
function keepSameReport(base: string, kind: string, extra: Record<string, string>) {
  const keep = <T>(previous: T | undefined, previousQuery?: { queryKey: readonly unknown[] }) => {
    const key = previousQuery?.queryKey;
    return key && key[2] === kind && key[5] === base && sameExtra(key[4] as Record<string, string> | undefined, extra) ? previous : undefined;
  };
  return keep as typeof keepPreviousData;
}

function sameExtra(a: Record<string, string> | undefined, b: Record<string, string>) {
  const keys = Object.keys(b);
  return a !== undefined && Object.keys(a).length === keys.length && keys.every((k) => a[k] === b[k]);
}

// Each query's `base` is the reports' source (reports-source.ts): the trader's own API unless a mentor's page says.
const B = TRADER_REPORTS_BASE;
export const overviewQuery = (filter: ReportFilter, base = B) => report<OverviewReport>(base, 'overview', filter);
export const equityQuery = (filter: ReportFilter, base = B) => report<EquityReport>(base, 'equity', filter);
export const breakdownQuery = (filter: ReportFilter, by: BreakdownBy, base = B) => report<BreakdownReport>(base, 'breakdown', filter, { by });
export const excursionsQuery = (filter: ReportFilter, base = B) => report<ExcursionsReport>(base, 'excursions', filter);
export const heatmapQuery = (filter: ReportFilter, base = B) => report<HeatmapReport>(base, 'heatmap', filter);
export const depthQuery = (filter: ReportFilter, base = B) => report<DepthReportAnswer>(base, 'depth', filter);
export const calendarQuery = (filter: ReportFilter, year: number | null, base = B) =>
  report<CalendarReport>(base, 'calendar', filter, year === null ? {} : { year: String(year) });
export const distributionQuery = (filter: ReportFilter, of: DistributionOf, base = B) =>
  report<DistributionReport>(base, 'distribution', filter, { of });

/**
 * One of Compare's sets: its figures and curves from the server (the set's filter as `a`, one set a request), and its
 * breakdown by `by` when one is picked. Each set is its own query, so a change to one set's filter reads that set alone
 * while the others stay as they are; the page keeps a set's last figures on screen while its new ones load.
 */
export const compareSetQuery = (filter: ReportFilter, by: BreakdownBy | null = null, base = B) => {
  const text = writeReportFilterParams(filter).toString();
  const params = new URLSearchParams({ a: text });
  if (by) params.set('by', by);
  return queryOptions({
    queryKey: queryKeys.reports.compareSet(text, by ?? '', base),
    queryFn: async (): Promise<CompareSet> => {
      const answer = await apiFetch<CompareReport>(`${base}/compare?${params}`);
      return answer.sets[0]!;
    },
  });
};

/**
 * A month's review of the filter: the month replaces the filter's date range (on the server too), so the range is
 * left out of the request and every range shares one answer.
 */
export const monthlyReviewQuery = (filter: ReportFilter, month: string, base = B) =>
  report<MonthlyReviewReport>(base, 'monthly-review', { ...filter, range: 'all-time', from: null, to: null }, { month });

export const mistakesQuery = (filter: ReportFilter, base = B) => report<MistakesReport>(base, 'mistakes', filter);

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

/** The filter bar's choices: the values the source's trades hold. */
export const reportOptionsQuery = (base = B) =>
  queryOptions({
    queryKey: queryKeys.reports.optionsOf(base),
    queryFn: () => apiFetch<ReportOptions>(`${base}/options`),
    staleTime: 60_000,
  });
