import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Slider,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconChartCandle,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerSkipBack,
  IconPlayerSkipForward,
  IconPlayerTrackNext,
  IconPlayerTrackPrev,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer, useState } from 'react';
import { Link } from 'react-router';
import { instrumentFigures } from '../../../domain/instruments';
import { RESOLUTION_LABELS, type Resolution } from '../../../domain/market/bars';
import { replayAt } from '../../../domain/market/replay';
import { Decimal, formatUsd, toCents } from '../../../domain/money';
import { formatR } from '../../../domain/risk/format-r';
import { pnlColor, TONE_COLOR } from '../../lib/tone';
import { PriceText } from '../../components/price-text';
import type { Excursions, TradeChart } from '../../shared/api';
import { tradeChartQuery } from './api';
import { CandleChart, markersOf } from './candle-chart';
import { initialReplay, REPLAY_SPEEDS, replayKey, replayReducer, type ReplaySpeed } from './replay-state';
import { formatClock, zoneLabel } from './zone-time';

const PADDINGS = [5, 15, 30, 60, 120];
const CHART_HEIGHT = 360;
const PHONE_CHART_HEIGHT = 300;

const percent = (ratio: string) => `${(Number(ratio) * 100).toFixed(1)}%`;
const plain = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);

/** The trade page's chart, its replay, and what the bars say of the trade (MAE, MFE, best exit, exit analysis). */
export function TradeChartCard({ tradeId, symbol, timeZone }: { tradeId: string; symbol: string; timeZone: string }) {
  const [padding, setPadding] = useState(30);
  const [resolution, setResolution] = useState<Resolution | null>(null);
  const [replaying, setReplaying] = useState(false);
  const compact = useMediaQuery('(max-width: 36em)') ?? false;
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
          {data && data.bars.length > 1 && (
            <Button
              size="xs"
              variant={replaying ? 'filled' : 'light'}
              onClick={() => setReplaying((on) => !on)}
              aria-pressed={replaying}
              data-testid="replay-toggle"
            >
              {replaying ? 'Close replay' : 'Replay'}
            </Button>
          )}
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
          {replaying ? (
            <ReplayPanel
              key={`${data!.resolution}|${data!.from}`}
              chart={data!}
              symbol={symbol}
              timeZone={timeZone}
              compact={compact}
              height={compact ? PHONE_CHART_HEIGHT : CHART_HEIGHT}
            />
          ) : (
            <CandleChart chart={data!} symbol={symbol} timeZone={timeZone} height={compact ? PHONE_CHART_HEIGHT : CHART_HEIGHT} compact={compact} />
          )}
          <Text size="xs" c="dimmed" data-testid="chart-caption">
            {RESOLUTION_LABELS[data!.resolution as Resolution]} bars of {data!.contract},{' '}
            {padding < 60 ? `${padding} minutes` : `${padding / 60} ${padding === 60 ? 'hour' : 'hours'}`} around the trade, {zoneLabel(timeZone)}{' '}
            time
            {data!.truncated ? ' (the bars farthest from the trade are left out)' : ''}. Fills: {describeMarkers(data!)}. Drag to pan, scroll to zoom.
            {data!.holes.length > 0 ? ` No bar ${describeHoles(data!.holes, timeZone)}: the gaps in the candles.` : ''}
            {data!.stop ? ` Stop ${data!.stop.price}${data!.stop.source === 'stop-order' ? ' (from the stop order)' : ''}.` : ''}
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
  const several = markers.some((m) => m.count > 1);
  return `${markers.map((m) => m.text).join(', ')} (B buys, S sells, with their quantity${several ? '; ×2 is two fills in one bar' : ''})`;
}

/** Missing stretches as the minutes they name: '13:57' for one, '14:03–14:05' for a run, on the trader's clock. */
export function describeHoles(holes: ReadonlyArray<{ from: string; to: string }>, timeZone: string): string {
  const first = holes.length > 0 ? Date.parse(holes[0]!.from) : 0;
  return holes
    .map((hole) => {
      const from = Math.floor(Date.parse(hole.from) / 60_000) * 60_000;
      const last = Math.floor((Date.parse(hole.to) - 1) / 60_000) * 60_000;
      const start = formatClock(from, timeZone, { seconds: false, sameDayAs: first });
      return last > from ? `${start}–${formatClock(last, timeZone, { seconds: false, sameDayAs: from })}` : start;
    })
    .join(', ');
}

/**
 * The trade replayed bar by bar: play, pause, speed and steps (the keyboard too, while the panel has the focus), the
 * fills appearing as they happened, and at each bar the position, its P&L and how far price is from the stop.
 */
