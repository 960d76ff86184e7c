import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../lib/api';
import type { AccountKind } from '../../../domain/prop/types';
import { reportUnauthorized } from '../../lib/session-expiry';
import { accountsQuery, queryKeys, type TradingAccount } from '../../shared/api';

/** Create/Edit dialog values (kind, firm, size, starting balance). */
export interface AccountFormValues {
  name: string;
  description: string;
  is_default: boolean;
  kind: AccountKind;
  firm: string;
  /** Dollars as typed ('' for none). */
  size: string | number;
  starting_balance: string | number;
}

/** A refusal with the server's description, e.g. the delete guard's 'Please delete all trades for this account first'. */
export class AccountRequestError extends ApiError {
  readonly description: string | undefined;
  constructor(status: number, message: string, description?: string) {
    super(status, message);
    this.description = description;
  }
}

/** Like apiFetch, but keeps the `description` that the account routes send beside `error`. */
async function accountRequest<T>(path: string, init: RequestInit): Promise<T> {
  const response = await fetch(path, {
    credentials: 'same-origin',
    ...init,
    headers: { Accept: 'application/json', ...(init.body !== undefined && { 'Content-Type': 'application/json' }) },
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) {
    if (response.status === 401) reportUnauthorized();
    const record = (typeof body === 'object' && body !== null ? body : {}) as { error?: unknown; description?: unknown };
    throw new AccountRequestError(
      response.status,
      typeof record.error === 'string' ? record.error : `Request failed (${response.status})`,
      typeof record.description === 'string' ? record.description : undefined,
    );
  }
  return body as T;
}

export function useAccounts() {
  return useQuery(accountsQuery);
}

/** The default account, else the first (accounts arrive default first, then by name). */
export function pickDefaultAccount(accounts: readonly TradingAccount[] | undefined): TradingAccount | undefined {
  return accounts?.find((a) => a.is_default) ?? accounts?.[0];
}

// Renaming an account changes the account_name that every trade list shows; statistics do not depend on names. Its
// kind, starting balance and firm change its prop status and ledger.
function invalidateAccountsAndTradeLists(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.accounts.all }),
    client.invalidateQueries({ queryKey: queryKeys.trades.listAll }),
    client.invalidateQueries({ queryKey: queryKeys.trades.windowAll }),
    client.invalidateQueries({ queryKey: queryKeys.prop.all }),
  ]);
}

const toBody = (values: AccountFormValues) => ({
  name: values.name.trim(),
  description: values.description.trim() === '' ? null : values.description.trim(),
  is_default: values.is_default,
  kind: values.kind,
  firm: values.firm.trim() === '' ? null : values.firm.trim(),
  size: values.size === '' ? null : values.size,
  // Numeric, falling back to 0.
  starting_balance: values.starting_balance === '' ? 0 : values.starting_balance,
});

export function useCreateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: AccountFormValues) =>
      accountRequest<TradingAccount>('/api/accounts', { method: 'POST', body: JSON.stringify(toBody(values)) }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.accounts.all }),
  });
}

export function useUpdateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id: string; values: AccountFormValues }) =>
      accountRequest<TradingAccount>(`/api/accounts/${id}`, { method: 'PATCH', body: JSON.stringify(toBody(values)) }),
    onSuccess: () => invalidateAccountsAndTradeLists(client),
  });
}

export function useSetDefaultAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<TradingAccount>(`/api/accounts/${id}/default`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.accounts.all }),
  });
}

export function useDeleteAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => accountRequest<null>(`/api/accounts/${id}`, { method: 'DELETE' }),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: queryKeys.accounts.all }), client.invalidateQueries({ queryKey: queryKeys.prop.all })]),
  });
}
