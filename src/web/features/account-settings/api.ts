import { notifications } from '@mantine/notifications';
import { queryOptions } from '@tanstack/react-query';
import type { AccountDeleted } from '../../../contract/account';
import { apiFetch } from '../../lib/api';
import { authClient } from '../../lib/auth-client';
import { queryKeys } from '../../shared/api';

async function unwrap<T>(call: Promise<{ data: T | null; error: { message?: string; status: number } | null }>): Promise<T> {
  const { data, error } = await call;
  if (error || data === null) throw new Error(error?.message || 'Request failed');
  return data;
}

export const signInMethodsQuery = queryOptions({
  queryKey: queryKeys.accountSettings.methods,
  queryFn: async () => (await unwrap(authClient.listAccounts())).map((account) => account.providerId),
});

export const sessionsQuery = queryOptions({
  queryKey: queryKeys.accountSettings.sessions,
  queryFn: () => unwrap(authClient.listSessions()),
});

export const deleteAccount = (email: string) => apiFetch<AccountDeleted>('/api/account', { method: 'DELETE', body: JSON.stringify({ email }) });

export const notifyError = (message: string) => notifications.show({ color: 'red', message });
export const notifySuccess = (message: string) => notifications.show({ color: 'green', message });
