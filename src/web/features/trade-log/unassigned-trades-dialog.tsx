import { Alert, Button, Center, Checkbox, Group, Loader, Modal, ScrollArea, Select, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { formatTradeLogDay } from '../../../domain/dates';
import { formatTradeType } from '../../../domain/trades';
import { ApiError } from '../../lib/api';
import type { TradingAccount } from '../../shared/api';
import { useTraderTime } from '../../shared/trader-clock';
import { unassignedTradesQuery, useAssignTrades } from './api';
import { PnlText, ResultBadge } from './trade-cells';
import { describeError, toastError, toastSuccess } from './toast';

interface UnassignedTradesDialogProps {
  opened: boolean;
  onClose: () => void;
  accounts: readonly TradingAccount[];
  /** A callback fires after assigning. */
  onAssigned?: (accountId: string, count: number) => void;
}

/** 'Manage Unassigned Trades': loading, authentication error, empty, table. */
export function UnassignedTradesDialog({ opened, onClose, accounts, onAssigned }: UnassignedTradesDialogProps) {
  const today = useTraderTime().today(new Date());
  // The dialog loads only when opened.
  const query = useInfiniteQuery({ ...unassignedTradesQuery, enabled: opened });
  const assign = useAssignTrades();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [accountId, setAccountId] = useState<string | null>(null);
  const trades = useMemo(() => query.data?.pages.flatMap((p) => p.trades) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  const authError = query.error instanceof ApiError && query.error.status === 401;

  useEffect(() => {
    if (!opened) return;
    setSelected(new Set());
    setAccountId((accounts.find((a) => a.is_default) ?? accounts[0])?.id ?? null);
  }, [opened, accounts]);

  useEffect(() => {
    if (query.isError && !authError) toastError('Failed to load unassigned trades');
  }, [query.isError, authError]);

  const allSelected = trades.length > 0 && trades.every((t) => selected.has(t.id));
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(trades.map((t) => t.id)));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submit = async () => {
    // An account and at least one trade are needed.
    if (!accountId) {
      toastError('Please select an account');
      return;
    }
    if (selected.size === 0) {
      toastError('Please select trades to assign');
      return;
    }
    try {
      const { assigned } = await assign.mutateAsync({ ids: [...selected], accountId });
      toastSuccess(`Successfully assigned ${assigned} trades to account`);
      setSelected(new Set());
      onAssigned?.(accountId, assigned);
    } catch (error) {
      toastError('Failed to assign trades', describeError(error));
    }
  };

  let body;
  if (query.isPending) {
    body = (
      <Center py="xl" data-testid="unassigned-loading">
        <Loader role="status" aria-label="Loading unassigned trades" />
      </Center>
    );
  } else if (authError) {
    body = (
      <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden="true" />} title="Authentication Error" data-testid="unassigned-auth-error">
        <Text size="sm">Unable to authenticate. Please refresh the page and try again.</Text>
        <Button size="xs" mt="sm" variant="light" color="red" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else if (query.isError) {
    body = (
      <Alert color="red" title="Failed to load unassigned trades">
        <Button size="xs" mt="xs" variant="light" color="red" onClick={() => void query.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  } else if (trades.length === 0) {
    body = (
      <Stack align="center" gap={4} py="xl" data-testid="unassigned-empty">
        <IconCircleCheck size={36} color="var(--mantine-color-teal-6)" aria-hidden="true" />
        <Text fw={600}>No Unassigned Trades</Text>
        <Text size="sm" c="dimmed">
          Every trade belongs to a trading account.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {total} trade{total === 1 ? '' : 's'} without an account. Select them and choose the account they belong to.
        </Text>
        <ScrollArea.Autosize mah="50vh" type="auto">
          <Table striped highlightOnHover verticalSpacing={6} data-testid="unassigned-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={60}>
                  <Group gap={6} wrap="nowrap">
                    <Checkbox
                      checked={allSelected}
                      indeterminate={!allSelected && selected.size > 0}
                      onChange={toggleAll}
                      aria-label="Select all unassigned trades"
                      data-testid="unassigned-select-all"
                    />
                    Select
                  </Group>
                </Table.Th>
                <Table.Th>Date</Table.Th>
                <Table.Th>Symbol</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>PnL</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {trades.map((trade) => (
                <Table.Tr key={trade.id} data-testid="unassigned-row">
                  <Table.Td>
                    <Checkbox
                      checked={selected.has(trade.id)}
                      onChange={() => toggle(trade.id)}
                      aria-label={`Select ${trade.symbol} ${trade.date}`}
                    />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTradeLogDay(trade.date, today)}</Table.Td>
                  <Table.Td>{trade.symbol}</Table.Td>
                  <Table.Td>{formatTradeType(trade.trade_type)}</Table.Td>
                  <Table.Td>
                    <PnlText trade={trade} />
                  </Table.Td>
                  <Table.Td>
                    <ResultBadge result={trade.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {query.hasNextPage && (
            <Center mt="xs">
              <Button size="xs" variant="subtle" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </ScrollArea.Autosize>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="Account"
            placeholder={accounts.length ? 'Choose an account' : 'Create an account first'}
            data={accounts.map((a) => ({ value: a.id, label: a.is_default ? `${a.name} ★` : a.name }))}
            value={accountId}
            onChange={(next) => next && setAccountId(next)}
            // Choosing the chosen account again keeps it (it cleared).
            allowDeselect={false}
            style={{ flex: 1, minWidth: 200 }}
            data-testid="unassigned-account"
          />
          <Button
            onClick={() => void submit()}
            loading={assign.isPending}
            // The assign button is disabled while loading.
            disabled={assign.isPending || query.isFetching}
            data-testid="unassigned-assign"
          >
            Assign {selected.size > 0 ? `${selected.size} ` : ''}to Account
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Manage Unassigned Trades" size="xl" centered data-testid="unassigned-dialog">
      {body}
    </Modal>
  );
}
