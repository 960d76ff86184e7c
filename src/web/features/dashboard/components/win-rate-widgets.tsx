import { BarChart } from '../../../components/charts';
import { Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { Ring } from '../../../components/ring';
import { useMemo, useState } from 'react';
import { addMonths, formatCalendarDay, parseCalendarDay, formatDay } from '../../../../domain/dates';
import { calculateWinRate, getWinRatePeriodRange, getWinRateBand, isDayInRange, type WinRatePeriod } from '../../../../domain/stats';
import { useDashboard } from '../dashboard-context';
import { BAND_FILL, BAND_TONE, TONE_COLOR, formatWinRate, plural } from '../format';
import { WidgetCard } from './widget-card';

const PERIOD_LABEL: Record<WinRatePeriod, string> = { week: 'Last 7 days', month: 'Last month', all: 'All time' };

/**
 * Win rate with a Week / Month / All toggle (last 7 days, last month, all), BE excluded,
 * banded 60+ green, 50+ yellow, below red.
 */
export function WinRateWidget({ widgetId, onRemove }: { widgetId: string; onRemove?: () => void }) {
  const { stats, now, timeZone } = useDashboard();
  const [period, setPeriod] = useState<WinRatePeriod>('all');
  const counts = useMemo(() => {
    // All time is the summary: the per-day rows the dashboard reads cover recent days only.
    if (period === 'all') {
      const s = stats?.summary;
      return { wins: s?.wins ?? 0, losses: s?.losses ?? 0, breakEvens: s?.breakEvens ?? 0 };
    }
    const range = getWinRatePeriodRange(period, now, timeZone);
    let wins = 0;
    let losses = 0;
    let breakEvens = 0;
    for (const day of stats?.by_day ?? []) {
      if (!isDayInRange(day.date, range)) continue;
      wins += day.wins;
      losses += day.losses;
      breakEvens += day.breakEvens;
    }
    return { wins, losses, breakEvens };
  }, [stats, period, now, timeZone]);
  const winRate = calculateWinRate(counts);
  const band = getWinRateBand(winRate);
  const decided = counts.wins + counts.losses;

  return (
    <WidgetCard widgetId={widgetId} anchor="winrate-stats" title="Win Rate" onRemove={onRemove}>
      <SegmentedControl
        fullWidth
        size="xs"
        value={period}
        onChange={(v) => setPeriod(v as WinRatePeriod)}
        data={[
          { value: 'week', label: 'Week' },
          { value: 'month', label: 'Month' },
          { value: 'all', label: 'All' },
        ]}
        aria-label="Win rate period"
        mb="sm"
      />
      <Group wrap="nowrap" gap="md">
        <Ring
          size={104}
          thickness={10}
          value={decided > 0 ? winRate : null}
          color={BAND_FILL[band]}
          label={
            <Text ta="center" fw={800} size="lg" c={decided > 0 ? BAND_TONE[band] : 'dimmed'} data-testid="winrate-card-value">
              {formatWinRate(winRate, decided)}
            </Text>
          }
        />
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            {PERIOD_LABEL[period]}
          </Text>
          <Text size="sm" data-testid="winrate-card-counts">
            <Text span fw={700} c={TONE_COLOR.positive}>
              {counts.wins}
            </Text>{' '}
            {plural(counts.wins, 'win', 'wins')} ·{' '}
            <Text span fw={700} c={TONE_COLOR.negative}>
              {counts.losses}
            </Text>{' '}
            {plural(counts.losses, 'loss', 'losses')}
          </Text>
          <Text size="xs" c="dimmed">
            {counts.breakEvens} break-even, not counted
          </Text>
        </Stack>
      </Group>
    </WidgetCard>
  );
}

/** Win rate of each of the last six calendar months, banded like the card above. */
export function MonthWinRateWidget({ widgetId, onRemove }: { widgetId: string; onRemove?: () => void }) {
  const { stats, today } = useDashboard();
  const months = useMemo(() => {
    const parts = parseCalendarDay(today);
    const first = parts ? formatCalendarDay(parts.year, parts.month, 1) : today;
    const keys = Array.from({ length: 6 }, (_, i) => addMonths(first, i - 5).slice(0, 7));
    const totals = new Map(keys.map((k) => [k, { wins: 0, losses: 0 }]));
    for (const day of stats?.by_day ?? []) {
      const bucket = totals.get(day.date.slice(0, 7));
      if (!bucket) continue;
      bucket.wins += day.wins;
      bucket.losses += day.losses;
    }
    return keys.map((k) => {
      const t = totals.get(k)!;
      const winRate = calculateWinRate(t);
      const decided = t.wins + t.losses;
      return {
        month: formatDay(`${k}-01`, 'MMM'),
        label: formatDay(`${k}-01`, 'MMMM yyyy'),
        // A month without a won or lost trade has no rate: no bar, and '—' where it is written (not '0.0%').
        'Win rate': decided > 0 ? winRate : null,
        decided,
        shown: formatWinRate(winRate, decided),
      };
    });
  }, [stats, today]);
  const current = months[months.length - 1];

  return (
    <WidgetCard widgetId={widgetId} title="Monthly Win Rate" onRemove={onRemove}>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed">
          This month
        </Text>
        <Text
          fw={700}
          c={current && current['Win rate'] !== null ? BAND_TONE[getWinRateBand(current['Win rate'])] : 'dimmed'}
          data-testid="month-winrate-value"
        >
          {current?.shown ?? '—'}
        </Text>
      </Group>
      <BarChart
        table={{
          caption: 'Win rate by month',
          columns: ['Month', 'Win rate', 'Decided trades'],
          rows: months.map((m) => [m.label, m.shown, String(m.decided)]),
        }}
        h={150}
        data={months}
        dataKey="month"
        series={[{ name: 'Win rate', color: 'teal.6' }]}
        // Room for '100%' at the top and on the left (the label was clipped). The chart draws the tick
        // labels 10 px left of the axis line: 54 px keeps the widest one inside the chart.
        // The axis stands on its own domain, drawn even when no month has a rate (recharts takes the domain from the
        // data otherwise, and months without trades have none).
        yAxisProps={{
          domain: [0, 100],
          allowDataOverflow: true,
          ticks: [0, 25, 50, 75, 100],
          interval: 0,
          width: 54,
          tickFormatter: (v: number) => `${v}%`,
        }}
        barChartProps={{ margin: { top: 8 } }}
        // The tooltip writes the month's rate as everywhere else (the axis keeps whole steps).
        valueFormatter={(v: number | null) => (typeof v === 'number' ? `${v.toFixed(1)}%` : '—')}
        // A month without a rate still answers the pointer, with '—' (recharts leaves empty values out by default).
        tooltipProps={{ filterNull: false }}
        gridAxis="y"
        tickLine="none"
        getBarColor={(value) => BAND_FILL[getWinRateBand(value)]}
        withTooltip
      />
    </WidgetCard>
  );
}
