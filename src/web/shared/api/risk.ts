import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import type { RiskDefaultBody, RiskDefaultDto } from '../../../contract/risk';
import type { BulkRiskInput, BulkRiskResult } from '../../../contract/trades';
import type { RReport } from '../../../contract/reports';
import type { AccountFilter } from './keys';
import { queryKeys } from './keys';
import { awaitingDeleteParam } from './pending-deletes';

export type { RiskDefaultDto } from '../../../contract/risk';

/** The trader's default risk per account and instrument, most specific first. */
export const riskDefaultsQuery = queryOptions({
  queryKey: queryKeys.riskDefaults.all,
  queryFn: () => apiFetch<RiskDefaultDto[]>('/api/risk-defaults'),
});

/** A default prices every trade without its own plan: a change refreshes the trades (their R) with the list. */
function useRiskChange<T, V>(mutationFn: (variables: V) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.riskDefaults.all }),
        client.invalidateQueries({ queryKey: queryKeys.trades.all }),
      ]);
    },
  });
}

export const usePutRiskDefault = () =>
  useRiskChange((body: RiskDefaultBody) => apiFetch<RiskDefaultDto>('/api/risk-defaults', { method: 'PUT', body: JSON.stringify(body) }));

export const useDeleteRiskDefault = () => useRiskChange((id: string) => apiFetch<null>(`/api/risk-defaults/${id}`, { method: 'DELETE' }));

/** One planned risk for the selected trades, all or none (POST /api/trades/bulk-risk). */
export const useBulkRisk = () =>
  useRiskChange((body: BulkRiskInput) => apiFetch<BulkRiskResult>('/api/trades/bulk-risk', { method: 'POST', body: JSON.stringify(body) }));

/**
 * An account's trades of some days in R, with each day's and week's (GET /api/reports/r): the dashboard and its
 * calendar in R. Under ['trades'], so every trade change and every change of a default refreshes it.
 */
export const rFiguresQuery = (account: AccountFilter, range: { from: string; to: string } | 'all-time') =>
  queryOptions({
    queryKey: queryKeys.trades.r(account, range),
    queryFn: () => {
      const params = new URLSearchParams(range === 'all-time' ? { range } : { range: 'custom', from: range.from, to: range.to });
      if (account !== 'all') params.set('account', account);
      return apiFetch<RReport>(`/api/reports/r?${params}`);
    },
  });

/**
 * The Trade Log's trades in R (GET /api/reports/r): the parameters its list and statistics send (its account, its
 * Reports filter, its search, the trades whose delete waits for Undo). Under ['trades'], so every trade change
 * refreshes it.
 */
export const tradeLogRQuery = (account: AccountFilter, q = '', filter = '') =>
  queryOptions({
    queryKey: queryKeys.trades.rLog(account, q, filter),
    queryFn: () => {
      const params = new URLSearchParams(filter);
      params.append('account', account);
      if (q) params.append('q', q);
      const exclude = awaitingDeleteParam();
      if (exclude) params.append('exclude', exclude);
      return apiFetch<RReport>(`/api/reports/r?${params}`);
    },
  });
