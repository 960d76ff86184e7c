import { AreaChart } from '@mantine/charts';
import { Button, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { formatDay } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { sampleEquity, type EquityPoint, type EquityRPoint } from '../../../domain/reports/equity';
import { UNASSIGNED, type ReportFilter } from '../../../domain/reports/filter';
import { formatR } from '../../../domain/risk/format-r';
import { accountsQuery } from '../../shared/api';
import { FigureUnitSwitch, useFigureUnit } from '../../shared/figure-unit';
import { equityQuery } from './api';
import { centsForCsv, csvFileName, downloadCsv } from './csv';
import { formatDollarsAxis, formatDollarsTooltip, NoTrades, ReportCard, ReportError, ReportLoading, toDollars } from './report-card';
import { describeRBasis, formatRAxis, NoPlannedRisk } from './r-figures';
import { ReportTable, type ReportColumn } from './report-table';
import { useReportsSource } from './reports-source';

type Basis = 'trade' | 'day';

/** The screen-reader table of a long curve: its shape in at most this many rows. */
const TABLE_POINTS = 240;

/** A point of either curve, in the unit shown: cents or R. */
interface CurvePoint {
  index: number;
  tradeDate: string;
  equity: number;
  drawdown: number;
}
const fromDollars = (p: EquityPoint): CurvePoint => ({ index: p.index, tradeDate: p.tradeDate, equity: p.equityCents, drawdown: p.drawdownCents });
const fromR = (p: EquityRPoint): CurvePoint => ({ index: p.index, tradeDate: p.tradeDate, equity: p.equityR, drawdown: p.drawdownR });

/**
 * Equity: cumulative net P&L by trade or by day, its drawdown under it; all accounts or one. On the
 * $ / R switch, the cumulative R of the trades with a planned risk and its drawdown in R.
 */
export function EquityReport({ filter, onFilterChange, today }: { filter: ReportFilter; onFilterChange: (f: ReportFilter) => void; today: string }) {
  const [basis, setBasis] = useState<Basis>('trade');
  const [unit] = useFigureUnit();
  const inR = unit === 'r';
  const source = useReportsSource();
  const query = useQuery(equityQuery(filter, source.base));
  // A mentor's page offers the shared accounts; the trader's, their own list.
  const own = useQuery({ ...accountsQuery, enabled: source.accounts === null });
  const accounts = source.accounts ?? own.data;
  const series = inR ? query.data?.r : query.data?.equity;
  const points = useMemo(() => {
    if (!query.data) return undefined;
    if (inR) return (basis === 'trade' ? query.data.r.byTrade : query.data.r.byDay).map(fromR);
    return (basis === 'trade' ? query.data.equity.byTrade : query.data.equity.byDay).map(fromDollars);
  }, [query.data, inR, basis]);
  const chartData = useMemo(
    () =>
      (points ?? []).map((p) => ({
        x: basis === 'trade' ? `#${p.index}` : formatDay(p.tradeDate, 'MMM d, yyyy'),
        Equity: inR ? p.equity : toDollars(p.equity),
        Drawdown: inR ? p.drawdown : toDollars(p.drawdown),
      })),
    [points, basis, inR],
  );
  // The same shape-keeping sample in either unit (it reads only the curve's steps).
  const tableRows = useMemo(
    () =>
      sampleEquity(
        (points ?? []).map((p) => ({ index: p.index, tradeDate: p.tradeDate, equityCents: p.equity, drawdownCents: p.drawdown })),
        TABLE_POINTS,
      ).map(fromDollars),
    [points],
  );
  const accountValue = filter.account.length === 1 ? filter.account[0]! : filter.account.length === 0 ? 'all' : null;
  const what = inR ? 'Cumulative R' : 'Cumulative net P&L';
  const money = (value: number) => (inR ? formatR(value) : formatUsd(value));
  const columns: Array<ReportColumn<CurvePoint>> = [
    {
      id: 'point',
      header: basis === 'trade' ? 'Trade' : 'Day',
      value: (p) => (basis === 'trade' ? p.index : p.tradeDate),
      numeric: basis === 'trade',
    },
    { id: 'day', header: 'Trading day', value: (p) => p.tradeDate },
    {
      id: 'equity',
      header: what,
      value: (p) => p.equity,
      render: (p) => money(p.equity),
      csv: (p) => (inR ? p.equity : centsForCsv(p.equity)),
      numeric: true,
    },
    {
      id: 'drawdown',
      header: inR ? 'Drawdown in R' : 'Drawdown',
      value: (p) => p.drawdown,
      render: (p) => money(p.drawdown),
      csv: (p) => (inR ? p.drawdown : centsForCsv(p.drawdown)),
      numeric: true,
    },
  ];
  const csvName = `equity-by-${basis}${inR ? '-in-r' : ''}`;
  const valueFormatter = inR ? formatR : formatDollarsTooltip;
  const tickFormatter = inR ? formatRAxis : formatDollarsAxis;

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
            data={[
              { value: 'all', label: 'All accounts' },
              ...(accounts ?? []).map((a) => ({ value: a.id, label: a.name })),
              { value: UNASSIGNED, label: 'Unassigned' },
            ]}
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
                csvFileName(`${csvName}${basis === 'trade' && series?.sampled ? '-sampled' : ''}`, today),
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
          <FigureUnitSwitch />
        </>
      }
    >
      {query.isError ? (
        <ReportError error={query.error} />
      ) : !query.data ? (
        <ReportLoading height={360} />
      ) : query.data.equity.trades === 0 ? (
        <NoTrades />
      ) : inR && query.data.r.tradesWithRisk === 0 ? (
        <NoPlannedRisk trades={query.data.r.tradesWithoutRisk} />
      ) : (
        <Stack gap="xs">
          <div aria-hidden="true">
            <AreaChart
              h={260}
              data={chartData}
              dataKey="x"
              series={[{ name: 'Equity', label: what, color: 'indigo.6' }]}
              curveType="linear"
              withDots={false}
              fillOpacity={0.25}
              valueFormatter={valueFormatter}
              yAxisProps={{ tickFormatter, width: 64 }}
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
              valueFormatter={valueFormatter}
              yAxisProps={{ tickFormatter, width: 64 }}
              xAxisProps={{ minTickGap: 40 }}
              gridAxis="y"
              areaChartProps={{ accessibilityLayer: false }}
            />
          </div>
          {basis === 'trade' && series?.sampled && (
            <Text size="xs" c="dimmed">
              {(inR ? query.data.r.tradesWithRisk : query.data.equity.trades).toLocaleString('en-US')} trades drawn as{' '}
              {points?.length.toLocaleString('en-US')} points that keep every peak, trough and drawdown low.
            </Text>
          )}
          {inR && (
            <Text size="xs" c="dimmed" data-testid="equity-r-note">
              {describeRBasis(query.data.r.tradesWithRisk, query.data.r.tradesWithoutRisk)} Trades are numbered among those with a planned risk; the
              drawdown is the R below the highest cumulative R before it.
            </Text>
          )}
          <ReportTable
            hidden
            caption={`${what} and drawdown${inR ? ' in R' : ''} by ${basis}${tableRows.length < (points?.length ?? 0) ? ', sampled' : ''}`}
            rows={tableRows}
            columns={columns}
            csvName={csvFileName(csvName, today)}
            testId="equity-table"
          />
        </Stack>
      )}
    </ReportCard>
  );
}
