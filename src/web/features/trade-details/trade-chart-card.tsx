import { Alert, Anchor, Button, Card, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconChartCandle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { RESOLUTION_LABELS, type Resolution } from '../../../domain/market/bars';
import { formatUsd, toCents } from '../../../domain/money';
import { formatR } from '../../../domain/risk/format-r';
import { pnlColor, TONE_COLOR } from '../../lib/tone';
import { PriceText } from '../../components/price-text';
import type { Excursions, TradeChart } from '../../shared/api';
import { tradeChartQuery } from './api';
import { CandleChart, markersOf } from './candle-chart';
import { formatClock, zoneLabel } from './zone-time';

const PADDINGS = [5, 15, 30, 60, 120];
const CHART_HEIGHT = 360;

const percent = (ratio: string) => `${(Number(ratio) * 100).toFixed(1)}%`;
const plain = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

/** The trade page's chart and what the bars say of the trade (points 4 and 5). */
export function TradeChartCard({ tradeId, symbol, timeZone }: { tradeId: string; symbol: string; timeZone: string }) {
  const [padding, setPadding] = useState(30);
  const [resolution, setResolution] = useState<Resolution | null>(null);
  const chart = useQuery(tradeChartQuery(tradeId, padding, resolution));
  // The chart's library loads while the bars do, not after them.
  useEffect(() => void import('lightweight-charts'), []);
  const data = chart.data;
  const both = data ? data.available.filter((a) => a.bars > 0).length > 1 : false;

  return (
    <Card withBorder radius="md" padding="md" data-testid="trade-chart-card">
      <Group justify="space-between" align="center" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4">
          Price chart
        </Title>
        <Group gap="xs" wrap="wrap">
          {both && (
            <SegmentedControl
              size="xs"
              aria-label="Bars"
              value={String(resolution ?? data?.resolution ?? 60)}
              onChange={(value) => setResolution(Number(value) as Resolution)}
              data={[
                { value: '1', label: '1s' },
                { value: '60', label: '1m' },
              ]}
              data-testid="chart-resolution"
            />
          )}
          <SegmentedControl
            size="xs"
            aria-label="Minutes before the entry and after the exit"
            value={String(padding)}
            onChange={(value) => setPadding(Number(value))}
            data={PADDINGS.map((minutes) => ({ value: String(minutes), label: minutes < 60 ? `${minutes}m` : `${minutes / 60}h` }))}
            data-testid="chart-padding"
          />
        </Group>
      </Group>
      {chart.isPending ? (
        <Skeleton height={CHART_HEIGHT} radius="sm" />
      ) : chart.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
          The chart could not be loaded.{' '}
          <Anchor component="button" type="button" onClick={() => void chart.refetch()}>
            Try again
          </Anchor>
        </Alert>
      ) : data!.bars.length > 0 ? (
        <Stack gap={6}>
          <CandleChart chart={data!} symbol={symbol} timeZone={timeZone} height={CHART_HEIGHT} />
          <Text size="xs" c="dimmed" data-testid="chart-caption">
            {RESOLUTION_LABELS[data!.resolution as Resolution]} bars of {data!.contract}, {padding < 60 ? `${padding} minutes` : `${padding / 60} ${padding === 60 ? 'hour' : 'hours'}`} around the trade, {zoneLabel(timeZone)} time
            {data!.truncated ? ' (the bars farthest from the trade are left out)' : ''}. Fills: {describeMarkers(data!)}. Drag to pan, scroll to zoom.
          </Text>
        </Stack>
      ) : (
        <NoBarsNotice chart={data!} timeZone={timeZone} />
      )}
      {data?.excursions && <ExcursionsPanel excursions={data.excursions} symbol={symbol} timeZone={timeZone} />}
    </Card>
  );
}

function describeMarkers(chart: TradeChart): string {
  const markers = markersOf(chart);
  if (markers.length === 0) return 'none kept for this trade';
  return `${markers.map((m) => m.text).join(', ')} (B buys, S sells, with their quantity)`;
}

/** Where the chart would be: which bars to add and how (never guessed). */
function NoBarsNotice({ chart, timeZone }: { chart: TradeChart; timeZone: string }) {
  if (!chart.entry_time && !chart.exit_time) {
    return (
      <Text size="sm" c="dimmed" data-testid="chart-empty">
        This trade has no entry and exit times. Add its fills below to see it on a chart.
      </Text>
    );
  }
  return (
    <Paper withBorder radius="sm" p="md" data-testid="chart-empty">
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <IconChartCandle size={22} aria-hidden="true" style={{ flexShrink: 0 }} />
        <Stack gap={6}>
          <Text size="sm">
            No price bars of {chart.contract} are stored around this trade ({chart.from && formatClock(Date.parse(chart.from), timeZone, { seconds: false })} to{' '}
            {chart.to && formatClock(Date.parse(chart.to), timeZone, { seconds: false, sameDayAs: Date.parse(chart.from!) })}, {zoneLabel(timeZone)} time).
          </Text>
          <AddBarsHint contract={chart.contract} />
        </Stack>
      </Group>
    </Paper>
  );
}

function AddBarsHint({ contract }: { contract: string }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" c="dimmed">
        Import 1-second or 1-minute bars of {contract} from NinjaTrader, TradingView or Databento (or any CSV by mapping its columns).
      </Text>
      <Button component={Link} to={`/market-data?contract=${encodeURIComponent(contract)}`} size="xs" variant="light" data-testid="add-bars">
        Add bars
      </Button>
    </Group>
  );
}

