import { notifications } from '@mantine/notifications';
import { queryOptions } from '@tanstack/react-query';
import type { AccountDeleted } from '../../../contract/account';
import { apiFetch } from '../../lib/api';
import { authClient } from '../../lib/auth-client';

/** Server state of the account controls: the sign-in methods and the open sessions (better-auth's endpoints). */
export const accountKeys = {
  all: ['account-settings'] as const,
  methods: () => [...accountKeys.all, 'methods'] as const,
  sessions: () => [...accountKeys.all, 'sessions'] as const,
};

async function unwrap<T>(call: Promise<{ data: T | null; error: { message?: string; status: number } | null }>): Promise<T> {
  const { data, error } = await call;
  if (error || data === null) throw new Error(error?.message || 'Request failed');
  return data;
}

export const signInMethodsQuery = queryOptions({
  queryKey: accountKeys.methods(),
  queryFn: async () => (await unwrap(authClient.listAccounts())).map((account) => account.providerId),
});

export const sessionsQuery = queryOptions({
  queryKey: accountKeys.sessions(),
  queryFn: () => unwrap(authClient.listSessions()),
});

export const deleteAccount = (email: string) =>
  apiFetch<AccountDeleted>('/api/account', { method: 'DELETE', body: JSON.stringify({ email }) });

export const notifyError = (message: string) => notifications.show({ color: 'red', message });
export const notifySuccess = (message: string) => notifications.show({ color: 'green', message });
