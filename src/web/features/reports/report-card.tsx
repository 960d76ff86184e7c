import { Alert, Group, Loader, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatUsd } from '../../../domain/money';
import { pnlColor } from '../../lib/tone';
import classes from './reports.module.css';

/** A report's card: its title, what it shows in a line, tools on the right, and the report. */
export function ReportCard({
  title,
  description,
  actions,
  children,
  testId,
  busy,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** A new filter's figures are on their way (the old ones stay until then). */
  busy?: boolean;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-label={title}
      className={classes.card}
      data-testid={testId}
      data-money
    >
      <Group justify="space-between" align="flex-start" mb="sm" gap="xs" wrap="wrap">
        <div>
          <Group gap="xs">
            <Title order={2} size="h4">
              {title}
            </Title>
            {busy && <Loader size="xs" role="status" aria-label="Updating" />}
          </Group>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {actions && (
          <Group gap="xs" className={classes.noPrint}>
            {actions}
          </Group>
        )}
      </Group>
      {children}
    </Paper>
  );
}

export function ReportLoading({ height = 240 }: { height?: number }) {
  return (
    <Stack gap="sm" aria-busy="true" aria-label="Loading report">
      <Skeleton height={24} width="40%" />
      <Skeleton height={height} />
    </Stack>
  );
}

export function ReportError({ error }: { error: unknown }) {
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} aria-hidden="true" />} title="This report could not be loaded" data-testid="report-error">
      {error instanceof Error ? error.message : 'Please try again.'}
    </Alert>
  );
}

/** No trades in the filter: say so, and how to widen it. */
export function NoTrades({ what = 'trades' }: { what?: string }) {
  return (
    <Text c="dimmed" ta="center" py="xl" data-testid="report-empty">
      No {what} match these filters. Widen the date range or remove a filter to see more.
    </Text>
  );
}

/** Money coloured by its sign: green above zero, red below, dimmed at zero. */
export function Money({ cents, size = 'sm', fw = 600 }: { cents: number | null; size?: string; fw?: number }) {
  if (cents === null) {
    return (
      <Text span c="dimmed" size={size}>
        —
      </Text>
    );
  }
  return (
    <Text span c={pnlColor(cents)} size={size} fw={fw} className={classes.numeric}>
      {formatUsd(cents)}
    </Text>
  );
}

/** Chart values are dollars (a chart's axis needs numbers); every figure shown in text comes from the cents. */
export const toDollars = (cents: number) => cents / 100;
export const formatDollarsAxis = (dollars: number) => {
  const abs = Math.abs(dollars);
  const sign = dollars < 0 ? '-' : '';
  if (abs >= 1_000_000) return `${sign}$${(abs / 1_000_000).toFixed(1)}M`;
  if (abs >= 10_000) return `${sign}$${Math.round(abs / 1000)}k`;
  if (abs >= 1000) return `${sign}$${(abs / 1000).toFixed(1)}k`;
  return `${sign}$${Math.round(abs)}`;
};
export const formatDollarsTooltip = (dollars: number) => formatUsd(Math.round(dollars * 100));
