import {
  infiniteQueryOptions,
  keepPreviousData,
  partialMatchKey,
  queryOptions,
  useMutation,
  useQueries,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { apiFetch } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import {
  DEFAULT_TRADE_ORDER,
  fetchTradePage,
  fetchTradePageAt,
  markAwaitingDelete,
  queryKeys,
  unmarkAwaitingDelete,
  type AccountFilter,
  type Trade,
  type TradeInputBody,
  type TradeOrder,
  type TradePage,
  type TradePreferences,
} from '../../shared/api';
import type {
  AssignResult,
  BulkDeleteResult,
  BulkEditInput,
  BulkEditResult,
  BulkRestoreResult,
  BulkTradeState,
  TradeIds,
} from '../../../contract/trades';

/** The compact table shows the 5 most recent trades. */
export const COMPACT_LIMIT = 5;
/**
 * The maximized list is read in pages by position, not walked by cursor: a jump to any row (the scrollbar dragged to
 * the bottom of 100,000 trades) fetches the one or two pages in view, whatever lies between.
 */
export const WINDOW_PAGE = 250;
/** Rows beyond the visible ones whose pages load ahead, so a steady scroll never meets a placeholder. */
const WINDOW_AHEAD = 120;

/**
 * A page of the maximized list in a list order (GET /api/trades `sort` and `dir`: the trading order newest first by
 * default, or a column, ties newest first and empty values last in both directions).
 */
export const tradeWindowPageQuery = (account: AccountFilter, q: string, page: number, order: TradeOrder = DEFAULT_TRADE_ORDER, filter = '') =>
  queryOptions({
    queryKey: queryKeys.trades.window(account, q, page, order, filter),
    queryFn: () => fetchTradePageAt(account, q, WINDOW_PAGE, page * WINDOW_PAGE, order, filter),
  });

/** The pages that hold rows first..last, with WINDOW_AHEAD rows to spare each way; the first page always (the total). */
function windowPages(first: number, last: number): number[] {
  const from = Math.max(0, Math.floor((first - WINDOW_AHEAD) / WINDOW_PAGE));
  const to = Math.max(from, Math.floor((last + WINDOW_AHEAD) / WINDOW_PAGE));
  const pages = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  return pages[0] === 0 ? pages : [0, ...pages];
}

export interface TradeWindow {
  /** Every trade of the filter, as counted by the server. */
  total: number;
  /** The trade at a position, once its page has arrived. */
  rowAt: (index: number) => Trade | undefined;
  /** The list reports the rows it shows; their pages (and the next ones) are fetched. */
  onVisibleRange: (first: number, last: number) => void;
  /** The trades of the pages in hand, in list order (Select All selects these). */
  loaded: Trade[];
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isPlaceholderData: boolean;
}

/** The maximized list's rows, page by page around what is on screen. */
export function useTradeWindow(
  account: AccountFilter,
  q: string,
  enabled: boolean,
  order: TradeOrder = DEFAULT_TRADE_ORDER,
  filter = '',
): TradeWindow {
  const [pages, setPages] = useState<number[]>([0]);
  const results = useQueries({
    queries: pages.map((page) => ({
      ...tradeWindowPageQuery(account, q, page, order, filter),
      enabled,
      // While a new filter's first page loads, the old one stays (no flash of a spinner on every keystroke).
      placeholderData: page === 0 ? keepPreviousData : undefined,
    })),
  });
  const onVisibleRange = useCallback((first: number, last: number) => {
    const next = windowPages(first, last);
    setPages((current) => (current.length === next.length && current.every((p, i) => p === next[i]) ? current : next));
  }, []);
  const head = results[0]!;
  const byPage = new Map(pages.map((page, i) => [page, results[i]?.data]));
  return {
    total: head.data?.total ?? 0,
    rowAt: (index: number) => byPage.get(Math.floor(index / WINDOW_PAGE))?.trades[index % WINDOW_PAGE],
    onVisibleRange,
    loaded: pages.flatMap((page) => byPage.get(page)?.trades ?? []),
    isPending: head.isPending,
    isError: head.isError,
    error: head.error,
    isPlaceholderData: head.isPlaceholderData,
  };
}

/** The trades of the 'Manage Unassigned Trades' dialog, read only while it is open. */
export const unassignedTradesQuery = infiniteQueryOptions({
  queryKey: queryKeys.trades.unassignedDialog,
  queryFn: ({ pageParam }) => fetchTradePage('unassigned', '', 200, pageParam ?? undefined),
  initialPageParam: null as string | null,
  getNextPageParam: (last: TradePage) => last.next_cursor,
});

const LIST_KEYS: QueryKey[] = [queryKeys.trades.listAll, queryKeys.trades.windowAll, queryKeys.trades.unassignedDialog, queryKeys.trades.dayAll];

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
 * Removes trades from every cached list at once and returns how to put them back (deleting is
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

type TradeChange = { kind: 'insert' } | { kind: 'update'; trade: Trade } | { kind: 'delete' };

/**
 * Every trade mutation can change lists, statistics, the unassigned count and details: all start with ['trades'] and
 * are refetched if on screen (the maximized list's pages in view, not the ones scrolled past). An edited trade is
 * patched into the pages at once, so the row does not flicker while they refetch.
 */
async function refreshTrades(client: QueryClient, change: TradeChange) {
  if (change.kind === 'update') {
    const { trade } = change;
    client.setQueriesData<TradePage>(
      { queryKey: queryKeys.trades.windowAll },
      (data) => data && { ...data, trades: data.trades.map((t) => (t.id === trade.id ? trade : t)) },
    );
  }
  await client.invalidateQueries({ queryKey: queryKeys.trades.all });
}

/** For callers outside this file (the import dialog's onImported, assignment): new or moved trades. */
export const refreshAfterInsert = (client: QueryClient) => refreshTrades(client, { kind: 'insert' });

export function useCreateTrade() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TradeInputBody & { status?: string }) => apiFetch<Trade>('/api/trades', { method: 'POST', body: JSON.stringify(body) }),
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

/**
 * How long a deleted trade can be brought back with Undo: its toast's life. The DELETE is sent when the window ends
 * (or the toast leaves earlier), so Undo keeps the same trade (id, tags, notes, account, import fields, and the notes,
 * reflections and attachments linked to it) rather than re-creating a copy.
 */
export const UNDO_WINDOW_MS = 6_000;

/** Trades removed from the lists whose DELETE has not been sent or answered yet. */
const pendingDeletes = new Map<string, () => Promise<void>>();
const guardedClients = new WeakSet<QueryClient>();

/**
 * A list read from the server while a delete waits (a refetch on focus, another trade's change) would bring the
 * trade back: every list that arrives is pruned of the pending ones.
 */
function keepPendingDeletesOut(client: QueryClient) {
  if (guardedClients.has(client)) return;
  guardedClients.add(client);
  client.getQueryCache().subscribe((event) => {
    if (pendingDeletes.size === 0 || event.type !== 'updated' || event.action.type !== 'success') return;
    const { queryKey } = event.query;
    if (!LIST_KEYS.some((list) => partialMatchKey(queryKey, list))) return;
    const data = event.query.state.data as ListData | undefined;
    const pruned = withoutTrades(data, new Set(pendingDeletes.keys()));
    if (pruned !== data) queueMicrotask(() => client.setQueryData(queryKey, pruned));
  });
  // Closing the tab inside the window still deletes (keepalive outlives the page).
  window.addEventListener('pagehide', () => {
    for (const commit of [...pendingDeletes.values()]) void commit().catch(() => undefined);
  });
}

export interface PendingTradeDelete {
  /** Puts the trade back (nothing was sent). False when it is too late: the DELETE went already. */
  undo: () => boolean;
  /** Sends the DELETE (once). Rejects when the server refuses, after the trade is back in the lists. */
  commit: () => Promise<void>;
}

/**
 * Deleting is optimistic, the trade is removed at once and restored if the server call fails;
 * adds Undo while the toast shows. The caller decides when to commit (the toast leaving).
 */
export async function startTradeDelete(client: QueryClient, id: string): Promise<PendingTradeDelete> {
  keepPendingDeletesOut(client);
  let state: 'pending' | 'undone' | 'sent' = 'pending';
  let sent: Promise<void> | undefined;
  const restore = await removeFromLists(client, new Set([id]));
  // The statistics and the unassigned count leave the trade out while Undo is offered (the same figures the server gives once it is gone).
  markAwaitingDelete(id);
  void client.invalidateQueries({ queryKey: queryKeys.trades.statsAll });
  void client.invalidateQueries({ queryKey: queryKeys.trades.unassignedCount });
  const putBack = () => {
    pendingDeletes.delete(id);
    unmarkAwaitingDelete(id);
    restore();
    void client.invalidateQueries({ queryKey: queryKeys.trades.all });
  };
  const commit = () => {
    if (state === 'undone') return Promise.resolve();
    if (sent) return sent;
    state = 'sent';
    sent = apiFetch<null>(`/api/trades/${id}`, { method: 'DELETE', keepalive: true }).then(
      () => {
        pendingDeletes.delete(id);
        unmarkAwaitingDelete(id);
        return refreshTrades(client, { kind: 'delete' });
      },
      (error: unknown) => {
        putBack();
        throw error;
      },
    );
    return sent;
  };
  pendingDeletes.set(id, commit);
  return {
    undo: () => {
      if (state !== 'pending') return false;
      state = 'undone';
      putBack();
      return true;
    },
    commit,
  };
}

export function useBulkDeleteTrades() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => apiFetch<BulkDeleteResult>('/api/trades/bulk-delete', { method: 'POST', body: JSON.stringify({ ids }) }),
    onMutate: async (ids) => ({ restore: await removeFromLists(client, new Set(ids)) }),
    onError: (_error, _ids, context) => context?.restore(),
    onSettled: () => refreshTrades(client, { kind: 'delete' }),
  });
}

