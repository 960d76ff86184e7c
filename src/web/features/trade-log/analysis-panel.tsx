import '@mantine/charts/styles.css';
import { BarChart } from '../../components/charts';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { AccountFilter } from '../../shared/api';
import { labelWeeks } from '../../../domain/stats';
import { formatTradeDay } from './format';
import { useTradeStats } from './use-trade-stats';

/** A year of trading has ~50 weeks; the chart stays readable with the most recent ones. */
const WEEKS_SHOWN = 12;

/** Trade counts: whole ticks only (the axis read 0.75 and 2.25). */
const COUNT_AXIS = { allowDecimals: false };

const SERIES = [
  { name: 'Wins', color: 'teal.6' },
  { name: 'Losses', color: 'red.6' },
  { name: 'BE', color: 'gray.6' },
];

/** Results by Week and by Day of Week (Monday to Friday), stacked bars. */
export function AnalysisPanel({ account, q = '', filter = '' }: { account: AccountFilter | null; q?: string; filter?: string }) {
  const { data, isPending } = useTradeStats(account, q, filter);
  const shown = (data?.by_week ?? []).slice(-WEEKS_SHOWN);
  // The weeks shown carry their year when they span two, whatever the weeks left out.
  const labels = labelWeeks(shown.map((w) => w.weekStart));
  const weeks = shown.map((w, i) => ({
    label: labels[i]!,
    Wins: w.wins,
    Losses: w.losses,
    BE: w.breakEvens,
  }));
  const weekTable = {
    caption: 'Results by week',
    columns: ['Week of', 'Wins', 'Losses', 'BE'],
    rows: shown.map((w) => [formatTradeDay(w.weekStart), String(w.wins), String(w.losses), String(w.breakEvens)]),
  };
  const weekdays = (data?.by_weekday ?? []).map((d) => ({
    label: d.day.slice(0, 3),
    Wins: d.wins,
    Losses: d.losses,
    BE: d.breakEvens,
  }));
  const weekdayTable = {
    caption: 'Results by day of week',
    columns: ['Day', 'Wins', 'Losses', 'BE'],
    rows: (data?.by_weekday ?? []).map((d) => [d.day, String(d.wins), String(d.losses), String(d.breakEvens)]),
  };
  const hasTrades = (data?.summary.trades ?? 0) > 0;

  return (
    <Paper withBorder p="md" radius="md" h="100%" data-testid="analysis-panel">
      <Title order={2} size="h4" mb="sm">
        Trade Analysis
      </Title>
      {isPending ? (
        <Skeleton height={420} />
      ) : !hasTrades ? (
        <Text c="dimmed" size="sm" ta="center" py="xl">
          No trades to analyze yet.
        </Text>
      ) : (
        <Stack gap="lg">
          <div data-testid="results-by-week">
            <Text fw={600} size="sm">
              Results by Week
            </Text>
            <Text size="xs" c="dimmed" mb="xs">
              {(data?.by_week.length ?? 0) > WEEKS_SHOWN ? `Last ${WEEKS_SHOWN} weeks with trades` : 'Weeks start on Monday'}
            </Text>
            <BarChart
              table={weekTable}
              h={200}
              data={weeks}
              dataKey="label"
              type="stacked"
              series={SERIES}
              withLegend
              tickLine="y"
              yAxisProps={COUNT_AXIS}
            />
          </div>
          <div data-testid="results-by-weekday">
            <Text fw={600} size="sm" mb="xs">
              Results by Day of Week
            </Text>
            <BarChart
              table={weekdayTable}
              h={200}
              data={weekdays}
              dataKey="label"
              type="stacked"
              series={SERIES}
              withLegend
              tickLine="y"
              yAxisProps={COUNT_AXIS}
            />
          </div>
        </Stack>
      )}
    </Paper>
  );
}