function Figure({ label, value, detail, tone, testId }: { label: string; value: string; detail?: string; tone?: string; testId: string }) {
  return (
    <Paper withBorder radius="sm" p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} ff="monospace" c={tone} data-testid={`${testId}-value`}>
        {value}
      </Text>
      {detail && (
        <Text size="xs" c="dimmed" data-testid={`${testId}-detail`}>
          {detail}
        </Text>
      )}
    </Paper>
  );
}

/** MAE, MFE, best exit, capture and the exit analysis, or why there are none. */
export function ExcursionsPanel({ excursions, symbol, timeZone }: { excursions: Excursions; symbol: string; timeZone: string }) {
  if (excursions.status === 'not-applicable') {
    return (
      <Text size="sm" c="dimmed" mt="sm" data-testid="excursions-none">
        MAE and MFE: {excursions.reason}.
      </Text>
    );
  }
  if (excursions.status === 'no-bars') return null;
  if (excursions.status === 'missing') {
    const from = Date.parse(excursions.from);
    return (
      <Alert mt="sm" color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden="true" />} title="Bars missing" data-testid="excursions-missing">
        <Stack gap={6}>
          <Text size="sm">
            The {RESOLUTION_LABELS[excursions.resolution]} bars of {excursions.contract} are missing{' '}
            {excursions.missing
              .map((range) => `from ${formatClock(Date.parse(range.from), timeZone, { sameDayAs: from })} to ${formatClock(Date.parse(range.to), timeZone, { sameDayAs: from })}`)
              .join(', ')}{' '}
            ({zoneLabel(timeZone)} time), so MAE, MFE and the exit analysis are not computed: nothing is estimated.
          </Text>
          <AddBarsHint contract={excursions.contract} />
        </Stack>
      </Alert>
    );
  }
  const entry = Date.parse(excursions.first_bar);
  const dollars = (value: string, sign: 1 | -1) => formatUsd(sign * toCents(value));
  // In R where the trade has a planned risk: against the trade is negative, as its P&L would be.
  const inR = (r: string | null, sign: 1 | -1 = 1) => (r === null ? null : formatR(sign * Number(r)));
  const detailOf = (figure: typeof excursions.mae, sign: 1 | -1) =>
    [`${plain(figure.points)} pts`, figure.ticks !== null ? `${plain(figure.ticks)} ticks` : null, inR(figure.r, sign)].filter(Boolean).join(' · ');
  return (
    <Stack gap="sm" mt="md" data-testid="excursions">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure label="MAE" value={dollars(excursions.mae.dollars, -1)} detail={detailOf(excursions.mae, -1)} tone={TONE_COLOR.negative} testId="excursion-mae" />
        <Figure label="MFE" value={dollars(excursions.mfe.dollars, 1)} detail={detailOf(excursions.mfe, 1)} tone={TONE_COLOR.positive} testId="excursion-mfe" />
        <Figure
          label="Best exit"
          value={formatUsd(toCents(excursions.best_exit.gross_pnl))}
          detail={[`at ${excursions.best_exit.price}`, formatClock(Date.parse(excursions.best_exit.time), timeZone, { sameDayAs: entry }), inR(excursions.best_exit.r)]
            .filter(Boolean)
            .join(' · ')}
          testId="excursion-best-exit"
        />
        <Figure
          label="Captured"
          value={excursions.capture === null ? '—' : percent(excursions.capture)}
          detail={excursions.capture === null ? 'price never went the trade’s way' : 'of the best exit (gross)'}
          testId="excursion-capture"
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed" data-testid="excursions-basis">
        From {RESOLUTION_LABELS[excursions.resolution]} bars ({formatClock(entry, timeZone, { seconds: excursions.resolution === 1 })} to{' '}
        {formatClock(Date.parse(excursions.last_bar), timeZone, { seconds: excursions.resolution === 1, sameDayAs: entry })}), the first and last counted whole
        {excursions.within_one_bar ? '; the trade is inside one bar, so that bar’s whole range is counted' : ''}; measured from the average entry{' '}
        <PriceText price={excursions.average_entry} symbol={symbol} />, the trade’s own fills included.
      </Text>
      <div>
        <Text size="sm" fw={600} mb={4}>
          Had it been closed later
        </Text>
        <Table withTableBorder striped fz="sm" data-testid="exit-analysis">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Exit</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th ta="right">Net P&amp;L</Table.Th>
              <Table.Th ta="right">vs. actual</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {excursions.exit_after.map((row) => (
              <Table.Tr key={row.minutes} data-testid="exit-after-row">
                <Table.Td>+{row.minutes} min</Table.Td>
                {row.status === 'ok' ? (
                  <>
                    <Table.Td ff="monospace">
                      <PriceText price={row.price} symbol={symbol} />
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" c={pnlColor(toCents(row.net_pnl))}>
                      {formatUsd(toCents(row.net_pnl))}
                      {row.net_pnl_r !== null && <Text span fz="xs" c="dimmed"> {inR(row.net_pnl_r)}</Text>}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" c={pnlColor(toCents(row.difference))}>
                      {toCents(row.difference) > 0 ? '+' : ''}
                      {formatUsd(toCents(row.difference))}
                      {row.difference_r !== null && <Text span fz="xs" c="dimmed"> {inR(row.difference_r)}</Text>}
                    </Table.Td>
                  </>
                ) : (
                  <Table.Td colSpan={3} c="dimmed">
                    {row.status === 'closed' ? 'Market closed' : 'No bars then'}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
    </Stack>
  );
}
