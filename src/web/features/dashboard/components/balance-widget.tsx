import { AreaChart } from '../../../components/charts';
import { formatAxisUsd } from '../../../../domain/cents';
import { formatDay } from '../../../../domain/dates';
import { ActionIcon, Group, SegmentedControl, Text } from '@mantine/core';
import { ArmedTooltip } from '../../../components/armed-tooltip';
import { IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { Cents } from '../../../../domain/cents';
import {
  BALANCE_RANGE_DAYS,
  buildBalanceSeries,
  DEFAULT_STARTING_BALANCE_CENTS,
  getLastDaysRange,
  parseStartingBalance,
  type BalanceRange,
} from '../../../../domain/stats';
import { accountsQuery, type AccountFilter, type TradingAccount } from '../../../shared/api';
import { useDashboard } from '../dashboard-context';
import { formatSignedUsd, formatUsd, pnlColor } from '../format';
import { WidgetCard } from './widget-card';
import { withAllStyles } from '../../../lib/all-styles';

// The number input (react-number-format) loads with the settings dialog, not with the dashboard.
const BalanceSettingsDialog = lazy(withAllStyles(() => import('./balance-settings-dialog').then((m) => ({ default: m.BalanceSettingsDialog }))));

/**
 * The starting balance of what the dashboard shows: the chosen account's own; for All Trades the sum of
 * every account's, so three 50K accounts start at $150,000; without any account the spec's default.
 * Null while the accounts are on their way.
 */
export function startingBalanceOf(account: AccountFilter, accounts: readonly TradingAccount[] | undefined): Cents | null {
  if (!accounts) return null;
  if (account === 'all') {
    return accounts.length === 0 ? DEFAULT_STARTING_BALANCE_CENTS : accounts.reduce((sum, a) => sum + parseStartingBalance(a.starting_balance), 0);
  }
  const chosen = accounts.find((a) => a.id === account);
  // Trades without an account have no balance of their own.
  return chosen ? parseStartingBalance(chosen.starting_balance) : 0;
}

/** The account balance from a starting balance (default 10000), ranges 90d (default), 30d, 7d. */
export function BalanceWidget({ widgetId, onRemove }: { widgetId: string; onRemove?: () => void }) {
  const { stats, now, timeZone, account } = useDashboard();
  const { data: accounts } = useQuery(accountsQuery);
  const [range, setRange] = useState<BalanceRange>('90d');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const startingCents = startingBalanceOf(account, accounts) ?? DEFAULT_STARTING_BALANCE_CENTS;

  const points = useMemo(() => {
    const days = (stats?.by_day ?? []).map((d) => ({ date: d.date, pnlCents: d.pnlCents }));
    return buildBalanceSeries({
      // Days older than those listed arrive summed.
      startingBalanceCents: startingCents + (stats?.by_day_before.pnlCents ?? 0),
      days,
      range: getLastDaysRange(BALANCE_RANGE_DAYS[range], now, timeZone),
    }).map((p) => ({ date: formatDay(p.date, 'MMM d'), Balance: p.balanceCents / 100, cents: p.balanceCents }));
  }, [stats, startingCents, range, now, timeZone]);
  const table = {
    caption: `Account balance, last ${BALANCE_RANGE_DAYS[range]} days`,
    columns: ['Day', 'Balance'],
    rows: points.map((p) => [p.date, formatUsd(p.cents)]),
  };
  const lastCents = points[points.length - 1]?.cents ?? startingCents;
  const change = lastCents - startingCents;

  return (
    <WidgetCard
      widgetId={widgetId}
      title="Account Balance"
      onRemove={onRemove}
      actions={
        <ArmedTooltip label="Account balance settings" withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            onClick={() => setSettingsOpen(true)}
            aria-label="Account balance settings"
            data-screenshot-ignore
          >
            <IconSettings size={16} aria-hidden="true" />
          </ActionIcon>
        </ArmedTooltip>
      }
    >
      <Group justify="space-between" align="flex-end" mb="xs" wrap="wrap" gap="xs">
        <div>
          <Text fw={800} size="xl" data-testid="balance-value" data-money>
            {formatUsd(lastCents)}
          </Text>
          <Text size="xs" c={pnlColor(change)} data-money>
            {formatSignedUsd(change)} since start
          </Text>
        </div>
        <SegmentedControl
          size="xs"
          value={range}
          onChange={(v) => setRange(v as BalanceRange)}
          data={['90d', '30d', '7d']}
          aria-label="Balance range"
        />
      </Group>
      <AreaChart
        h={170}
        data={points}
        dataKey="date"
        series={[{ name: 'Balance', color: change >= 0 ? 'teal.6' : 'red.6' }]}
        curveType="monotone"
        withDots={false}
        gridAxis="y"
        tickLine="none"
        // Whole dollars where the tick is whole, and as wide as its widest label: '$30,000.00' was wider than the
        // axis and ran past the card (the shared picture cut it at the card's edge).
        yAxisProps={{ width: 'auto', domain: ['auto', 'auto'], tickFormatter: (dollars: number) => formatAxisUsd(Math.round(dollars * 100)) }}
        xAxisProps={{ minTickGap: 24 }}
        valueFormatter={(v) => formatUsd(Math.round(v * 100))}
        table={table}
        // Its axis is dollar amounts too: hidden with them when the trader shares the dashboard without amounts.
        data-money-axis
      />
      {settingsOpen && (
        <Suspense fallback={null}>
          <BalanceSettingsDialog onClose={() => setSettingsOpen(false)} account={account} accounts={accounts ?? []} />
        </Suspense>
      )}
    </WidgetCard>
  );
}
