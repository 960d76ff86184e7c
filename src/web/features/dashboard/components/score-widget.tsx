import { RadarChart } from '../../../components/charts';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatScorePoints } from '../../../../domain/stats';
import { useDashboard } from '../dashboard-context';
import { BAND_FILL, BAND_TONE, formatWinRate } from '../format';
import { WidgetCard } from './widget-card';

/** The score banded like the win rate (60+, 50+, below). */
const band = (score: number) => (score >= 60 ? 'green' : score >= 50 ? 'yellow' : 'red');

/**
 * Score = 0.4 x win rate + 0.3 x consistency + 0.3 x profit-factor score, out of 100; the server
 * computes it with the domain's formula (stats.summary.score) and this card only draws it.
 */
export function ScoreWidget({ widgetId, onRemove }: { widgetId: string; onRemove?: () => void }) {
  const { stats } = useDashboard();
  const score = stats?.summary.score ?? { score: 0, winRate: 0, consistency: 0, profitFactorScore: 0 };
  const decided = stats ? stats.summary.wins + stats.summary.losses : 0;
  // Without trades there is no score, only '—' ('0.0' read as a poor score).
  const trades = stats?.summary.trades ?? 0;
  // The win rate part is the win rate itself, written as the Win Rate card writes it ('39%' beside '39.0');
  // consistency and the profit-factor score are points out of 100, like the score.
  const parts = [
    { metric: 'Win Rate', value: score.winRate, weight: '40%', shown: formatWinRate(score.winRate, decided) },
    { metric: 'Consistency', value: score.consistency, weight: '30%', shown: formatScorePoints(score.consistency, trades) },
    { metric: 'Profit Factor', value: score.profitFactorScore, weight: '30%', shown: formatScorePoints(score.profitFactorScore, trades) },
  ];
  return (
    <WidgetCard widgetId={widgetId} title="Edgebook Score" onRemove={onRemove}>
      <Group justify="space-between" align="flex-end" mb={4}>
        <Text fw={800} fz={32} lh={1} c={trades > 0 ? BAND_TONE[band(score.score)] : 'dimmed'} data-testid="score-value">
          {formatScorePoints(score.score, trades)}
        </Text>
        <Text size="sm" c="dimmed">
          out of 100
        </Text>
      </Group>
      <Progress value={score.score} color={BAND_FILL[band(score.score)]} size="sm" mb="xs" aria-label="Score" />
      <RadarChart
        h={190}
        data={parts}
        dataKey="metric"
        withPolarRadiusAxis={false}
        polarRadiusAxisProps={{ domain: [0, 100] }}
        series={[{ name: 'value', label: 'Score', color: 'indigo.5', opacity: 0.35 }]}
        table={{ caption: 'Score parts', columns: ['Part', 'Weight', 'Value'], rows: parts.map((p) => [p.metric, p.weight, p.shown]) }}
      />
      <Stack gap={2}>
        {parts.map((p) => (
          <Group key={p.metric} justify="space-between">
            <Text size="xs" c="dimmed">
              {p.metric} ({p.weight})
            </Text>
            <Text size="xs" fw={700} data-testid={`score-part-${p.metric.toLowerCase().replace(' ', '-')}`}>
              {p.shown}
            </Text>
          </Group>
        ))}
      </Stack>
    </WidgetCard>
  );
}
