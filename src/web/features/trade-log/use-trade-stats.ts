import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { tradeStatsQuery, type AccountFilter } from '../../shared/api';
import { isNetworkError, toastError } from './toast';

/**
 * Statistics of the trades the list shows: the selected account, the search (GET /api/trades/stats with `q`) and a
 * Reports filter (`filter`, its URL parameters),
 * shared by the Statistics and Trade Analysis panels. Neither reads per-day rows, so none travel.
 */
export function useTradeStats(account: AccountFilter | null, q = '', filter = '') {
  const query = useQuery({
    ...tradeStatsQuery(account ?? 'all', {}, q, 'none', filter),
    enabled: account !== null,
    placeholderData: keepPreviousData,
  });
  const failed = query.isError && !isNetworkError(query.error);
  useEffect(() => {
    // A failure shows its message; an unreachable server shows the connection banner instead.
    if (failed) toastError('Failed to load trade statistics');
  }, [failed]);
  return query;
}