function ReplayPanel({
  chart,
  symbol,
  timeZone,
  compact,
  height,
}: {
  chart: TradeChart;
  symbol: string;
  timeZone: string;
  compact: boolean;
  height: number;
}) {
  const bars = chart.bars;
  // The replay starts a few bars before the entry, so the trader sees what came before it.
  const entryIndex = Math.max(
    0,
    bars.findIndex((bar) => chart.entry_time !== null && bar[0] * 1000 >= Date.parse(chart.entry_time) - 60_000 * 3),
  );
  const [state, dispatch] = useReducer(replayReducer, undefined, () => initialReplay(bars.length, entryIndex));
  useEffect(() => {
    if (!state.playing) return;
    const timer = setInterval(() => dispatch({ type: 'tick' }), 1000 / state.speed);
    return () => clearInterval(timer);
  }, [state.playing, state.speed]);
  const bar = bars[state.index]!;
  const period = (chart.resolution ?? 60) * 1000;
  const figures = instrumentFigures(chart.contract);
  const fills = useMemo(
    () => chart.fills.map((f) => ({ time: Date.parse(f.time), side: f.side, quantity: new Decimal(f.quantity), price: new Decimal(f.price) })),
    [chart.fills],
  );
  const point = replayAt(fills, bar[0] * 1000 + period, new Decimal(bar[4]), figures.pointValue, chart.stop ? new Decimal(chart.stop.price) : null);
  const position = point.position.isZero()
    ? 'Flat'
    : `${point.position.isPositive() ? 'Long' : 'Short'} ${point.position.abs().toFixed()} @ ${point.averagePrice!.toDecimalPlaces(2).toFixed()}`;
  const signed = (cents: number) => `${cents > 0 ? '+' : ''}${formatUsd(cents)}`;
  const button = (label: string, icon: React.ReactNode, action: Parameters<typeof dispatch>[0], testId: string) => (
    <Tooltip label={label}>
      <ActionIcon variant="light" size="lg" aria-label={label} onClick={() => dispatch(action)} data-testid={testId}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Stack
      gap={6}
      tabIndex={0}
      aria-label="Replay of the trade. Space plays and pauses, the arrows step a bar, Home and End go to the first and last bar, plus and minus change the speed."
      onKeyDown={(event) => {
        const action = replayKey(event.key);
        if (!action) return;
        event.preventDefault();
        dispatch(action);
      }}
      data-testid="replay"
      data-index={state.index}
      data-last={state.last}
      data-playing={state.playing ? 'true' : 'false'}
      data-bar={bar[0]}
    >
      <CandleChart chart={chart} symbol={symbol} timeZone={timeZone} height={height} compact={compact} upTo={bar[0]} />
      <Group gap="xs" wrap="wrap" justify="space-between">
        <Group gap={4} wrap="nowrap">
          {button('First bar', <IconPlayerSkipBack size={18} aria-hidden="true" />, { type: 'seek', index: 0 }, 'replay-first')}
          {button('Previous bar', <IconPlayerTrackPrev size={18} aria-hidden="true" />, { type: 'step', by: -1 }, 'replay-back')}
          {button(
            state.playing ? 'Pause' : 'Play',
            state.playing ? <IconPlayerPause size={18} aria-hidden="true" /> : <IconPlayerPlay size={18} aria-hidden="true" />,
            { type: 'toggle' },
            'replay-play',
          )}
          {button('Next bar', <IconPlayerTrackNext size={18} aria-hidden="true" />, { type: 'step', by: 1 }, 'replay-next')}
          {button('Last bar', <IconPlayerSkipForward size={18} aria-hidden="true" />, { type: 'seek', index: state.last }, 'replay-last')}
        </Group>
        <SegmentedControl
          size="xs"
          aria-label="Replay speed, bars a second"
          value={String(state.speed)}
          onChange={(value) => dispatch({ type: 'speed', speed: Number(value) as ReplaySpeed })}
          data={REPLAY_SPEEDS.map((speed) => ({ value: String(speed), label: `${speed}×` }))}
          data-testid="replay-speed"
        />
      </Group>
      <Slider
        min={0}
        max={state.last}
        value={state.index}
        onChange={(index) => dispatch({ type: 'seek', index })}
        label={null}
        aria-label="Replay position"
        size="sm"
      />
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        <Figure
          label="Bar"
          value={formatClock(bar[0] * 1000, timeZone, { seconds: chart.resolution === 1 })}
          detail={`close ${bar[4]}`}
          testId="replay-time"
        />
        <Figure label="Position" value={position} detail={`${point.fills} of ${chart.fills.length} fills`} testId="replay-position" />
        <Figure
          label="P&L"
          value={signed(point.totalCents)}
          detail={`${signed(point.realizedCents)} realised · ${signed(point.unrealizedCents)} open (gross)`}
          tone={pnlColor(point.totalCents)}
          testId="replay-pnl"
        />
        <Figure
          label="To the stop"
          value={chart.stop === null ? '—' : point.toStop === null ? 'No position' : `${point.toStop.points} pts`}
          detail={
            chart.stop === null
              ? 'no planned stop'
              : point.toStop === null
                ? `stop ${chart.stop.price}`
                : `${formatUsd(point.toStop.cents)} · stop ${chart.stop.price}`
          }
          testId="replay-stop"
        />
      </SimpleGrid>
    </Stack>
  );
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
            No price bars of {chart.contract} are stored around this trade (
            {chart.from && formatClock(Date.parse(chart.from), timeZone, { seconds: false })} to{' '}
            {chart.to && formatClock(Date.parse(chart.to), timeZone, { seconds: false, sameDayAs: Date.parse(chart.from!) })}, {zoneLabel(timeZone)}{' '}
            time).
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
  const [mode, setMode] = useState<'whole' | 'each'>('whole');
  if (excursions.status === 'not-applicable') {
    return (
      <Text size="sm" c="dimmed" mt="sm" data-testid="excursions-none">
        MAE and MFE: {excursions.reason}.
      </Text>
    );
  }
  if (excursions.status === 'no-bars') return null;
  if (excursions.status === 'missing') {
    return (
      <Alert
        mt="sm"
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
        title="Incomplete: bars missing"
        data-testid="excursions-missing"
      >
        <Stack gap={6}>
          <Text size="sm" data-testid="excursions-missing-minutes">
            MAE, MFE, best exit and exit analysis: incomplete. The {RESOLUTION_LABELS[excursions.resolution]} bars of {excursions.contract} have no
            bar at {describeHoles(excursions.missing, timeZone)} ({zoneLabel(timeZone)} time), and any of those minutes may have held the trade’s best
            or worst price: nothing is estimated.
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
        <Figure
          label="MAE"
          value={dollars(excursions.mae.dollars, -1)}
          detail={detailOf(excursions.mae, -1)}
          tone={TONE_COLOR.negative}
          testId="excursion-mae"
        />
        <Figure
          label="MFE"
          value={dollars(excursions.mfe.dollars, 1)}
          detail={detailOf(excursions.mfe, 1)}
          tone={TONE_COLOR.positive}
          testId="excursion-mfe"
        />
        <Figure
          label="Best exit"
          value={formatUsd(toCents(excursions.best_exit.gross_pnl))}
          detail={[
            `at ${excursions.best_exit.price}`,
            formatClock(Date.parse(excursions.best_exit.time), timeZone, { sameDayAs: entry }),
            inR(excursions.best_exit.r),
          ]
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
        {formatClock(Date.parse(excursions.last_bar), timeZone, { seconds: excursions.resolution === 1, sameDayAs: entry })}), the first and last
        counted whole
        {excursions.within_one_bar ? '; the trade is inside one bar, so that bar’s whole range is counted' : ''}; measured from the average entry{' '}
        <PriceText price={excursions.average_entry} symbol={symbol} />, the trade’s own fills included.
        {excursions.sources.length > 0 ? ` Bars: ${excursions.sources.map((source) => source.label).join(' and ')}.` : ''}
        {excursions.quiet_minutes > 0
          ? ` ${excursions.quiet_minutes} ${excursions.quiet_minutes === 1 ? 'minute' : 'minutes'} without a bar are taken as minutes without trades, as you confirmed for the upload’s source.`
          : ''}
      </Text>
      <div>
        <Group justify="space-between" align="center" gap="xs" mb={4} wrap="wrap">
          <Text size="sm" fw={600}>
            {mode === 'whole' ? 'Had the whole position been closed later' : 'Had each exit been made later'}
          </Text>
          {excursions.exit_after_each_fill.length > 0 && (
            <SegmentedControl
              size="xs"
              aria-label="Exit analysis"
              value={mode}
              onChange={(value) => setMode(value as 'whole' | 'each')}
              data={[
                { value: 'whole', label: 'Whole position' },
                { value: 'each', label: 'Each exit moved' },
              ]}
              data-testid="exit-analysis-mode"
            />
          )}
        </Group>
        <Text size="xs" c="dimmed" mb={4} data-testid="exit-analysis-basis">
          {mode === 'whole'
            ? 'The whole position closed N minutes after its final exit, at that minute’s close.'
            : 'Each exit fill made N minutes later, at that minute’s close; the price shown is the last exit’s.'}
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
            {(mode === 'whole' ? excursions.exit_after : excursions.exit_after_each_fill).map((row) => (
              <Table.Tr key={row.minutes} data-testid="exit-after-row">
                <Table.Td>+{row.minutes} min</Table.Td>
                {row.status === 'ok' ? (
                  <>
                    <Table.Td ff="monospace">
                      <PriceText price={row.price} symbol={symbol} />
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" c={pnlColor(toCents(row.net_pnl))}>
                      {formatUsd(toCents(row.net_pnl))}
                      {row.net_pnl_r !== null && (
                        <Text span fz="xs" c="dimmed">
                          {' '}
                          {inR(row.net_pnl_r)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" c={pnlColor(toCents(row.difference))}>
                      {toCents(row.difference) > 0 ? '+' : ''}
                      {formatUsd(toCents(row.difference))}
                      {row.difference_r !== null && (
                        <Text span fz="xs" c="dimmed">
                          {' '}
                          {inR(row.difference_r)}
                        </Text>
                      )}
                    </Table.Td>
                  </>
                ) : (
                  <Table.Td colSpan={3} c="dimmed">
                    {row.status === 'closed'
                      ? 'Market closed'
                      : row.minute
                        ? `Incomplete: no bar at ${formatClock(Date.parse(row.minute), timeZone, { seconds: false, sameDayAs: entry })}`
                        : 'Incomplete: no bars then'}
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
