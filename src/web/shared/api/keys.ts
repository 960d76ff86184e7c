import type { SortDirection, TradeSort } from '../../../contract/trades';

/**
 * Query keys, one factory per resource (STYLE.md "Web"). Everything about trades starts with ['trades'] so a
 * mutation can invalidate every list, count and statistic at once; likewise ['accounts'], ['tasks'], ...
 */
export type AccountFilter = 'all' | 'unassigned' | string;

/** The Trade Log list's order (GET /api/trades `sort` and `dir`); the default is the trading order, newest first. */
export interface TradeOrder {
  sort: TradeSort;
  dir: SortDirection;
}
export const DEFAULT_TRADE_ORDER: TradeOrder = { sort: 'date', dir: 'desc' };
const orderKey = (order: TradeOrder) => `${order.sort}:${order.dir}`;

export const queryKeys = {
  accounts: { all: ['accounts'] as const },
  trades: {
    all: ['trades'] as const,
    /** `filter` is a Reports filter's URL parameters (issue 26: the Trade Log takes the same filters), '' for none. */
    list: (account: AccountFilter, q: string, limit: number, order: TradeOrder = DEFAULT_TRADE_ORDER, filter = '') =>
      ['trades', 'list', account, q, limit, orderKey(order), filter] as const,
    /** One page of the maximized list, by its position (page n holds rows n*size ...). */
    window: (account: AccountFilter, q: string, page: number, order: TradeOrder = DEFAULT_TRADE_ORDER, filter = '') =>
      ['trades', 'window', account, q, page, orderKey(order), filter] as const,
    stats: (account: AccountFilter, range: { from?: string; to?: string } = {}, q = '', days = 'all', filter = '') =>
      ['trades', 'stats', account, range.from ?? '', range.to ?? '', q, days, filter] as const,
    unassignedCount: ['trades', 'unassigned-count'] as const,
    detail: (id: string) => ['trades', 'detail', id] as const,
    /** One trading day's trades (the dashboard's day-trades dialog). */
    day: (account: AccountFilter, date: string) => ['trades', 'day', account, date] as const,
    /** The Reflect page's period: under ['trades'], so any trade change refreshes it too. */
    reflections: (period: string, offset: number, account: AccountFilter) => ['trades', 'reflections', period, offset, account] as const,
  },
  tradePreferences: { all: ['trade-preferences'] as const },
  preferences: { all: ['preferences'] as const },
  profile: { all: ['profile'] as const },
  notes: {
    all: ['notes'] as const,
    list: (filter: { folderId?: string; tagId?: string; q?: string }) =>
      ['notes', 'list', filter.folderId ?? '', filter.tagId ?? '', filter.q ?? ''] as const,
    detail: (id: string) => ['notes', 'detail', id] as const,
  },
  noteFolders: { all: ['note-folders'] as const },
  tags: { all: ['tags'] as const },
  /** Attachments are read with their note or trade: they live under those keys. */
  journal: {
    all: ['journal'] as const,
    days: (date: string) => ['journal', 'days', date] as const,
    day: (date: string) => ['journal', 'day', date] as const,
  },
  /** Under ['trades'], so every trade mutation refreshes the page too. */
  tradeDetails: {
    detail: (id: string) => ['trades', 'details-page', id] as const,
  },
  quickLinks: { all: ['quick-links'] as const },
  riskDefaults: { all: ['risk-defaults'] as const },
  /**
   * Price bars and what they tell (issue 29). A trade's chart lives here, not under ['trades']: bars change it as well
   * as the trade, so both a trade's and the bars' mutations invalidate ['market'].
   */
  market: {
    all: ['market'] as const,
    coverage: ['market', 'coverage'] as const,
    chart: (tradeId: string, padding: number, resolution: number | null) => ['market', 'chart', tradeId, padding, resolution ?? 'auto'] as const,
  },
  /**
   * Prop-firm accounts (issue 28). Under ['trades']: a trade's change moves every status. An account's change
   * (its starting balance, kind) invalidates ['trades', 'prop'] itself.
   */
  prop: {
    all: ['trades', 'prop'] as const,
    status: ['trades', 'prop', 'status'] as const,
    account: (id: string) => ['trades', 'prop', 'account', id] as const,
    ledger: ['trades', 'prop', 'ledger'] as const,
  },
  tasks: {
    all: ['tasks'] as const,
    byDate: (date: string) => ['tasks', 'date', date] as const,
    status: (from: string, to: string) => ['tasks', 'status', from, to] as const,
  },
};
