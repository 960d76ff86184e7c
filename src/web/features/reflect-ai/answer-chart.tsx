import { BarChart, LineChart } from '@mantine/charts';
import { Paper, Text, VisuallyHidden } from '@mantine/core';
import type { AnswerChart as Chart } from '../../../domain/chat';
import { formatAxisUsd, formatUsd } from '../../../domain/money';

const usd = (dollars: number) => formatUsd(Math.round(dollars * 100));
const axisUsd = (dollars: number) => formatAxisUsd(Math.round(dollars * 100));

/**
 * A tool result that is a series (P&L by weekday, an equity curve), drawn under the answer that used it. The figures
 * are the tool's, in cents from our own code; the chart only draws them. Screen readers get a table of the same
 * figures instead (the drawing is hidden from them, and out of the tab order).
 */
export function AnswerChart({ chart }: { chart: Chart }) {
  const data = chart.points.map((p) => ({ label: p.label, 'Net P&L': p.cents / 100 }));
  const common = {
    h: 200,
    data,
    dataKey: 'label',
    gridAxis: 'x' as const,
    tickLine: 'none' as const,
    valueFormatter: usd,
    yAxisProps: { width: 'auto' as const, tickFormatter: axisUsd },
    xAxisProps: { minTickGap: 12 },
  };
  return (
    <Paper withBorder radius="md" p="sm" data-testid="answer-chart" data-kind={chart.kind}>
      <Text size="sm" fw={600} mb="xs" component="h3">
        {chart.title}
      </Text>
      <div aria-hidden="true">
        {chart.kind === 'line' ? (
          <LineChart
            {...common}
            series={[{ name: 'Net P&L', color: 'indigo.6' }]}
            curveType="monotone"
            withDots={data.length <= 31}
            lineChartProps={{ accessibilityLayer: false }}
          />
        ) : (
          <BarChart
            {...common}
            series={[{ name: 'Net P&L', color: 'teal.6' }]}
            getBarColor={(value) => (value < 0 ? 'red.6' : 'teal.6')}
            barChartProps={{ accessibilityLayer: false }}
          />
        )}
      </div>
      <VisuallyHidden>
        <table data-testid="answer-chart-table">
          <caption>{chart.title}</caption>
          <tbody>
            {chart.points.map((p) => (
              <tr key={p.label}>
                <th scope="row">{p.label}</th>
                <td>{formatUsd(p.cents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Paper>
  );
}
