import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { toastError, toastSuccess } from '../../lib/toast';
import { preferencesQuery, propStatusQuery, queryKeys } from '../../shared/api';
import { useAccounts } from '../accounts';
import { useConnections, type BrokerConnection } from './api';
import { ConnectForm } from './connect-form';
import { ConnectionCard } from './connection-card';

/**
 * Broker connections: TopstepX by user name and API key, a crypto exchange (Binance USD-M, Bybit, Hyperliquid) by a
 * read-only key or a wallet address. Connect, choose where each account's trades go and from which day, then Sync now
 * (or let the schedule do it); progress and outcome show here.
 */
export function ConnectionsPage() {
  const { data, isPending, isError, refetch } = useConnections();
  const { data: accounts = [] } = useAccounts();
  const { data: preferences } = useQuery(preferencesQuery);
  const { data: propStatus } = useQuery(propStatusQuery);
  const propAccounts = new Map((propStatus?.accounts ?? []).map((summary) => [summary.account.id, summary]));
  const [adding, setAdding] = useState(false);
  useSyncOutcomes(data?.connections);

  const providers = data?.providers ?? [];
  const futures = providers.find((p) => p.id === 'topstepx');
  const label = futures?.label ?? 'TopstepX';
  const exchanges = providers.filter((p) => p.id !== 'topstepx').map((p) => p.label);
  const taken = new Set((data?.connections ?? []).flatMap((c) => c.accounts.map((a) => a.account_id).filter((id): id is string => id !== null)));
  return (
    <Stack gap="md" maw={1200}>
      <PageHeader title="Broker Connections" />
      <Text c="dimmed" mt={-12} maw={760}>
        Connect {label} once and your trades come in by themselves, with the fees {label} charged and every fill: no CSV export, for any period you
        choose.
        {exchanges.length > 0 && ` Crypto perpetuals too: ${exchanges.join(', ')}, with a read-only key or a wallet address.`}
      </Text>
      {isPending ? (
        <Loader size="sm" role="status" aria-label="Loading connections" />
      ) : isError || !data ? (
        <Alert color="red" variant="light" title="Failed to load broker connections">
          <Button size="xs" variant="light" color="red" onClick={() => void refetch()}>
            Retry
          </Button>
        </Alert>
      ) : (
        <>
          {data.connections.map((connection) => (
            <ConnectionCard
              key={connection.id}
              connection={connection}
              tradingAccounts={accounts}
              taken={taken}
              syncMinutes={providers[0]?.sync_minutes ?? 0}
              timeZone={preferences?.time_zone ?? 'America/New_York'}
              propAccounts={propAccounts}
            />
          ))}
          {data.connections.length === 0 || adding ? (
            <ConnectForm
              providers={providers.length > 0 ? providers : [{ id: 'topstepx', label }]}
              another={data.connections.length > 0}
              onConnected={() => setAdding(false)}
            />
          ) : (
            <Button variant="subtle" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={() => setAdding(true)} w="fit-content">
              {exchanges.length > 0 ? 'Connect another account' : `Connect another ${label} user`}
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}

/**
 * When a sync this page watched ends, the journal has new trades: every trade list, statistic and account is asked
 * again, and the trader hears how it went.
 */
function useSyncOutcomes(connections: BrokerConnection[] | undefined) {
  const client = useQueryClient();
  const wasRunning = useRef(new Set<string>());
  useEffect(() => {
    if (!connections) return;
    for (const connection of connections) {
      const before = wasRunning.current.has(connection.id);
      if (connection.sync.running) wasRunning.current.add(connection.id);
      else if (before) {
        wasRunning.current.delete(connection.id);
        void client.invalidateQueries({ queryKey: queryKeys.trades.all });
        void client.invalidateQueries({ queryKey: queryKeys.accounts.all });
        const outcome = connection.last_outcome;
        if (outcome?.status === 'ok') {
          toastSuccess(`${connection.provider_label} sync done`, `${outcome.added} ${outcome.added === 1 ? 'trade' : 'trades'} added.`);
        } else if (outcome) {
          toastError(`${connection.provider_label} sync failed`, outcome.message ?? undefined);
        }
      }
    }
  }, [connections, client]);
}
