import { Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { addDays, addMonths, formatCalendarDay, parseCalendarDay } from '../../../domain/dates';
import { compareOverviews, compareROverviews, formatDifference, formatFigure, type FigureComparison, type RComparison } from '../../../domain/reports/figures';
import { REPORT_FILTER_KEYS, writeReportFilterParams, type ReportFilter } from '../../../domain/reports/filter';
import { describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { TONE_COLOR } from '../../lib/tone';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
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

/** A figure of Compare in R as the Overview in R writes it: '+1.25R', a profit factor '1.50' or '∞', a count. */
const rValue = (kind: RComparison['kind'], v: number | null, infinite?: boolean) =>
  infinite ? '∞' : v === null ? '—' : kind === 'r' ? formatR(v) : kind === 'ratio' ? v.toFixed(2) : v.toLocaleString('en-US');
const rDifference = (kind: RComparison['kind'], v: number | null) => {
  if (v === null) return '—';
  if (kind === 'r') return formatR(v);
  const sign = v > 0 ? '+' : v < 0 ? '-' : '';
  return `${sign}${kind === 'ratio' ? Math.abs(v).toFixed(2) : Math.abs(v)}`;
};

const rColumns: Array<ReportColumn<RComparison>> = [
  { id: 'figure', header: 'Figure', value: (r) => r.label },
  { id: 'a', header: 'A', value: (r) => r.a, render: (r) => rValue(r.kind, r.a, r.aInfinite), csv: (r) => (r.aInfinite ? '∞' : r.a), numeric: true },
  { id: 'b', header: 'B', value: (r) => r.b, render: (r) => rValue(r.kind, r.b, r.bInfinite), csv: (r) => (r.bInfinite ? '∞' : r.b), numeric: true },
  {
    id: 'difference',
    header: 'B − A',
    value: (r) => r.difference,
    render: (r) => (
      <Text span size="sm" fw={r.favours ? 600 : 400} c={r.favours === 'b' ? TONE_COLOR.positive : r.favours === 'a' ? TONE_COLOR.negative : undefined}>
        {rDifference(r.kind, r.difference)}
      </Text>
    ),
    csv: (r) => r.difference,
    numeric: true,
  },
];

/**
 * Compare: the page's filter (A) against a second one (B, kept in the URL as b.*), every Overview
 * figure side by side with B − A, coloured by which side it favours. Presets set both sides at once. On the $ / R
 * switch, every figure the Overview shows in R, each side of its trades with a planned risk.
 */
export function CompareReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const [other, setOther] = useReportFilter(COMPARE_PREFIX);
  const [, setParams] = useSearchParams();
  const a = useQuery(overviewQuery(filter));
  const b = useQuery(overviewQuery(other));
  const [unit] = useFigureUnit();
  const inR = unit === 'r';

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
  const rRows = a.data && b.data ? compareROverviews(a.data.r, b.data.r) : null;
  const side = (data: NonNullable<typeof a.data>) =>
    `${data.basis.trades} trades${inR && data.r.tradesWithoutRisk > 0 ? `; ${describeWithoutRisk(data.r.tradesWithoutRisk)}, left out of R` : ''}`;
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
              A: {a.data.basis.description} ({side(a.data)})
              <br />
              B: {b.data.basis.description} ({side(b.data)})
            </>
          ) : undefined
        }
        busy={a.isPlaceholderData || b.isPlaceholderData}
        testId="report-compare"
        actions={<FigureUnitSwitch />}
      >
        {a.isError || b.isError ? (
          <ReportError error={a.error ?? b.error} />
        ) : !rows || !rRows ? (
          <ReportLoading height={400} />
        ) : inR ? (
          <ReportTable
            key="r"
            caption="Every overview figure in R of A and B, with B minus A (each side of its trades with a planned risk)"
            rows={rRows}
            columns={rColumns}
            csvName={csvFileName('compare-in-r', today)}
            testId="compare-table"
          />
        ) : (
          <ReportTable key="usd" caption="Every overview figure of A and B, with B minus A" rows={rows} columns={columns} csvName={csvFileName('compare', today)} testId="compare-table" />
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
