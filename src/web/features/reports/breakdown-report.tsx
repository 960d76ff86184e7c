import { BarChart } from '@mantine/charts';
import { Grid, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { formatUsd } from '../../../domain/money';
import {
  BREAKDOWN_LABELS,
  BREAKDOWN_MISSING,
  fillHourSpan,
  getBreakdownRowFilter,
  type BreakdownBy,
  type BreakdownRow,
} from '../../../domain/reports/breakdown';
import { formatFigure } from '../../../domain/reports/figures';
import type { ReportFilter } from '../../../domain/reports/filter';
import { describeWithoutRisk, formatR } from '../../../domain/risk/format-r';
import { pnlColor } from '../../lib/tone';
import { FigureUnitSwitch, useFigureUnit, type FigureUnit } from '../../shared/figure-unit';
import { breakdownQuery } from './api';
import { BreakdownColumnChooser, useBreakdownColumns, useShownColumns } from './breakdown-columns';
import { centsForCsv, csvFileName } from './csv';
import { formatDollarsAxis, formatDollarsTooltip, Money, NoTrades, ReportCard, ReportError, ReportLoading, toDollars } from './report-card';
import { ReportTable, type ReportColumn } from './report-table';
import classes from './reports.module.css';
import { useReportsSource } from './reports-source';

/** Dimensions read along an axis (a column chart); the others are categories (bars, the largest first). */
const ORDINAL: ReadonlySet<BreakdownBy> = new Set(['weekday', 'hour', 'hold', 'size', 'month', 'year']);
/** A chart of more categories than this shows the most traded; the table has them all. */
const CHART_ROWS = 20;
const SERIES: Record<FigureUnit, string> = { usd: 'Net P&L', r: 'Net R' };
const formatRAxis = (r: number) => `${r + 0}R`;

const labelColumn = (by: BreakdownBy): ReportColumn<BreakdownRow> => ({
  id: 'label',
  header: BREAKDOWN_LABELS[by],
  value: (r) => (ORDINAL.has(by) ? r.key : r.label),
  render: (r) => r.label,
  csv: (r) => r.label,
  numeric: false,
});

const rText = (r: number | null) => (r === null ? '—' : formatR(r));
const rCell = (r: number | null, bold = true) => (
  <Text span inherit fw={bold ? 700 : 400} c={r === null ? undefined : pnlColor(r)}>
    {rText(r)}
  </Text>
);

/** The breakdown in R: each row's net and expectancy in R, its trades without a planned risk apart. */
export const breakdownRColumns = (by: BreakdownBy): Array<ReportColumn<BreakdownRow>> => [
  labelColumn(by),
  { id: 'trades', header: 'Trades', value: (r) => r.trades, numeric: true },
  { id: 'winRate', header: 'Win rate', value: (r) => r.winRate, render: (r) => formatFigure('percent', r.winRate), numeric: true },
  { id: 'netR', header: 'Net R', value: (r) => r.r.totalR, render: (r) => rCell(r.r.totalR), numeric: true },
  { id: 'expectancyR', header: 'Expectancy', value: (r) => r.r.expectancyR, render: (r) => rCell(r.r.expectancyR, false), numeric: true },
  { id: 'withoutRisk', header: 'Without a planned risk', value: (r) => r.r.tradesWithoutRisk, numeric: true },
  { id: 'share', header: 'Share of trades', value: (r) => r.sharePercent, render: (r) => formatFigure('percent', r.sharePercent), numeric: true },
];

export const breakdownColumns = (by: BreakdownBy): Array<ReportColumn<BreakdownRow>> => [
  labelColumn(by),
  { id: 'trades', header: 'Trades', value: (r) => r.trades, numeric: true },
  { id: 'winRate', header: 'Win rate', value: (r) => r.winRate, render: (r) => formatFigure('percent', r.winRate), numeric: true },
  {
    id: 'gross',
    header: 'Gross P&L',
    value: (r) => r.grossCents,
    render: (r) => <Money cents={r.grossCents} fw={400} />,
    csv: (r) => centsForCsv(r.grossCents),
    numeric: true,
  },
  {
    id: 'fees',
    header: 'Fees',
    value: (r) => r.feesCents,
    render: (r) => formatUsd(r.feesCents),
    csv: (r) => centsForCsv(r.feesCents),
    numeric: true,
  },
  {
    id: 'net',
    header: 'Net P&L',
    value: (r) => r.netCents,
    render: (r) => <Money cents={r.netCents} />,
    csv: (r) => centsForCsv(r.netCents),
    numeric: true,
  },
  {
    id: 'average',
    header: 'Average',
    value: (r) => r.averageCents,
    render: (r) => <Money cents={r.averageCents} fw={400} />,
    csv: (r) => centsForCsv(r.averageCents),
    numeric: true,
  },
  {
    id: 'profitFactor',
    header: 'Profit factor',
    value: (r) => (r.profitFactor === null && r.grossProfitCents > 0 ? Number.POSITIVE_INFINITY : r.profitFactor),
    render: (r) => formatFigure('ratio', r.profitFactor, r.profitFactor === null && r.grossProfitCents > 0),
    csv: (r) => (r.profitFactor === null && r.grossProfitCents > 0 ? '∞' : r.profitFactor),
    numeric: true,
  },
  {
    id: 'expectancy',
    header: 'Expectancy',
    value: (r) => r.expectancyCents,
    render: (r) => <Money cents={r.expectancyCents} fw={400} />,
    csv: (r) => centsForCsv(r.expectancyCents),
    numeric: true,
  },
  { id: 'share', header: 'Share of trades', value: (r) => r.sharePercent, render: (r) => formatFigure('percent', r.sharePercent), numeric: true },
];

/**
 * A breakdown: a sortable table beside its chart, each row a link to its trades in the Trade Log.
 * Trades that lack the dimension (no entry time for the hour) are in no row and counted under the table.
 */
export function BreakdownReport({ filter, by, today }: { filter: ReportFilter; by: BreakdownBy; today: string }) {
  const source = useReportsSource();
  const query = useQuery(breakdownQuery(filter, by, source.base));
  const { tradeLogHref } = source;
  const [unit] = useFigureUnit();
  const data = query.data;
  const chartRows = useMemo(() => {
    const rows = data?.breakdown.rows ?? [];
    // Hours run along the axis with the empty ones between as zero; sessions keep their clock order.
    const shown =
      by === 'hour'
        ? fillHourSpan(rows)
        : (ORDINAL.has(by) || by === 'session' ? rows : [...rows].sort((a, b) => b.trades - a.trades).slice(0, CHART_ROWS)).map((r) => ({
            label: r.label,
            trades: r.trades,
            netCents: r.netCents,
            totalR: r.r.totalR,
          }));
    // In R, a row without a planned risk has no bar (not a bar of 0R).
    return unit === 'r'
      ? shown.filter((r) => r.totalR !== null).map((r) => ({ label: r.label, [SERIES.r]: r.totalR! }))
      : shown.map((r) => ({ label: r.label, [SERIES.usd]: toDollars(r.netCents) }));
  }, [data, by, unit]);
  const { isShown, setShown } = useBreakdownColumns();
  const allColumns = useMemo(() => (unit === 'r' ? breakdownRColumns(by) : breakdownColumns(by)), [unit, by]);
  const columns = useShownColumns(allColumns, isShown);
  const range = data?.basis.range ?? { from: null, to: null };
  const missing = BREAKDOWN_MISSING[by];

  return (
    <ReportCard
      title={`By ${BREAKDOWN_LABELS[by].toLowerCase()}`}
      description={data?.basis.computedFrom}
      busy={query.isPlaceholderData}
      testId="report-breakdown"
      actions={
        <Group gap="xs" wrap="nowrap">
          <BreakdownColumnChooser columns={allColumns} isShown={isShown} setShown={setShown} />
          <FigureUnitSwitch />
        </Group>
      }
    >
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !data ? (
        <ReportLoading />
      ) : data.breakdown.rows.length === 0 && data.breakdown.excluded === 0 ? (
        <NoTrades />
      ) : (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, lg: 4 }} className={classes.chartBox} aria-hidden="true">
            {chartRows.length > 0 && (
              <BarChart
                barChartProps={{ accessibilityLayer: false }}
                h={ORDINAL.has(by) ? 300 : Math.max(160, chartRows.length * 30 + 40)}
                data={chartRows}
                dataKey="label"
                orientation={ORDINAL.has(by) ? 'horizontal' : 'vertical'}
                series={[{ name: SERIES[unit], color: 'teal.6' }]}
                getBarColor={(value) => (value >= 0 ? 'teal.6' : 'red.6')}
                valueFormatter={unit === 'r' ? formatR : formatDollarsTooltip}
                {...(ORDINAL.has(by)
                  ? {
                      yAxisProps: { tickFormatter: unit === 'r' ? formatRAxis : formatDollarsAxis, width: 60 },
                      xAxisProps: { interval: 'preserveStartEnd' as const, minTickGap: 8 },
                    }
                  : { xAxisProps: { tickFormatter: unit === 'r' ? formatRAxis : formatDollarsAxis }, yAxisProps: { width: 110 } })}
                gridAxis={ORDINAL.has(by) ? 'y' : 'x'}
                maxBarWidth={40}
              />
            )}
            {!ORDINAL.has(by) && data.breakdown.rows.length > CHART_ROWS && (
              <Text size="xs" c="dimmed">
                The chart shows the {CHART_ROWS} most traded; the table has all {data.breakdown.rows.length}.
              </Text>
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 8 }} className={classes.chartBox}>
            <ReportTable
              key={unit}
              caption={`${SERIES[unit]} by ${BREAKDOWN_LABELS[by].toLowerCase()}`}
              rows={data.breakdown.rows}
              columns={columns}
              rowHref={tradeLogHref ? (r) => tradeLogHref(getBreakdownRowFilter(filter, range, by, r.key)) : undefined}
              rowLabel={(r) =>
                `${r.label}, ${r.trades} trade${r.trades === 1 ? '' : 's'}, ${unit === 'r' ? rText(r.r.totalR) : formatUsd(r.netCents)}`
              }
              csvName={csvFileName(unit === 'r' ? `by-${by}-in-r` : `by-${by}`, today)}
              testId="breakdown-table"
              footer={
                (missing && data.breakdown.excluded > 0) || (unit === 'r' && data.breakdown.tradesWithoutRisk > 0) ? (
                  <Stack gap={2}>
                    {missing && data.breakdown.excluded > 0 && (
                      <Text size="xs" c="dimmed" data-testid="breakdown-excluded">
                        {data.breakdown.excluded} trade{data.breakdown.excluded === 1 ? '' : 's'} {missing}{' '}
                        {data.breakdown.excluded === 1 ? 'is' : 'are'} left out.
                      </Text>
                    )}
                    {unit === 'r' && data.breakdown.tradesWithoutRisk > 0 && (
                      <Text size="xs" c="dimmed" data-testid="breakdown-without-risk">
                        {describeWithoutRisk(data.breakdown.tradesWithoutRisk)}: counted in the trades, left out of R.
                      </Text>
                    )}
                  </Stack>
                ) : undefined
              }
            />
          </Grid.Col>
        </Grid>
      )}
    </ReportCard>
  );
}
