import { Alert, Button, Grid, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatShortDay } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import type { groupReflectionsByDate, Reflection, ReflectionStatistics, TradingInsight } from '../../../domain/reflections';
import { pnlColor } from '../../lib/tone';
import type { ReflectionsPage } from './api';
import { ReflectionCard, type ReflectionCardProps } from './reflection-card';
import { ReflectionSidePanel, winRateColor } from './side-panel';
import classes from './reflect.module.css';

/**
 * The pieces of the Reflect page that take the page's data as it is: the trader's own page and a mentor's read-only
 * view of it show them alike.
 */

export function SummaryCard({ page, aiInsight }: { page: ReflectionsPage | undefined; aiInsight: string | null }) {
  const totals = page?.statistics.totals;
  const adherence = page?.statistics.adherence;
  const insight = aiInsight ?? page?.insights[0]?.text ?? null;
  const tile = (label: string, value: React.ReactNode, testId: string) => (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz="xl" fw={700} data-testid={testId} component="div">
        {value}
      </Text>
    </div>
  );
  return (
    <Paper withBorder radius="md" p="md" data-testid="summary-card">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        {tile('Total Trades', totals ? totals.totalTrades : '—', 'summary-total-trades')}
        {tile(
          'Win Rate',
          totals && totals.wins + totals.losses > 0 ? (
            <Text span inherit c={winRateColor(totals.winRate)}>
              {totals.winRate.toFixed(1)}%
            </Text>
          ) : (
            '—'
          ),
          'summary-win-rate',
        )}
        {tile('Rule Adherence', adherence?.adherenceRate == null ? '—' : `${adherence.adherenceRate.toFixed(1)}%`, 'summary-rule-adherence')}
        <div className={classes.insightTile}>
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            AI Insight
          </Text>
          <Text size="sm" data-testid="summary-ai-insight" lineClamp={3}>
            {insight ?? 'No reflection data available.'}
          </Text>
        </div>
      </SimpleGrid>
    </Paper>
  );
}

/** The period's trades by day, newest first, each day with its P&L. Read only without `onChange`. */
export function ReflectionDays({
  groups,
  onChange,
}: {
  groups: ReturnType<typeof groupReflectionsByDate>;
  onChange?: ReflectionCardProps['onChange'];
}) {
  return groups.map((group) => (
    <section key={group.date} aria-labelledby={`day-${group.date}`} data-testid="reflection-day">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5" id={`day-${group.date}`}>
          {group.day}, {formatShortDay(group.date)}
        </Title>
        <Text size="sm" fw={600} c={pnlColor(group.pnlCents)}>
          {formatUsd(group.pnlCents)}
        </Text>
      </Group>
      <Stack gap="sm">
        {group.reflections.map((r) => (
          <ReflectionCard key={r.id} reflection={r} onChange={onChange} />
        ))}
      </Stack>
    </section>
  ));
}

/**
 * A period's body: its trades by day (the first `shown`, then "Show more") beside its figures. The trader's Reflect page
 * and their mentor's read-only one (no `onChange`) both draw it; each says what shows while it loads and when empty.
 */
export function ReflectionPeriodGrid({
  error,
  loading,
  placeholder,
  empty,
  reflections,
  groups,
  shown,
  onShowMore,
  onChange,
  statistics,
  insights,
}: {
  error: boolean;
  loading: boolean;
  placeholder: ReactNode;
  empty: string;
  reflections: readonly Reflection[];
  groups: ReturnType<typeof groupReflectionsByDate>;
  shown: number;
  onShowMore: () => void;
  onChange?: ReflectionCardProps['onChange'];
  statistics: ReflectionStatistics | undefined;
  insights: TradingInsight[];
}) {
  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 8 }}>
        {error ? (
          <Alert color="red" title="Failed to load reflections">
            No reflection data available.
          </Alert>
        ) : loading ? (
          placeholder
        ) : reflections.length === 0 ? (
          <Paper withBorder radius="md" p="xl" data-testid="reflections-empty">
            <Text ta="center" c="dimmed">
              {empty}
            </Text>
          </Paper>
        ) : (
          <Stack gap="lg" data-testid="reflections">
            <ReflectionDays groups={groups} onChange={onChange} />
            {reflections.length > shown && (
              <Button variant="default" onClick={onShowMore}>
                Show more ({reflections.length - shown} more)
              </Button>
            )}
          </Stack>
        )}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <ReflectionSidePanel statistics={statistics} insights={insights} />
      </Grid.Col>
    </Grid>
  );
}
