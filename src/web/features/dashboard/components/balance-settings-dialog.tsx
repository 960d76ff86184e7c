import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatUsd } from '../../../../domain/cents';
import { DEFAULT_STARTING_BALANCE_CENTS, parseStartingBalance } from '../../../../domain/stats';
import { apiFetch } from '../../../lib/api';
import { queryKeys, type AccountFilter, type TradingAccount } from '../../../shared/api';
import { notifyError } from '../api';
import { useDashboard } from '../dashboard-context';

/**
 * The starting balance of the Account Balance chart, which is each trading account's own since issue
 * 28: the chosen account's, or for All Trades each account's (the chart starts from their sum).
 */
export function BalanceSettingsDialog({
  onClose,
  account,
  accounts,
}: {
  onClose: () => void;
  account: AccountFilter;
  accounts: readonly TradingAccount[];
}) {
  const { openAccounts } = useDashboard();
  const client = useQueryClient();
  const shown = account === 'all' ? accounts : accounts.filter((a) => a.id === account);
  const [values, setValues] = useState<Record<string, string | number>>(() =>
    Object.fromEntries(shown.map((a) => [a.id, Number(a.starting_balance)])),
  );
  const save = useMutation({
    mutationFn: async () => {
      for (const a of shown) {
        // Numeric, falling back to 0.
        const cents = parseStartingBalance(values[a.id] ?? 0);
        if (cents === parseStartingBalance(a.starting_balance)) continue;
        await apiFetch<TradingAccount>(`/api/accounts/${a.id}`, {
          method: 'PATCH',
          body: JSON.stringify({ starting_balance: (cents / 100).toFixed(2) }),
        });
      }
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.accounts.all }),
    onSuccess: onClose,
    onError: () => notifyError('Failed to save the starting balance'),
  });

  return (
    <Modal opened onClose={onClose} title="Account Balance Settings" centered>
      {shown.length === 0 ? (
        <Stack gap="sm">
          <Text size="sm">
            Starting balances belong to trading accounts. Until you create one, the chart starts from {formatUsd(DEFAULT_STARTING_BALANCE_CENTS)}.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                onClose();
                openAccounts();
              }}
            >
              Manage accounts
            </Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate();
          }}
        >
          <Stack gap="sm">
            {shown.length > 1 && (
              <Text size="sm" c="dimmed">
                All Trades starts from the sum of your accounts&apos; starting balances.
              </Text>
            )}
            {shown.map((a, index) => (
              <NumberInput
                key={a.id}
                label={shown.length === 1 ? 'Starting Balance' : a.name}
                description={shown.length === 1 ? `The balance ${a.name} starts from (USD).` : undefined}
                value={values[a.id] ?? ''}
                onChange={(value) => setValues((v) => ({ ...v, [a.id]: value }))}
                prefix="$"
                thousandSeparator=","
                decimalScale={2}
                data-autofocus={index === 0 || undefined}
              />
            ))}
          </Stack>
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </form>
      )}
    </Modal>
  );
}
