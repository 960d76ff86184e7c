import { AreaChart } from '@mantine/charts';
import { Button, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { formatDay } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { sampleEquity, type EquityPoint } from '../../../domain/reports/equity';
import { UNASSIGNED, type ReportFilter } from '../../../domain/reports/filter';
import { accountsQuery } from '../../shared/api';
import { equityQuery } from './api';
import { centsForCsv, csvFileName, downloadCsv } from './csv';
import { formatDollarsAxis, formatDollarsTooltip, NoTrades, ReportCard, ReportError, ReportLoading, toDollars } from './report-card';
import { ReportTable, type ReportColumn } from './report-table';

type Basis = 'trade' | 'day';

/** The screen-reader table of a long curve: its shape in at most this many rows. */
const TABLE_POINTS = 240;

/** Equity (issue 26 point 3): cumulative net P&L by trade or by day, its drawdown under it; all accounts or one. */
export function EquityReport({ filter, onFilterChange, today }: { filter: ReportFilter; onFilterChange: (f: ReportFilter) => void; today: string }) {
  const [basis, setBasis] = useState<Basis>('trade');
  const query = useQuery(equityQuery(filter));
  const { data: accounts } = useQuery(accountsQuery);
  const points = basis === 'trade' ? query.data?.equity.byTrade : query.data?.equity.byDay;
  const chartData = useMemo(
    () =>
      (points ?? []).map((p) => ({
        x: basis === 'trade' ? `#${p.index}` : formatDay(p.tradeDate, 'MMM d, yyyy'),
        Equity: toDollars(p.equityCents),
        Drawdown: toDollars(p.drawdownCents),
      })),
    [points, basis],
  );
  const tableRows = useMemo(() => sampleEquity(points ?? [], TABLE_POINTS), [points]);
  const accountValue = filter.account.length === 1 ? filter.account[0]! : filter.account.length === 0 ? 'all' : null;
  const columns: Array<ReportColumn<EquityPoint>> = [
    { id: 'point', header: basis === 'trade' ? 'Trade' : 'Day', value: (p) => (basis === 'trade' ? p.index : p.tradeDate), numeric: basis === 'trade' },
    { id: 'day', header: 'Trading day', value: (p) => p.tradeDate },
    { id: 'equity', header: 'Cumulative net P&L', value: (p) => p.equityCents, render: (p) => formatUsd(p.equityCents), csv: (p) => centsForCsv(p.equityCents), numeric: true },
    { id: 'drawdown', header: 'Drawdown', value: (p) => p.drawdownCents, render: (p) => formatUsd(p.drawdownCents), csv: (p) => centsForCsv(p.drawdownCents), numeric: true },
  ];

  return (
    <ReportCard
      title="Equity"
      description={query.data?.basis.computedFrom}
      busy={query.isPlaceholderData}
      testId="report-equity"
      actions={
        <>
          <Select
            aria-label="Accounts of the curve"
            size="xs"
            w={180}
            data={[{ value: 'all', label: 'All accounts' }, ...(accounts ?? []).map((a) => ({ value: a.id, label: a.name })), { value: UNASSIGNED, label: 'Unassigned' }]}
            value={accountValue}
            placeholder="Several accounts"
            onChange={(value) => value && onFilterChange({ ...filter, account: value === 'all' ? [] : [value] })}
            allowDeselect={false}
            data-testid="equity-account"
          />
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconFileTypeCsv size={16} aria-hidden="true" />}
            disabled={!points?.length}
            onClick={() =>
              void downloadCsv(
                csvFileName(`equity-by-${basis}${basis === 'trade' && query.data?.equity.sampled ? '-sampled' : ''}`, today),
                columns.map((c) => c.header),
                (points ?? []).map((p) => columns.map((c) => (c.csv ? c.csv(p) : c.value(p)))),
              )
            }
            data-testid="equity-csv"
          >
            Export CSV
          </Button>
          <SegmentedControl
            size="xs"
            aria-label="Points of the curve"
            data={[
              { value: 'trade', label: 'By trade' },
              { value: 'day', label: 'By day' },
            ]}
            value={basis}
            onChange={(value) => setBasis(value as Basis)}
            data-testid="equity-basis"
          />
        </>
      }
    >
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !query.data ? (
        <ReportLoading height={360} />
      ) : chartData.length === 0 ? (
        <NoTrades />
      ) : (
        <Stack gap="xs">
          <div aria-hidden="true">
            <AreaChart
              h={260}
              data={chartData}
              dataKey="x"
              series={[{ name: 'Equity', label: 'Cumulative net P&L', color: 'indigo.6' }]}
              curveType="linear"
              withDots={false}
              fillOpacity={0.25}
              valueFormatter={formatDollarsTooltip}
              yAxisProps={{ tickFormatter: formatDollarsAxis, width: 64 }}
              xAxisProps={{ minTickGap: 40 }}
              gridAxis="y"
              areaChartProps={{ accessibilityLayer: false }}
            />
            <Text size="sm" fw={600} mt="xs">
              Drawdown (under water)
            </Text>
            <AreaChart
              h={140}
              data={chartData}
              dataKey="x"
              series={[{ name: 'Drawdown', label: 'Below the peak', color: 'red.6' }]}
              curveType="linear"
              withDots={false}
              fillOpacity={0.35}
              valueFormatter={formatDollarsTooltip}
              yAxisProps={{ tickFormatter: formatDollarsAxis, width: 64 }}
              xAxisProps={{ minTickGap: 40 }}
              gridAxis="y"
              areaChartProps={{ accessibilityLayer: false }}
            />
          </div>
          {basis === 'trade' && query.data.equity.sampled && (
            <Text size="xs" c="dimmed">
              {query.data.equity.trades.toLocaleString('en-US')} trades drawn as {points?.length.toLocaleString('en-US')} points that keep every peak, trough and drawdown low.
            </Text>
          )}
          <ReportTable
            hidden
            caption={`Cumulative net P&L and drawdown by ${basis}${tableRows.length < (points?.length ?? 0) ? ', sampled' : ''}`}
            rows={tableRows}
            columns={columns}
            csvName={csvFileName(`equity-by-${basis}`, today)}
          />
        </Stack>
      )}
    </ReportCard>
  );
}
