import {
  infiniteQueryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type Query,
  type QueryKey,
} from '@tanstack/react-query';
import { apiFetch } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import {
  fetchTradePage,
  queryKeys,
  type AccountFilter,
  type Trade,
  type TradeInputBody,
  type TradePage,
  type TradePreferences,
} from '../../shared/api';

/** Spec part 2 §9: the compact table shows the 5 most recent trades. */
export const COMPACT_LIMIT = 5;
/** The first page of the maximized list is small so it paints at once; later pages are the API's maximum. */
const FIRST_PAGE = 100;
const NEXT_PAGES = 500;

/** Every trade of a filter, walked by keyset pages as the maximized list scrolls. */
export const tradeInfiniteQuery = (account: AccountFilter, q: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.trades.infinite(account, q),
    queryFn: ({ pageParam }) => fetchTradePage(account, q, pageParam ? NEXT_PAGES : FIRST_PAGE, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last: TradePage) => last.next_cursor,
    // Refetching on focus re-reads every loaded page; only worth it while the list is short.
    refetchOnWindowFocus: (query) => !isDeepList(query),
  });

/** The trades of the 'Manage Unassigned Trades' dialog, read only while it is open (part 2 §4 "Assignment"). */
export const unassignedTradesQuery = infiniteQueryOptions({
  queryKey: [...queryKeys.trades.all, 'unassigned-dialog'] as const,
  queryFn: ({ pageParam }) => fetchTradePage('unassigned', '', 200, pageParam ?? undefined),
  initialPageParam: null as string | null,
  getNextPageParam: (last: TradePage) => last.next_cursor,
});

const LIST_KEYS: QueryKey[] = [
  [...queryKeys.trades.all, 'list'],
  [...queryKeys.trades.all, 'infinite'],
  [...queryKeys.trades.all, 'unassigned-dialog'],
  [...queryKeys.trades.all, 'day'],
];

type ListData = TradePage | InfiniteData<TradePage, string | null>;

function withoutTrades(data: ListData | undefined, ids: ReadonlySet<string>): ListData | undefined {
  if (!data) return data;
  const pages = 'pages' in data ? data.pages : [data];
  // `total` counts the whole filter on every page, so each page loses everything removed from all pages.
  const removed = pages.reduce((n, p) => n + p.trades.filter((t) => ids.has(t.id)).length, 0);
  if (removed === 0) return data;
  const prune = (page: TradePage): TradePage => ({
    ...page,
    trades: page.trades.filter((t) => !ids.has(t.id)),
    total: Math.max(0, page.total - removed),
  });
  return 'pages' in data ? { ...data, pages: data.pages.map(prune) } : prune(data);
}

/**
 * Removes trades from every cached list at once and returns how to put them back (part 2 §4: deleting is
 * optimistic; the trade is restored if the server call fails).
 */
async function removeFromLists(client: QueryClient, ids: ReadonlySet<string>) {
  await Promise.all(LIST_KEYS.map((queryKey) => client.cancelQueries({ queryKey })));
  const snapshots = LIST_KEYS.flatMap((queryKey) => client.getQueriesData<ListData>({ queryKey }));
  for (const queryKey of LIST_KEYS) client.setQueriesData<ListData>({ queryKey }, (data) => withoutTrades(data, ids));
  return () => {
    for (const [key, data] of snapshots) client.setQueryData(key, data);
  };
}

/** A maximized list scrolled deep holds hundreds of pages; refetching them all after one change would resend it all. */
const isDeepList = (query: Pick<Query, 'queryKey' | 'state'>) =>
  query.queryKey[1] === 'infinite' && ((query.state.data as InfiniteData<TradePage> | undefined)?.pages.length ?? 0) > 2;

type TradeChange = { kind: 'insert' } | { kind: 'update'; trade: Trade } | { kind: 'delete' };

/**
 * Every trade mutation can change lists, statistics, the unassigned count and details: all start with ['trades'] and
 * are refetched, except deep maximized lists: an edited trade is patched in place, a deleted one is already gone
 * (optimistic), and new trades reload the list from its first page (the rest follow as the trader scrolls).
 */
