import { BarChart } from '@mantine/charts';
import { SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DistributionBucket, DistributionOf } from '../../../domain/reports/distribution';
import { formatFigure } from '../../../domain/reports/figures';
import type { ReportFilter } from '../../../domain/reports/filter';
import { describeWithoutRisk } from '../../../domain/risk/format-r';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { distributionQuery } from './api';
import { centsForCsv, csvFileName } from './csv';
import { Money, NoTrades, ReportCard, ReportError, ReportLoading } from './report-card';
import { ReportTable, type ReportColumn } from './report-table';
import classes from './reports.module.css';
import { useReportsSource } from './reports-source';

const TITLES: Record<DistributionOf, string> = { pnl: 'Net P&L per trade', hold: 'Hold time', r: 'R-multiple per trade' };
// The bucket's column: its name differs from the 'Net P&L' column (the bucket's total), in the table and in the CSV.
const HEADERS: Record<DistributionOf, string> = { pnl: 'Net P&L per trade', hold: 'Hold time', r: 'R-multiple' };

/** What a trade in no bucket lacks, in words. */
const describeExcluded = (of: DistributionOf, count: number) =>
  of === 'r' ? describeWithoutRisk(count) : `${count} trade${count === 1 ? '' : 's'} without entry and exit times`;

const columns = (of: DistributionOf): Array<ReportColumn<DistributionBucket>> => [
  {
    id: 'bucket',
    header: HEADERS[of],
    value: (b) => b.from ?? Number.NEGATIVE_INFINITY,
    render: (b) => b.label,
    csv: (b) => b.label,
    numeric: false,
  },
  { id: 'trades', header: 'Trades', value: (b) => b.trades, numeric: true },
  { id: 'winRate', header: 'Win rate', value: (b) => b.winRate, render: (b) => formatFigure('percent', b.winRate), numeric: true },
  {
    id: 'net',
    header: 'Net P&L',
    value: (b) => b.netCents,
    render: (b) => <Money cents={b.netCents} />,
    csv: (b) => centsForCsv(b.netCents),
    numeric: true,
  },
];

/** One histogram with its table; net P&L's card carries the $ / R switch. */
function Histogram({ filter, of, today }: { filter: ReportFilter; of: DistributionOf; today: string }) {
  const { base } = useReportsSource();
  const query = useQuery(distributionQuery(filter, of, base));
  const dist = query.data?.distribution;
  const signed = of !== 'hold';
  return (
    <ReportCard
      title={TITLES[of]}
      description={query.data?.basis.computedFrom}
      busy={query.isPlaceholderData}
      testId={`report-distribution-${of}`}
      actions={signed ? <FigureUnitSwitch /> : undefined}
    >
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !dist ? (
        <ReportLoading />
      ) : dist.buckets.length === 0 ? (
        dist.excluded > 0 ? (
          <Text c="dimmed" ta="center" py="xl" data-testid="report-empty">
            {of === 'r'
              ? `None of these ${dist.excluded} trades has a planned risk: set a stop or a dollar risk on them, or a default in the Trade Log's Risk defaults.`
              : `None of these ${dist.excluded} trades has entry and exit times.`}
          </Text>
        ) : (
          <NoTrades />
        )
      ) : (
        <>
          <div className={classes.chartBox} aria-hidden="true">
            <BarChart
              barChartProps={{ accessibilityLayer: false }}
              h={240}
              data={dist.buckets.map((b) =>
                signed
                  ? { label: b.label, Losing: b.from === null || b.from < 0 ? b.trades : 0, Winning: b.from !== null && b.from >= 0 ? b.trades : 0 }
                  : { label: b.label, Trades: b.trades },
              )}
              dataKey="label"
              type={signed ? 'stacked' : 'default'}
              series={
                signed
                  ? [
                      { name: 'Losing', label: of === 'r' ? 'Trades below 0R' : 'Trades below $0', color: 'red.6' },
                      { name: 'Winning', label: of === 'r' ? 'Trades at 0R or above' : 'Trades at $0 or above', color: 'teal.6' },
                    ]
                  : [{ name: 'Trades', color: 'indigo.6' }]
              }
              xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12, tickFormatter: (label: string) => label.split(' to ')[0] ?? label }}
              yAxisProps={{ allowDecimals: false, width: 44 }}
              gridAxis="y"
              barProps={{ radius: 2 }}
            />
          </div>
          <ReportTable
            caption={`Trades by ${TITLES[of].toLowerCase()}`}
            rows={dist.buckets}
            columns={columns(of)}
            csvName={csvFileName(`distribution-${of}`, today)}
            testId={`distribution-${of}-table`}
            footer={
              dist.excluded > 0 ? (
                <Text size="xs" c="dimmed" data-testid={`distribution-${of}-excluded`}>
                  {describeExcluded(of, dist.excluded)} {dist.excluded === 1 ? 'is' : 'are'} left out.
                </Text>
              ) : undefined
            }
          />
        </>
      )}
    </ReportCard>
  );
}

/** Distributions: net P&L (or R, on the $ / R switch) per trade and hold time, side by side on a wide screen. */
export function DistributionReport({ filter, today }: { filter: ReportFilter; today: string }) {
  const [unit] = useFigureUnit();
  return (
    <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="md">
      <Histogram key={unit} filter={filter} of={unit === 'r' ? 'r' : 'pnl'} today={today} />
      <Histogram filter={filter} of="hold" today={today} />
    </SimpleGrid>
  );
}
