import { queryOptions } from '@tanstack/react-query';
import type { CalendarDay } from '../../../domain/dates';
import { apiFetch } from '../../lib/api';
import { queryKeys, type NotePage, type TradePage } from '../../shared/api';

/** How many trades and notes the palette lists for a query: the best few, the Trade Log and Notebook hold the rest. */
export const PALETTE_RESULTS = 5;

/**
 * The trades the palette finds: those of a day when the query names one ('Mar 2', '3/2/2026'), else the
 * Trade Log's own search (symbol, contract, setup, session, notes, tags, account). Under ['trades'], so a changed
 * trade refreshes them.
 */
export const paletteTradesQuery = (query: string, day: CalendarDay | null) =>
  queryOptions({
    queryKey: queryKeys.trades.palette(day ?? query),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams(day ? { from: day, to: day } : { q: query });
      params.set('limit', String(PALETTE_RESULTS));
      return apiFetch<TradePage>(`/api/trades?${params}`, { signal });
    },
    staleTime: 30_000,
  });

/** The notes the palette finds: the notebook's full-text search, title words ranked first. */
export const paletteNotesQuery = (query: string) =>
  queryOptions({
    queryKey: queryKeys.notes.palette(query),
    queryFn: ({ signal }) => apiFetch<NotePage>(`/api/notes?${new URLSearchParams({ q: query, limit: String(PALETTE_RESULTS) })}`, { signal }),
    staleTime: 30_000,
  });
