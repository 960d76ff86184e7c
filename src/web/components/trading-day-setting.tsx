import { SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../lib/api';
import { preferencesQuery, queryKeys, type Preferences } from '../shared/api';
import type { PreferencesUpdate } from '../../contract/preferences';

type TradingDay = Preferences['trading_day'];

const OPTIONS: { value: TradingDay; label: string }[] = [
  { value: 'exchange', label: 'Exchange trading day' },
  { value: 'calendar', label: 'Calendar day' },
];

const DESCRIPTION: Record<TradingDay, string> = {
  exchange:
    'Futures trades entered from 18:00 New York time count for the next trading day, as your broker and prop firm count them (Sunday evening is Monday).',
  calendar: 'Every imported trade counts for the calendar day of its entry (New York time).',
};

/**
 * The trader's trading-day setting: which day imported trades are filed under, for the calendar,
 * the statistics and the journal's daily P&L. Changing it re-files the stored imported trades on the server (manual
 * trades keep their date), so every trade view is refreshed afterwards. Shown in the import dialog and in the profile
 * settings.
 */
export function TradingDaySetting({ compact = false }: { compact?: boolean }) {
  const client = useQueryClient();
  const preferences = useQuery(preferencesQuery);
  const save = useMutation({
    mutationFn: (tradingDay: TradingDay) =>
      apiFetch<PreferencesUpdate>('/api/preferences', {
        method: 'PATCH',
        body: JSON.stringify({ trading_day: tradingDay }),
      }),
    onSuccess: async (saved) => {
      client.setQueryData<Preferences>(queryKeys.preferences.all, (old) => (old ? { ...old, trading_day: saved.trading_day } : old));
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.trades.all }),
        client.invalidateQueries({ queryKey: queryKeys.imports.all }),
      ]);
      const moved = saved.refiled_trades;
      notifications.show({
        color: 'teal',
        message: `Trading day saved: ${moved.toLocaleString('en-US')} imported ${moved === 1 ? 'trade' : 'trades'} moved to ${saved.trading_day === 'exchange' ? 'their exchange trading day' : 'their calendar day'}`,
      });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        message: error instanceof ApiError && error.status < 500 ? error.message : 'Failed to save the trading day',
      }),
  });
  const value = save.isPending && save.variables ? save.variables : preferences.data?.trading_day;
  return (
    <Stack gap={4} data-testid="trading-day-setting">
      <Text size="sm" fw={500} id="trading-day-label">
        Trading day of imported trades
      </Text>
      <SegmentedControl
        aria-labelledby="trading-day-label"
        data={OPTIONS}
        value={value ?? ''}
        onChange={(next) => save.mutate(next as TradingDay)}
        disabled={!preferences.data || save.isPending}
        size={compact ? 'xs' : 'sm'}
        fullWidth={!compact}
      />
      {value && (
        <Text size="xs" c="dimmed">
          {DESCRIPTION[value]}
        </Text>
      )}
    </Stack>
  );
}
