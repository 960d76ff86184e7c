import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys } from './keys';
import type { Trade } from './types';

/** The fields a trade can change on their own, without the Edit dialog: its notes, its tags. */
export type TradeFieldPatch = Pick<Partial<Trade>, 'notes' | 'tags'>;

/**
 * Every cached shape that holds trades under ['trades']: a page ({ trades }), pages ({ pages }), a trade's page
 * ({ trade }) or a trade itself. The trade with `id` gets `patch`; anything else is returned as it was.
 */
function patchTradeIn(data: unknown, id: string, patch: TradeFieldPatch): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const record = data as Record<string, unknown>;
  if (Array.isArray(record.pages)) return { ...record, pages: record.pages.map((page) => patchTradeIn(page, id, patch)) };
  if (Array.isArray(record.trades)) {
    const trades = record.trades as Array<{ id?: string }>;
    return trades.some((t) => t.id === id) ? { ...record, trades: trades.map((t) => (t.id === id ? { ...t, ...patch } : t)) } : data;
  }
  if (typeof record.trade === 'object' && record.trade !== null && (record.trade as { id?: string }).id === id) {
    return { ...record, trade: { ...(record.trade as object), ...patch } };
  }
  if (record.id === id && 'symbol' in record) return { ...record, ...patch };
  return data;
}

/** Puts the change on screen at once wherever the trade shows; gives back how to undo it. */
async function patchEverywhere(client: QueryClient, id: string, patch: TradeFieldPatch) {
  const key: QueryKey = queryKeys.trades.all;
  await client.cancelQueries({ queryKey: key });
  const snapshots = client.getQueriesData({ queryKey: key });
  for (const [queryKey, data] of snapshots) {
    const next = patchTradeIn(data, id, patch);
    if (next !== data) client.setQueryData(queryKey, next);
  }
  return () => {
    for (const [queryKey, data] of snapshots) client.setQueryData(queryKey, data);
  };
}

/**
 * A trade's notes or tags saved on their own (a failure says 'Failed to update tags').
 * Optimistic: the lists, the day dialog and the trade's page show the change at once, and show the old value again
 * if the server refuses it (optimistic updates with rollback). Every trade query is refreshed after.
 */
export function useTradeFieldUpdate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TradeFieldPatch }) =>
      apiFetch<Trade>(`/api/trades/${id}`, { method: 'PATCH', body: JSON.stringify(patch) }),
    onMutate: async ({ id, patch }) => ({ rollback: await patchEverywhere(client, id, patch) }),
    onError: (_error, _vars, context) => context?.rollback(),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.trades.all }),
  });
}
