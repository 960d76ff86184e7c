import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { tradeStatsQuery, type AccountFilter } from '../../shared/api';
import { isNetworkError, toastError } from './toast';

/** Statistics of the selected account (GET /api/trades/stats), shared by the Statistics and Trade Analysis panels.
 * Neither reads per-day rows, so none travel. */
export function useTradeStats(account: AccountFilter | null) {
  const query = useQuery({ ...tradeStatsQuery(account ?? 'all', {}, '', 'none'), enabled: account !== null });
  const failed = query.isError && !isNetworkError(query.error);
  useEffect(() => {
    // Part 2 §8; an unreachable server shows the connection banner instead.
    if (failed) toastError('Failed to load trade statistics');
  }, [failed]);
  return query;
}