/**
 * Every trade id of what the list shows (its account, search, Reports filter and order): Select All selects the
 * filter's trades, not only the rows drawn.
 */
export function fetchTradeIds(account: AccountFilter, q: string, order: TradeOrder = DEFAULT_TRADE_ORDER, filter = ''): Promise<TradeIds> {
  const search = new URLSearchParams(filter);
  search.append('account', account);
  if (q) search.set('q', q);
  if (order.sort !== DEFAULT_TRADE_ORDER.sort || order.dir !== DEFAULT_TRADE_ORDER.dir) {
    search.set('sort', order.sort);
    search.set('dir', order.dir);
  }
  return apiFetch<TradeIds>(`/api/trades/ids?${search}`);
}

/** Everything a bulk edit can move: the trades and what counts them (reports, playbooks, their pages). */
async function refreshAfterBulkEdit(client: QueryClient) {
  await Promise.all([
    refreshTrades(client, { kind: 'insert' }),
    client.invalidateQueries({ queryKey: queryKeys.playbooks.all }),
    client.invalidateQueries({ queryKey: queryKeys.tradePreferences.all }),
  ]);
}

/** One change for the selected trades (POST /api/trades/bulk-edit); its answer carries their state before, for Undo. */
export function useBulkEditTrades() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkEditInput) => apiFetch<BulkEditResult>('/api/trades/bulk-edit', { method: 'POST', body: JSON.stringify(body) }),
    onSuccess: () => refreshAfterBulkEdit(client),
  });
}

/** Undo of a bulk edit: the trades written back as they were. */
export async function restoreTrades(client: QueryClient, trades: readonly BulkTradeState[]): Promise<BulkRestoreResult> {
  try {
    return await apiFetch<BulkRestoreResult>('/api/trades/bulk-restore', { method: 'POST', body: JSON.stringify({ trades }) });
  } finally {
    await refreshAfterBulkEdit(client);
  }
}

export function useAssignTrades() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, accountId }: { ids: string[]; accountId: string }) =>
      apiFetch<AssignResult>('/api/trades/assign', {
        method: 'POST',
        body: JSON.stringify({ ids, account_id: accountId }),
      }),
    onSuccess: () => refreshTrades(client, { kind: 'insert' }),
  });
}

/** GET /api/trades/export and save it under the server's name, trades-backup-{date}.json. */
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
    onSuccess: ({ trade_type, session, tag }) => client.setQueryData<TradePreferences>(queryKeys.tradePreferences.all, { trade_type, session, tag }),
  });
}
