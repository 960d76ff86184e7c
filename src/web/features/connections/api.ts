import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';
import type {
  BrokerAccountUpdate,
  BrokerConnection,
  BrokerConnectionList,
  ConnectionInput,
  ConnectionTest,
  ConnectionUpdate,
} from '../../../contract/connections';

export type { BrokerAccount, BrokerConnection, BrokerConnectionList, ConnectionTest, SyncOutcome, SyncProgress } from '../../../contract/connections';

/** While a sync runs the page asks for its progress every second. */
const POLL_MS = 1000;

export const connectionsQuery = queryOptions({
  queryKey: queryKeys.connections.all,
  queryFn: () => apiFetch<BrokerConnectionList>('/api/connections'),
  refetchInterval: (query) => (query.state.data?.connections.some((c) => c.sync.running) ? POLL_MS : false),
});

export function useConnections() {
  return useQuery(connectionsQuery);
}

const json = (method: string, body?: unknown): RequestInit => ({ method, ...(body !== undefined && { body: JSON.stringify(body) }) });

/** Puts the connection the server answered into the list, so the page shows it at once. */
function useStore() {
  const client = useQueryClient();
  return (connection: BrokerConnection) =>
    client.setQueryData<BrokerConnectionList>(queryKeys.connections.all, (list) =>
      list
        ? {
            ...list,
            connections: list.connections.some((c) => c.id === connection.id)
              ? list.connections.map((c) => (c.id === connection.id ? connection : c))
              : [...list.connections, connection],
          }
        : list,
    );
}

export function useTestConnection() {
  return useMutation({ mutationFn: (input: ConnectionInput) => apiFetch<ConnectionTest>('/api/connections/test', json('POST', input)) });
}

export function useConnect() {
  const store = useStore();
  return useMutation({
    mutationFn: (input: ConnectionInput) => apiFetch<BrokerConnection>('/api/connections', json('POST', input)),
    onSuccess: store,
  });
}

export function useReplaceKey() {
  const store = useStore();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ConnectionUpdate }) =>
      apiFetch<BrokerConnection>(`/api/connections/${id}`, json('PATCH', input)),
    onSuccess: store,
  });
}

export function useRemoveConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/connections/${id}`, json('DELETE')),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.connections.all }),
  });
}

export function useMapAccount() {
  const store = useStore();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ connectionId, accountId, input }: { connectionId: string; accountId: string; input: BrokerAccountUpdate }) =>
      apiFetch<BrokerConnection>(`/api/connections/${connectionId}/broker-accounts/${accountId}`, json('PATCH', input)),
    onSuccess: (connection, { input }) => {
      store(connection);
      // A prop account made with the mapping: its kind, size and starting balance, and its status, changed.
      if (input.prop) {
        void client.invalidateQueries({ queryKey: queryKeys.accounts.all });
        void client.invalidateQueries({ queryKey: queryKeys.prop.all });
      }
    },
  });
}

export function useSyncNow() {
  const store = useStore();
  return useMutation({
    mutationFn: (id: string) => apiFetch<BrokerConnection>(`/api/connections/${id}/sync`, json('POST')),
    onSuccess: store,
  });
}
