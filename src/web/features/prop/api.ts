import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LedgerEntry, LedgerInput, RuleSet, RuleSetInput } from '../../../contract/prop';
import { apiFetch } from '../../lib/api';
import { queryKeys } from '../../shared/api';

/** The prop screens' writes; each refreshes the statuses and the ledger, which they change. */
function useInvalidateProp() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: queryKeys.prop.all });
}

export function useSaveRules(accountId: string) {
  const invalidate = useInvalidateProp();
  return useMutation({
    mutationFn: (input: RuleSetInput) => apiFetch<RuleSet>(`/api/prop/accounts/${accountId}/rules`, { method: 'PUT', body: JSON.stringify(input) }),
    onSuccess: invalidate,
  });
}

export function useRemoveRules(accountId: string) {
  const invalidate = useInvalidateProp();
  return useMutation({
    mutationFn: () => apiFetch<null>(`/api/prop/accounts/${accountId}/rules`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useAddLedgerEntry(accountId: string) {
  const invalidate = useInvalidateProp();
  return useMutation({
    mutationFn: (input: LedgerInput) =>
      apiFetch<LedgerEntry>(`/api/prop/accounts/${accountId}/ledger`, { method: 'POST', body: JSON.stringify(input) }),
    onSuccess: invalidate,
  });
}

export function useDeleteLedgerEntry() {
  const invalidate = useInvalidateProp();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/prop/ledger/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
