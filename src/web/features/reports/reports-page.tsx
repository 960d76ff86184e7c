import '@mantine/charts/styles.css';
import { Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconCalendarMonth, IconListDetails, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { getTodayInZone } from '../../../domain/dates';
import { BREAKDOWN_LABELS, BREAKDOWNS, type BreakdownBy } from '../../../domain/reports/breakdown';
import { PageHeader } from '../../components/page-header';
import { useScrollCue } from '../../components/scroll-cue';
import { REPORT_VIEWS, type ReportViewId } from '../../lib/pages';
import { preferencesQuery } from '../../shared/api';
import { overviewQuery } from './api';
import { useReportsSource } from './reports-source';
import { BreakdownReport } from './breakdown-report';
import { CalendarReport } from './calendar-report';
import { CompareReport } from './compare-report';
import { DepthReport } from './depth-report';
import { DistributionReport } from './distribution-report';
import { EquityReport } from './equity-report';
import { ExcursionsReport } from './excursions-report';
import { FilterBar } from './filter-bar';
import { SaveViewButton } from './save-view-button';
import { HeatmapReport } from './heatmap-report';
import { OverviewReport } from './overview-report';
import { MistakesReportView } from './mistakes-report';
import { MonthlyReview } from './monthly-review';
import { defaultReviewMonth, REVIEW_MONTH } from '../../../domain/reports/monthly-review';
import { ByPlaybookReport } from '../playbooks/by-playbook-report';
import { useReportFilter } from './use-report-filter';
import classes from './reports.module.css';
import { writeReportFilterParams } from '../../../domain/reports/filter';
import { ShareButton } from '../sharing';

/** The monthly review opens from its own button, not a tab: one more tab would crowd the row. */
type ViewId = ReportViewId | 'monthly';
const MONTHLY_PATH = 'monthly-review';

const DEFAULT_ZONE = 'America/New_York';

/**
 * The Reports page: one filter bar kept in the URL, shared by every report; the report shown is the path
 * (/reports/breakdowns/hour), the filter the query (?range=last-90-days&symbol=NQ), so a report can be shared,
 * bookmarked
 * and walked back and forward. Prints to PDF without the app's chrome.
 */
export function ReportsPage() {
  const source = useReportsSource();
  const location = useLocation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const [filter, setFilter] = useReportFilter();
  const { data: preferences } = useQuery(preferencesQuery);
  const today = useMemo(() => getTodayInZone(new Date(), preferences?.time_zone ?? DEFAULT_ZONE), [preferences?.time_zone]);

  // The report is the path under the page's own address (/reports, or a mentor's Reports tab).
  const [first, second] = location.pathname.slice(source.pagePath.length).replace(/^\/+/, '').split('/');
  const view: ViewId = first === MONTHLY_PATH ? 'monthly' : (REPORT_VIEWS.find((v) => v.path === (first ?? ''))?.id ?? 'overview');
  const by: BreakdownBy = BREAKDOWNS.includes(second as BreakdownBy) ? (second as BreakdownBy) : 'instrument';
  const yearParam = Number(search.get('year'));
  const year = Number.isInteger(yearParam) && yearParam >= 1900 ? yearParam : null;
  const monthParam = search.get('month') ?? '';
  const month = REVIEW_MONTH.test(monthParam) ? monthParam : defaultReviewMonth(today);
  const hrefOf = (path: string) => `${source.pagePath}${path ? `/${path}` : ''}${location.search}`;
  // The page's line under the filter bar counts the filter's trades (the overview's answer, shared with its tab).
  const count = useQuery(overviewQuery(filter, source.base));
  // On a phone most tabs are off the row: a cue at each end that hides some, and the chosen tab kept in view.
  const tabsRow = useRef<HTMLDivElement>(null);
  const cue = useScrollCue(tabsRow, view);

  return (
    <Stack gap="md" className={classes.page} data-testid="reports-page">
      {/* A mentor's tab sits under the mentor's own page heading. */}
      {!source.readOnly && (
        <PageHeader title="Reports" documentTitle={`Reports: ${REPORT_VIEWS.find((v) => v.id === view)?.label ?? 'Monthly review'}`} />
      )}
      <FilterBar
        filter={filter}
        onChange={setFilter}
        label={view === 'compare' ? 'Filter set A' : 'Filters'}
        title={view === 'compare' ? 'A' : undefined}
        actions={
          <>
            {source.tradeLogHref && (
              <Button
                component={Link}
                to={source.tradeLogHref(filter)}
                variant="default"
                leftSection={<IconListDetails size={16} aria-hidden="true" />}
                data-testid="open-in-trade-log"
              >
                Open in Trade Log
              </Button>
            )}
            <Button
              component={Link}
              to={hrefOf(MONTHLY_PATH)}
              variant={view === 'monthly' ? 'filled' : 'default'}
              aria-current={view === 'monthly' ? 'page' : undefined}
              leftSection={<IconCalendarMonth size={16} aria-hidden="true" />}
              data-testid="open-monthly-review"
            >
              Monthly review
            </Button>
            <Button
              variant="default"
              leftSection={<IconPrinter size={16} aria-hidden="true" />}
              onClick={() => window.print()}
              data-testid="print-report"
            >
              Print
            </Button>
            {/* A mentor reads: saving a view or sharing a link would be the mentor's own, of another's trades. */}
            {!source.readOnly && (
              <>
                <SaveViewButton filter={writeReportFilterParams(filter).toString()} />
                <ShareButton kind="report" target={writeReportFilterParams(filter).toString()} />
              </>
            )}
          </>
        }
      />
      {count.data && view !== 'monthly' && (
        <Text size="sm" c="dimmed" data-testid="report-summary" className={classes.summary}>
          {count.data.basis.description} · {count.data.basis.trades.toLocaleString('en-US')} trade{count.data.basis.trades === 1 ? '' : 's'}
          {count.data.basis.currency !== 'USD' && ` · amounts in ${count.data.basis.currency}`}
        </Text>
      )}
      {count.data?.basis.currencyNote && view !== 'monthly' && (
        <Text size="sm" c="dimmed" data-testid="report-currency-note" className={classes.summary}>
          {count.data.basis.currencyNote}
        </Text>
      )}

      <Tabs
        value={view}
        onChange={(next) => {
          const target = REPORT_VIEWS.find((v) => v.id === next);
          if (target) void navigate(hrefOf(target.id === 'breakdowns' ? `breakdowns/${by}` : target.path));
        }}
        keepMounted={false}
        className={classes.noPrint}
      >
        <div className={classes.tabsRow} data-more-start={cue.start || undefined} data-more-end={cue.end || undefined} data-testid="report-tabs-row">
          <Tabs.List ref={tabsRow} className={classes.tabs} aria-label="Reports">
            {REPORT_VIEWS.map((v) => (
              <Tabs.Tab key={v.id} value={v.id} data-testid={`report-tab-${v.id}`}>
                {v.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </div>
      </Tabs>

      {view === 'overview' && <OverviewReport filter={filter} today={today} />}
      {view === 'mistakes' && <MistakesReportView filter={filter} />}
      {view === 'playbooks' && <ByPlaybookReport filter={filter} />}
      {view === 'equity' && <EquityReport filter={filter} onFilterChange={setFilter} today={today} />}
      {view === 'breakdowns' && (
        <>
          <Group gap={6} className={`${classes.noPrint} ${classes.breakdownNav}`} aria-label="Breakdowns" role="navigation">
            {BREAKDOWNS.map((b) => (
              <Button
                key={b}
                component={Link}
                to={hrefOf(`breakdowns/${b}`)}
                size="compact-sm"
                variant={b === by ? 'filled' : 'default'}
                aria-current={b === by ? 'page' : undefined}
                data-testid={`breakdown-link-${b}`}
              >
                {BREAKDOWN_LABELS[b]}
              </Button>
            ))}
          </Group>
          <BreakdownReport filter={filter} by={by} today={today} />
        </>
      )}
      {view === 'heatmap' && <HeatmapReport filter={filter} today={today} />}
      {view === 'depth' && <DepthReport filter={filter} />}
      {view === 'calendar' && (
        <CalendarReport
          filter={filter}
          year={year}
          today={today}
          onYearChange={(next) =>
            setSearch((current) => {
              const updated = new URLSearchParams(current);
              updated.set('year', String(next));
              return updated;
            })
          }
        />
      )}
      {view === 'distributions' && <DistributionReport filter={filter} today={today} />}
      {view === 'excursions' && <ExcursionsReport filter={filter} />}
      {view === 'compare' && <CompareReport filter={filter} today={today} />}
      {view === 'monthly' && (
        <MonthlyReview
          filter={filter}
          month={month}
          onMonthChange={(next) =>
            setSearch((current) => {
              const updated = new URLSearchParams(current);
              updated.set('month', next);
              return updated;
            })
          }
        />
      )}
    </Stack>
  );
}
