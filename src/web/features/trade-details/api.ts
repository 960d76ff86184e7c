import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { queryKeys, type Note, type TradeChart, type TradeDetails, type TradeFills } from '../../shared/api';

/** GET /api/trade-details/:id: the whole page in one request (the trade, its neighbours, notes, attachments). */
export const tradeDetailsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.tradeDetails.detail(id),
    queryFn: () => apiFetch<TradeDetails>(`/api/trade-details/${id}`),
    // An unknown or another trader's trade is a 404: no point asking again.
    retry: (count, error) => count < 1 && !(error instanceof Error && 'status' in error && (error as { status: number }).status === 404),
  });

/** Create Linked Note (title, content) on this trade. */
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

/** GET /api/market/trades/:id/chart: the bars around the trade, its fills, and its MAE, MFE and exit analysis. */
export const tradeChartQuery = (id: string, padding: number, resolution: number | null) =>
  queryOptions({
    queryKey: queryKeys.market.chart(id, padding, resolution),
    queryFn: () => apiFetch<TradeChart>(`/api/market/trades/${id}/chart?padding=${padding}${resolution ? `&resolution=${resolution}` : ''}`),
    // Keeps the chart drawn while another padding loads.
    placeholderData: (previous) => previous,
  });

/** One fill as the trade page edits it: the time as typed in the trader's zone, the rest as text. */
export interface FillDraft {
  time: string;
  side: 'Buy' | 'Sell';
  quantity: string;
  price: string;
  commission: string;
}

/** PUT /api/trades/:id/fills: a manual trade's fills, all of them; the trade's prices and times follow. */
export function useSaveFills(tradeId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fills: Array<{ time: string; side: 'Buy' | 'Sell'; quantity: string; price: string; commission: string | null }>) =>
      apiFetch<TradeFills>(`/api/trades/${tradeId}/fills`, { method: 'PUT', body: JSON.stringify({ fills }) }),
    onSuccess: () => {
      // The trade's own fields follow its fills: every list, statistic and chart of trades.
      void queryClient.invalidateQueries({ queryKey: queryKeys.trades.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.market.all });
    },
  });
}
