import { createContext, useContext } from 'react';
import type { ReportFilter } from '../../../domain/reports';
import { writeReportFilterParams } from '../../../domain/reports/filter';

/** Where the signed-in trader's own figures come from. */
export const TRADER_REPORTS_BASE = '/api/reports';

/**
 * Whose reports the Reports page draws: the signed-in trader's own, or a trader's as their mentor reads them. The page
 * and every report take all they ask the server and every link they draw from here, so a mentor's page asks only the
 * mentor's routes and links nowhere into the trader's own pages.
 */
export interface ReportsSource {
  /** The API the reports are read from: /api/reports, or /api/mentor/<trader>/reports. */
  base: string;
  /** The page's own address: /reports, or the mentor's Reports tab. */
  pagePath: string;
  /** A mentor reads: nothing that saves, shares or changes the trader's settings is drawn. */
  readOnly: boolean;
  /** The Trade Log with a filter (a report's drill-down), or null where there is no such page to open. */
  tradeLogHref: ((filter: ReportFilter) => string) | null;
  /** The accounts the filter bar offers; null for the trader's own (their accounts list). */
  accounts: ReadonlyArray<{ id: string; name: string }> | null;
}

/**
 * The Trade Log with a filter: 'Open in Trade Log' from a report, a row or a cell. A filter of every account says so
 * (account=all), so that the Trade Log's account selector does not narrow it to the account it had chosen.
 */
export function tradeLogHref(filter: ReportFilter): string {
  const params = writeReportFilterParams(filter);
  if (filter.account.length === 0) params.set('account', 'all');
  return `/trade-log?${params}`;
}

export const TRADER_REPORTS: ReportsSource = {
  base: TRADER_REPORTS_BASE,
  pagePath: '/reports',
  readOnly: false,
  tradeLogHref,
  accounts: null,
};

/** A mentor's read-only look at a trader's reports: no drill-down, since the mentor's Trade Log tab takes no filter. */
export const mentorReportsSource = (traderId: string, accounts: ReadonlyArray<{ id: string; name: string }>): ReportsSource => ({
  base: `/api/mentor/${encodeURIComponent(traderId)}/reports`,
  pagePath: `/mentor/${encodeURIComponent(traderId)}/reports`,
  readOnly: true,
  tradeLogHref: null,
  accounts,
});

export const ReportsApiBase = createContext<ReportsSource>(TRADER_REPORTS);

export const useReportsSource = () => useContext(ReportsApiBase);
