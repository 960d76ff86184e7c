import { Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { addDays, addMonths, formatCalendarDay, parseCalendarDay } from '../../../domain/dates';
import { compareOverviews, formatDifference, formatFigure, type FigureComparison } from '../../../domain/reports/figures';
import { REPORT_FILTER_KEYS, writeReportFilterParams, type ReportFilter } from '../../../domain/reports/filter';
import { TONE_COLOR } from '../../lib/tone';
import { overviewQuery } from './api';
import { centsForCsv, csvFileName } from './csv';
import { FilterBar } from './filter-bar';
import { ReportCard, ReportError, ReportLoading } from './report-card';
import { ReportTable, type ReportColumn } from './report-table';
import { useReportFilter } from './use-report-filter';

export const COMPARE_PREFIX = 'b.';

const value = (kind: FigureComparison['kind'], v: number | null, infinite?: boolean) => formatFigure(kind, v, infinite);
const csvValue = (kind: FigureComparison['kind'], v: number | null, infinite?: boolean) => (infinite ? '∞' : kind === 'money' ? centsForCsv(v) : v);

const columns: Array<ReportColumn<FigureComparison>> = [
  { id: 'figure', header: 'Figure', value: (r) => r.label },
  { id: 'a', header: 'A', value: (r) => r.a, render: (r) => value(r.kind, r.a, r.aInfinite), csv: (r) => csvValue(r.kind, r.a, r.aInfinite), numeric: true },
  { id: 'b', header: 'B', value: (r) => r.b, render: (r) => value(r.kind, r.b, r.bInfinite), csv: (r) => csvValue(r.kind, r.b, r.bInfinite), numeric: true },
  {
    id: 'difference',
    header: 'B − A',
    value: (r) => r.difference,
    render: (r) => (
      <Text span size="sm" fw={r.favours ? 600 : 400} c={r.favours === 'b' ? TONE_COLOR.positive : r.favours === 'a' ? TONE_COLOR.negative : undefined}>
        {formatDifference(r.kind, r.difference)}
      </Text>
    ),
    csv: (r) => (r.kind === 'money' ? centsForCsv(r.difference) : r.difference),
    numeric: true,
  },
];

/**
 * Compare (issue 26 point 6): the page's filter (A) against a second one (B, kept in the URL as b.*), every Overview
 * figure side by side with B − A, coloured by which side it favours. Presets set both sides at once.
 */
export function CompareReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const [other, setOther] = useReportFilter(COMPARE_PREFIX);
  const [, setParams] = useSearchParams();
  const a = useQuery(overviewQuery(filter));
  const b = useQuery(overviewQuery(other));

  const setBoth = (left: ReportFilter, right: ReportFilter) =>
    setParams((current) => {
      const next = new URLSearchParams();
      for (const [key, v] of current) if (!key.startsWith(COMPARE_PREFIX) && !FILTER_KEYS.has(key)) next.append(key, v);
      for (const [key, v] of writeReportFilterParams(left)) next.append(key, v);
      for (const [key, v] of writeReportFilterParams(right)) next.append(`${COMPARE_PREFIX}${key}`, v);
      return next;
    });

  const { month, lastMonth } = monthsOf(today);
  const presets: Array<{ id: string; label: string; a: ReportFilter; b: ReportFilter }> = [
    { id: 'mornings', label: 'Mornings vs afternoons', a: { ...filter, hour: [6, 7, 8, 9, 10, 11] }, b: { ...filter, hour: [12, 13, 14, 15, 16, 17] } },
    { id: 'months', label: 'Last month vs this month', a: { ...filter, range: 'custom', ...lastMonth }, b: { ...filter, range: 'custom', ...month } },
    { id: 'sides', label: 'Longs vs shorts', a: { ...filter, side: ['Long'] }, b: { ...filter, side: ['Short'] } },
  ];

  const rows = a.data && b.data ? compareOverviews(a.data.overview, b.data.overview) : null;
  return (
    <Stack gap="md">
      <FilterBar filter={other} onChange={setOther} label="Filter set B" title="B" testId="compare-filters-b" />
      <Group gap="xs" data-testid="compare-presets">
        <Text size="sm" c="dimmed">
          Compare:
        </Text>
        {presets.map((p) => (
          <Button key={p.id} variant="light" size="compact-sm" onClick={() => setBoth(p.a, p.b)} data-testid={`compare-preset-${p.id}`}>
            {p.label}
          </Button>
        ))}
      </Group>
      <ReportCard
        title="A against B"
        description={
          a.data && b.data ? (
            <>
              A: {a.data.basis.description} ({a.data.basis.trades} trades)
              <br />
              B: {b.data.basis.description} ({b.data.basis.trades} trades)
            </>
          ) : undefined
        }
        busy={a.isPlaceholderData || b.isPlaceholderData}
        testId="report-compare"
      >
        {a.isError || b.isError ? (
          <ReportError error={a.error ?? b.error} />
        ) : !rows ? (
          <ReportLoading height={400} />
        ) : (
          <ReportTable caption="Every overview figure of A and B, with B minus A" rows={rows} columns={columns} csvName={csvFileName('compare', today)} testId="compare-table" />
        )}
      </ReportCard>
    </Stack>
  );
}

const FILTER_KEYS: ReadonlySet<string> = new Set(REPORT_FILTER_KEYS);

/** This month so far and the whole month before it. */
function monthsOf(today: string) {
  const { year, month } = parseCalendarDay(today)!;
  const first = formatCalendarDay(year, month, 1);
  const lastFirst = addMonths(first, -1);
  return { month: { from: first, to: today }, lastMonth: { from: lastFirst, to: addDays(first, -1) } };
}
