import { Alert, Button, Code, Group, List, Modal, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import { queryKeys } from '../../shared/api';
import { isNetworkError, toastError, toastSuccess } from './toast';

const WATCHED = [queryKeys.trades.all, queryKeys.accounts.all, queryKeys.tradePreferences.all];

/** True while a query this page shows failed because the API did not answer at all (not a 4xx/5xx answer). */
function useApiUnreachable(): boolean {
  const cache = useQueryClient().getQueryCache();
  return useSyncExternalStore(
    (onChange) => cache.subscribe(onChange),
    () =>
      WATCHED.some((queryKey) =>
        cache.findAll({ queryKey }).some((q) => q.state.status === 'error' && isNetworkError(q.state.error) && q.getObserversCount() > 0),
      ),
  );
}

/**
 * A connection warning with Retry Connection and Setup Instructions. The last loaded
 * trades stay on screen (TanStack Query's cache) while it shows.
 */
export function ConnectionBanner() {
  const client = useQueryClient();
  const unreachable = useApiUnreachable();
  const [retrying, setRetrying] = useState(false);
  const [help, setHelp] = useState(false);

  if (!unreachable) return null;

  const retry = async () => {
    setRetrying(true);
    await client.refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' });
    setRetrying(false);
    const stillDown = WATCHED.some((queryKey) =>
      client
        .getQueryCache()
        .findAll({ queryKey, type: 'active' })
        .some((q) => q.state.status === 'error' && isNetworkError(q.state.error)),
    );
    if (stillDown) toastError('Still unable to connect');
    else toastSuccess('Connection restored');
  };

  return (
    <>
      <Alert
        color="yellow"
        variant="light"
        icon={<IconPlugConnectedX size={20} aria-hidden="true" />}
        title="Could not connect to the trades server"
        mb="md"
        data-testid="connection-banner"
      >
        <Text size="sm">The Edgebook server is not answering. Trades already loaded stay visible; changes cannot be saved until it is back.</Text>
        <Group gap="xs" mt="sm">
          <Button size="xs" color="yellow.8" onClick={() => void retry()} loading={retrying} data-testid="retry-connection">
            Retry Connection
          </Button>
          <Button size="xs" variant="default" onClick={() => setHelp(true)}>
            Setup Instructions
          </Button>
        </Group>
      </Alert>
      <Modal opened={help} onClose={() => setHelp(false)} title="Setup Instructions" centered>
        <List type="ordered" spacing="xs" size="sm">
          <List.Item>
            Check that the Edgebook server is running: start it with <Code>npm start</Code> (or start its container) and open this page from the
            address it prints, by default <Code>http://localhost:3000</Code>.
          </List.Item>
          <List.Item>
            With PostgreSQL, check <Code>DATABASE_URL</Code> and that the database accepts connections; without it, check that the data folder (
            <Code>./data</Code>) is writable.
          </List.Item>
          <List.Item>Read the server's log for the error, fix it, then press Retry Connection.</List.Item>
        </List>
      </Modal>
    </>
  );
}