async function refreshTrades(client: QueryClient, change: TradeChange) {
  if (change.kind === 'update') {
    const { trade } = change;
    client.setQueriesData<InfiniteData<TradePage, string | null>>({ queryKey: [...queryKeys.trades.all, 'infinite'] }, (data) =>
      data && { ...data, pages: data.pages.map((p) => ({ ...p, trades: p.trades.map((t) => (t.id === trade.id ? trade : t)) })) },
    );
  }
  const deep = client.getQueryCache().findAll({ queryKey: queryKeys.trades.all, predicate: isDeepList });
  const deepKeys = new Set(deep.map((q) => q.queryHash));
  await Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.trades.all, predicate: (q) => !deepKeys.has(q.queryHash) }),
    ...deep.map((q) =>
      change.kind === 'insert'
        ? client.resetQueries({ queryKey: q.queryKey, exact: true })
        : client.invalidateQueries({ queryKey: q.queryKey, exact: true, refetchType: 'none' }),
    ),
  ]);
}

/** For callers outside this file (the import dialog's onImported, assignment): new or moved trades. */
export const refreshAfterInsert = (client: QueryClient) => refreshTrades(client, { kind: 'insert' });

export function useCreateTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TradeInputBody & { status?: string }) =>
      apiFetch<Trade>('/api/trades', { method: 'POST', body: JSON.stringify(body) }),
    onSuccess: () => refreshTrades(client, { kind: 'insert' }),
  });
}

export function useUpdateTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: TradeInputBody & { status?: string } }) =>
      apiFetch<Trade>(`/api/trades/${id}`, { method: 'PATCH', body: JSON.stringify(body) }),
    onSuccess: (trade) => refreshTrades(client, { kind: 'update', trade }),
  });
}

/** Optimistic: the row goes at once; onError the caller's toast says so and the row comes back. */
export function useDeleteTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<null>(`/api/trades/${id}`, { method: 'DELETE' }),
    onMutate: async (id) => ({ restore: await removeFromLists(client, new Set([id])) }),
    onError: (_error, _id, context) => context?.restore(),
    onSettled: () => refreshTrades(client, { kind: 'delete' }),
  });
}

export function useBulkDeleteTrades() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) =>
      apiFetch<{ deleted: number }>('/api/trades/bulk-delete', { method: 'POST', body: JSON.stringify({ ids }) }),
    onMutate: async (ids) => ({ restore: await removeFromLists(client, new Set(ids)) }),
    onError: (_error, _ids, context) => context?.restore(),
    onSettled: () => refreshTrades(client, { kind: 'delete' }),
  });
}

export function useAssignTrades() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, accountId }: { ids: string[]; accountId: string }) =>
      apiFetch<{ assigned: number }>('/api/trades/assign', {
        method: 'POST',
        body: JSON.stringify({ ids, account_id: accountId }),
      }),
    onSuccess: () => refreshTrades(client, { kind: 'insert' }),
  });
}

/** GET /api/trades/export and save it under the server's name, trades-backup-{date}.json (part 2 §7). */
export async function downloadTradesBackup(): Promise<string> {
  const response = await fetch('/api/trades/export', { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`Export failed (${response.status})`);
  const disposition = response.headers.get('Content-Disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `trades-backup-${new Date().toISOString().slice(0, 10)}.json`;
  saveBlob(await response.blob(), name);
  return name;
}

export type PreferenceKind = keyof TradePreferences;
type PreferenceAnswer = TradePreferences & { message: string };

/** Add or remove a trade type, session or tag suggestion; the answer carries the new lists and the toast text. */
export function useTradePreferenceChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, type, value }: { action: 'add' | 'remove'; type: PreferenceKind; value: string }) =>
      apiFetch<PreferenceAnswer>('/api/trade-preferences', {
        method: action === 'add' ? 'POST' : 'DELETE',
        body: JSON.stringify({ type, value }),
      }),
    onSuccess: ({ trade_type, session, tag }) =>
      client.setQueryData<TradePreferences>(queryKeys.tradePreferences.all, { trade_type, session, tag }),
  });
}
