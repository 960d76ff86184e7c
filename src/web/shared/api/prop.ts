import { queryOptions } from '@tanstack/react-query';
import type { Ledger, PropAccountDetail, PropStatusList } from '../../../contract/prop';
import { apiFetch } from '../../lib/api';
import { queryKeys } from './keys';

export type { Ledger, LedgerEntry, PropAccountDetail, PropAccountSummary, PropStatusList, RuleSet } from '../../../contract/prop';

/** Every prop account's standing today (the dashboard's Prop Accounts widget). */
export const propStatusQuery = queryOptions({
  queryKey: queryKeys.prop.status,
  queryFn: () => apiFetch<PropStatusList>('/api/prop/status'),
});

/** One account's rule set, full status and ledger (its status page). */
export const propAccountQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.prop.account(id),
    queryFn: () => apiFetch<PropAccountDetail>(`/api/prop/accounts/${id}`),
    retry: (count, error) => count < 1 && !(error instanceof Error && 'status' in error && [400, 404].includes((error as { status: number }).status)),
  });

/** Every ledger entry and the prop ROI per firm and overall. */
export const propLedgerQuery = queryOptions({
  queryKey: queryKeys.prop.ledger,
  queryFn: () => apiFetch<Ledger>('/api/prop/ledger'),
});
