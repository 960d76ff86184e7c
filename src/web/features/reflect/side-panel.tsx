import { Group, List, Paper, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBulb, IconTrophy } from '@tabler/icons-react';
import { formatUsd } from '../../../domain/money';
import { pnlColor, TONE_COLOR } from '../../lib/tone';
import { getTopTags, isReflectionWinRateGood, type ReflectionStatistics, type TradingInsight } from '../../../domain/reflections';

/** Win rate green at 50 or more (else red), in colours with AA contrast in both themes. */
export const winRateColor = (winRate: number) => (isReflectionWinRateGood(winRate) ? TONE_COLOR.positive : TONE_COLOR.negative);

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** Period Stats (top 5 tags), Tags Analysis and Trading Insights. */
export function ReflectionSidePanel({ statistics, insights }: { statistics: ReflectionStatistics | undefined; insights: TradingInsight[] }) {
  const totals = statistics?.totals;
  const hasData = Boolean(totals && totals.totalTrades > 0);
  const topTags = statistics ? getTopTags(statistics) : [];
  return (
    <Stack gap="md">
      <Section title="Period Stats" testId="period-stats">
        {!hasData || !totals ? (
          <Text size="sm" c="dimmed">
            No reflection data available.
          </Text>
        ) : (
          <Stack gap="xs">
            <Group justify="space-between">
              <Text size="sm">Trades</Text>
              <Text size="sm" fw={600}>
                {totals.totalTrades}
              </Text>
            </Group>
            <Group justify="space-between">
              <Text size="sm">Win rate</Text>
              <Text size="sm" fw={600} c={winRateColor(totals.winRate)}>
                {totals.winRate.toFixed(1)}%
              </Text>
            </Group>
            <Group justify="space-between">
              <Text size="sm">Net P&amp;L</Text>
              <Text size="sm" fw={600} c={pnlColor(totals.pnlCents)}>
                {formatUsd(totals.pnlCents)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" mt="xs">
              Top tags
            </Text>
            {topTags.length === 0 ? (
              <Text size="sm" c="dimmed">
                No tags found for this period
              </Text>
            ) : (
              <List size="sm" spacing={2} data-testid="top-tags">
                {topTags.map((t) => (
                  <List.Item key={t.tag}>
                    {t.tag}{' '}
                    <Text span c="dimmed">
                      ({t.totalTrades})
                    </Text>
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        )}
      </Section>

      <Section title="Tags Analysis" testId="tags-analysis">
        {!statistics || statistics.byTag.length === 0 ? (
          <Text size="sm" c="dimmed">
            No tags found for this period
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={260}>
            <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Tag</Table.Th>
                  <Table.Th ta="right">Trades</Table.Th>
                  <Table.Th ta="right">Win rate</Table.Th>
                  <Table.Th ta="right">P&amp;L</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {statistics.byTag.map((t) => (
                  <Table.Tr key={t.tag}>
                    <Table.Td>{t.tag}</Table.Td>
                    <Table.Td ta="right">{t.totalTrades}</Table.Td>
                    <Table.Td ta="right" c={winRateColor(t.winRate)}>
                      {t.wins + t.losses === 0 ? '—' : `${t.winRate.toFixed(1)}%`}
                    </Table.Td>
                    <Table.Td ta="right" c={pnlColor(t.pnlCents)}>
                      {formatUsd(t.pnlCents)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>

      <Section title="Trading Insights" testId="trading-insights">
        {insights.length === 0 ? (
          <Text size="sm" c="dimmed">
            No reflection data available.
          </Text>
        ) : (
          <Stack gap="sm">
            {insights.map((insight) => (
              <Group key={insight.kind} gap="sm" wrap="nowrap" align="flex-start" data-testid={`insight-${insight.kind}`}>
                <ThemeIcon
                  variant="light"
                  color={insight.tone === 'positive' ? 'teal' : insight.tone === 'warning' ? 'orange' : 'gray'}
                  size="md"
                  radius="xl"
                  aria-hidden="true"
                >
                  {insight.tone === 'positive' ? (
                    <IconTrophy size={16} />
                  ) : insight.tone === 'warning' ? (
                    <IconAlertTriangle size={16} />
                  ) : (
                    <IconBulb size={16} />
                  )}
                </ThemeIcon>
                <Text size="sm">{insight.text}</Text>
              </Group>
            ))}
          </Stack>
        )}
      </Section>
    </Stack>
  );
}
