import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys, type Note, type TradeDetails } from '../../shared/api';

/** GET /api/trade-details/:id: the whole page in one request (the trade, its neighbours, notes, attachments). */
export const tradeDetailsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.tradeDetails.detail(id),
    queryFn: () => apiFetch<TradeDetails>(`/api/trade-details/${id}`),
    // An unknown or another trader's trade is a 404: no point asking again.
    retry: (count, error) => count < 1 && !(error instanceof Error && 'status' in error && (error as { status: number }).status === 404),
  });

/** Spec part 2 "Trade details": Create Linked Note (title, content) on this trade. */
export function useCreateLinkedNote(tradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { title: string; content: string }) =>
      apiFetch<Note>('/api/notes', { method: 'POST', body: JSON.stringify({ ...input, trade_id: tradeId }) }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.tradeDetails.detail(tradeId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.notes.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.noteFolders.all });
    },
  });
}
