import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { DEFAULT_TRADE_ORDER, queryKeys, type AccountFilter, type TradeOrder } from './keys';
import { awaitingDeleteParam } from './pending-deletes';
import type { Preferences, Profile, QuickLink, Task, TaskDayStatus, TradePage, TradePreferences, TradeStats, TradingAccount } from './types';
import type { UnassignedCount } from '../../../contract/trades';
import type { SavedView } from '../../../contract/saved-views';

/** The query of a URL; `filter` is a Reports filter's own parameters (lists repeat), written as they are. */
const qs = (params: Record<string, string | number | undefined>, filter = '') => {
  const search = new URLSearchParams(filter);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.append(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** Server calls with their query options, next to their keys. Mutations live with the feature that makes them. */
export const accountsQuery = queryOptions({
  queryKey: queryKeys.accounts.all,
  queryFn: () => apiFetch<TradingAccount[]>('/api/accounts'),
});

/** The server's parameters of a list order; the default order sends none. */
const orderParams = (order: TradeOrder) =>
  order.sort === DEFAULT_TRADE_ORDER.sort && order.dir === DEFAULT_TRADE_ORDER.dir ? {} : { sort: order.sort, dir: order.dir };

export const tradePageQuery = (account: AccountFilter, q = '', limit = 50, order: TradeOrder = DEFAULT_TRADE_ORDER, filter = '') =>
  queryOptions({
    queryKey: queryKeys.trades.list(account, q, limit, order, filter),
    queryFn: () => apiFetch<TradePage>(`/api/trades${qs({ account, q, limit, ...orderParams(order) }, filter)}`),
  });

/** Up to 500 trades of one trading day, newest first (GET /api/trades with from = to = the day). */
export const dayTradesQuery = (account: AccountFilter, date: string) =>
  queryOptions({
    queryKey: queryKeys.trades.day(account, date),
    queryFn: () => apiFetch<TradePage>(`/api/trades${qs({ account, from: date, to: date, limit: 500 })}`),
  });

/** A page of the list after `cursor` (the next_cursor of the page before, read in the same order). */
export const fetchTradePage = (
  account: AccountFilter,
  q: string,
  limit: number,
  cursor?: string,
  order: TradeOrder = DEFAULT_TRADE_ORDER,
  filter = '',
) => apiFetch<TradePage>(`/api/trades${qs({ account, q, limit, cursor, ...orderParams(order) }, filter)}`);

/** The page of `limit` trades that starts at position `offset` of the list in `order` (0 = first). */
export const fetchTradePageAt = (
  account: AccountFilter,
  q: string,
  limit: number,
  offset: number,
  order: TradeOrder = DEFAULT_TRADE_ORDER,
  filter = '',
) => apiFetch<TradePage>(`/api/trades${qs({ account, q, limit, offset, ...orderParams(order) }, filter)}`);

/**
 * Statistics of a filter. `days` chooses the per-day rows that travel: 'all', 'none', or those from a day on (the
 * earlier days summed into by_day_before); the summary and the weekly and weekday results always cover the filter.
 */
export const tradeStatsQuery = (account: AccountFilter, range: { from?: string; to?: string } = {}, q = '', days = 'all', filter = '') =>
  queryOptions({
    queryKey: queryKeys.trades.stats(account, range, q, days, filter),
    queryFn: () =>
      apiFetch<TradeStats>(
        `/api/trades/stats${qs({ account, q, from: range.from, to: range.to, days: days === 'all' ? undefined : days, exclude: awaitingDeleteParam() }, filter)}`,
      ),
  });

export const unassignedCountQuery = queryOptions({
  queryKey: queryKeys.trades.unassignedCount,
  queryFn: () => apiFetch<UnassignedCount>(`/api/trades/unassigned-count${qs({ exclude: awaitingDeleteParam() })}`),
});

export const tradePreferencesQuery = queryOptions({
  queryKey: queryKeys.tradePreferences.all,
  queryFn: () => apiFetch<TradePreferences>('/api/trade-preferences'),
});

export const preferencesQuery = queryOptions({
  queryKey: queryKeys.preferences.all,
  queryFn: () => apiFetch<Preferences>('/api/preferences'),
});

export const profileQuery = queryOptions({
  queryKey: queryKeys.profile.all,
  queryFn: () => apiFetch<Profile>('/api/profile'),
});

export const tasksByDateQuery = (date: string) =>
  queryOptions({
    queryKey: queryKeys.tasks.byDate(date),
    queryFn: () => apiFetch<Task[]>(`/api/tasks${qs({ date })}`),
  });

export const taskStatusQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: queryKeys.tasks.status(from, to),
    queryFn: () => apiFetch<TaskDayStatus[]>(`/api/tasks/status${qs({ from, to })}`),
  });

/** The trader's quick links, in their order (the dashboard widget and the search palette). */
export const quickLinksQuery = queryOptions({
  queryKey: queryKeys.quickLinks.all,
  queryFn: () => apiFetch<QuickLink[]>('/api/quick-links'),
});

/** The trader's saved report views, by name (the sidebar under Reports, the search palette, Save view). */
export const savedViewsQuery = queryOptions({
  queryKey: queryKeys.savedViews.all,
  queryFn: () => apiFetch<SavedView[]>('/api/saved-views'),
});
