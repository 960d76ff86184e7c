import type { SortDirection, TradeSort } from '../../../contract/trades';

/**
 * Every query key of the web app, one factory per resource: a query and the mutations that refresh it name the same
 * key, and no screen spells one by hand. Everything derived from trades starts with ['trades'] (lists, statistics,
 * reports, Reflect's periods, prop statuses), so a trade's change can refresh it all at once; a key that is a prefix
 * of others (`listAll`, `statsAll`) lets a mutation refresh exactly the lists it changes.
 */
export type AccountFilter = 'all' | 'unassigned' | string;

/** The Trade Log list's order (GET /api/trades `sort` and `dir`); the default is the trading order, newest first. */
export interface TradeOrder {
  sort: TradeSort;
  dir: SortDirection;
}
export const DEFAULT_TRADE_ORDER: TradeOrder = { sort: 'date', dir: 'desc' };
const orderKey = (order: TradeOrder) => `${order.sort}:${order.dir}`;

/** A file the trader picked, as a key: another file (or the same one changed) is another preview. */
const fileKey = (file: { name: string; size: number; lastModified: number }) => [file.name, file.size, file.lastModified] as const;

/** What an import preview was read with; equal choices share the preview. */
export interface ImportPreviewChoices {
  format: string;
  timeZone: string | null;
  accountId: string | null;
  accountMap: Readonly<Record<string, string>>;
  mapping: unknown;
  tradingDay: string | undefined;
}

export const queryKeys = {
  /** The signed-in session: kept when everything else is cleared or refetched. */
  session: { all: ['session'] as const },
  /** The server's public settings (sign-in methods, whether AI is configured). */
  config: { all: ['config'] as const },
  accounts: { all: ['accounts'] as const },
  /** The account controls: sign-in methods and open sessions (the auth library's endpoints). */
  accountSettings: {
    all: ['account-settings'] as const,
    methods: ['account-settings', 'methods'] as const,
    sessions: ['account-settings', 'sessions'] as const,
  },
  trades: {
    all: ['trades'] as const,
    /** `filter` is a Reports filter's URL parameters (the Trade Log takes the same filters), '' for none. */
    list: (account: AccountFilter, q: string, limit: number, order: TradeOrder = DEFAULT_TRADE_ORDER, filter = '') =>
      ['trades', 'list', account, q, limit, orderKey(order), filter] as const,
    listAll: ['trades', 'list'] as const,
    /** One page of the maximized list, by its position (page n holds rows n*size ...). */
    window: (account: AccountFilter, q: string, page: number, order: TradeOrder = DEFAULT_TRADE_ORDER, filter = '') =>
      ['trades', 'window', account, q, page, orderKey(order), filter] as const,
    windowAll: ['trades', 'window'] as const,
    stats: (account: AccountFilter, range: { from?: string; to?: string } = {}, q = '', days = 'all', filter = '') =>
      ['trades', 'stats', account, range.from ?? '', range.to ?? '', q, days, filter] as const,
    /** Every statistics query (dashboard, Trade Log), whatever its filter. */
    statsAll: ['trades', 'stats'] as const,
    unassignedCount: ['trades', 'unassigned-count'] as const,
    /** The trades of the 'Manage Unassigned Trades' dialog. */
    unassignedDialog: ['trades', 'unassigned-dialog'] as const,
    detail: (id: string) => ['trades', 'detail', id] as const,
    /** One trading day's trades (the dashboard's day-trades dialog). */
    day: (account: AccountFilter, date: string) => ['trades', 'day', account, date] as const,
    dayAll: ['trades', 'day'] as const,
    /** The Reflect page's period: under ['trades'], so any trade change refreshes it too. */
    reflections: (period: string, offset: number, account: AccountFilter) => ['trades', 'reflections', period, offset, account] as const,
    reflectionsAll: ['trades', 'reflections'] as const,
    /** An account's trades of some days in R (the dashboard and its calendar). */
    r: (account: AccountFilter, range: { from: string; to: string } | 'all-time') =>
      ['trades', 'r', account, range === 'all-time' ? range : range.from, range === 'all-time' ? range : range.to] as const,
    /** The Trade Log's trades in R, for its account, search and Reports filter. */
    rLog: (account: AccountFilter, q: string, filter: string) => ['trades', 'r-log', account, q, filter] as const,
    /** The search palette's trades: a day's when the query names one, else those the search finds. */
    palette: (dayOrQuery: string) => ['trades', 'palette', dayOrQuery] as const,
  },
  tradePreferences: { all: ['trade-preferences'] as const },
  preferences: { all: ['preferences'] as const },
  profile: { all: ['profile'] as const },
  notes: {
    all: ['notes'] as const,
    list: (filter: { folderId?: string; tagId?: string; q?: string }) =>
      ['notes', 'list', filter.folderId ?? '', filter.tagId ?? '', filter.q ?? ''] as const,
    listAll: ['notes', 'list'] as const,
    detail: (id: string) => ['notes', 'detail', id] as const,
    palette: (query: string) => ['notes', 'palette', query] as const,
  },
  noteFolders: { all: ['note-folders'] as const },
  tags: { all: ['tags'] as const },
  /** Attachments are read with their note or trade: they live under those keys. */
  journal: {
    all: ['journal'] as const,
    days: (date: string, account: AccountFilter = 'all') => ['journal', 'days', date, account] as const,
    daysAll: ['journal', 'days'] as const,
    day: (date: string, account: AccountFilter = 'all') => ['journal', 'day', date, account] as const,
    /** One date's day under every account filter (its note is the same whichever account is shown). */
    dayAll: (date: string) => ['journal', 'day', date] as const,
  },
  /** Under ['trades'], so every trade mutation refreshes the page too. */
  tradeDetails: {
    detail: (id: string) => ['trades', 'details-page', id] as const,
  },
  quickLinks: { all: ['quick-links'] as const },
  riskDefaults: { all: ['risk-defaults'] as const },
  /**
   * Price bars and what they tell. A trade's chart lives here, not under ['trades']: bars change it as well as the
   * trade, so both a trade's and the bars' mutations invalidate ['market'].
   */
  market: {
    all: ['market'] as const,
    coverage: ['market', 'coverage'] as const,
    chart: (tradeId: string, padding: number, resolution: number | null) => ['market', 'chart', tradeId, padding, resolution ?? 'auto'] as const,
    /** What a bars file would store, read with the choices made for it. */
    barsPreview: (file: { name: string; size: number; lastModified: number }, options: unknown) =>
      ['market', 'bars-preview', ...fileKey(file), options] as const,
  },
  /**
   * Prop-firm accounts. Under ['trades']: a trade's change moves every status. An account's change (its starting
   * balance, kind) invalidates ['trades', 'prop'] itself.
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
  /**
   * Reports start with ['trades'], so every trade mutation refreshes the reports on screen too. A filter is keyed by its
   * URL text (`filterParams`): equal filters share a cache entry.
   */
  reports: {
    all: ['trades', 'reports'] as const,
    /**
     * `base` is where the figures come from: the trader's own (/api/reports) or a mentor's look at a trader
     * (/api/mentor/<trader>/reports), so that the two never share a cache entry.
     */
    report: (kind: string, filterParams: string, extra: Record<string, string> = {}, base = '/api/reports') =>
      ['trades', 'reports', kind, filterParams, extra, base] as const,
    /**
     * One of Compare's sets: its filter's URL text, the breakdown asked with it ('' for none) and the source. Each set
     * is its own entry, so a change to one set's filter reads that set alone, and equal sets share one.
     */
    compareSet: (filterParams: string, by: string, base = '/api/reports') => ['trades', 'reports', 'compare-set', filterParams, by, base] as const,
    options: ['trades', 'reports', 'options'] as const,
    optionsOf: (base = '/api/reports') => ['trades', 'reports', 'options', base] as const,
  },
  /** The tags the trader marks as mistakes. */
  mistakeTags: { all: ['mistake-tags'] as const },
  /** A trade's playbook sits under ['trades'] with the reports that count it. */
  playbooks: {
    all: ['playbooks'] as const,
    trade: (tradeId: string) => ['trades', 'playbook', tradeId] as const,
    tradeAll: ['trades', 'playbook'] as const,
    images: (id: string) => ['playbooks', id, 'images'] as const,
  },
  /** Reflect's summary of a period, read fresh each time the dialog opens. */
  reflections: {
    summary: (period: string, offset: number, account: AccountFilter) => ['reflections-summary', period, offset, account] as const,
  },
  /** ReflectAI's conversations. */
  chat: {
    all: ['chat'] as const,
    current: ['chat', 'current'] as const,
    sessions: ['chat', 'sessions'] as const,
    messages: (sessionId: string) => ['chat', 'messages', sessionId] as const,
  },
  connections: { all: ['connections'] as const },
  imports: {
    all: ['imports'] as const,
    /** Whether this trader's upload waits for other files to be read first. */
    queue: ['imports', 'queue'] as const,
    fees: (accountId: string) => ['imports', 'fees', accountId] as const,
    preview: (file: { name: string; size: number; lastModified: number }, choices: ImportPreviewChoices) =>
      [
        'imports',
        'preview',
        ...fileKey(file),
        choices.format,
        choices.timeZone,
        choices.accountId,
        JSON.stringify(choices.accountMap),
        JSON.stringify(choices.mapping),
        choices.tradingDay,
      ] as const,
  },
  /** The dashboard's economic events of a week. */
  economicEvents: {
    week: (today: string) => ['economic-events', today] as const,
    /** Whether the reports' news filter has a feed and stored events to match trades with. */
    news: ['economic-events', 'news'] as const,
    /** The high-impact events the trader imported from files of past weeks (how many, from when to when). */
    imported: ['economic-events', 'imported'] as const,
    /** Every key above: an import or delete of past events changes the filter's status as well. */
    all: ['economic-events'] as const,
  },
  /** The trader's read-only share links (Settings, Shared Links). */
  shareLinks: { all: ['share-links'] as const },
  /**
   * A mentor's seat: the trader's invitations and their mentors' comments (Settings, Mentors; the header's count), and
   * what the signed-in user reads as someone's mentor, under one prefix per trader so a revocation refreshes it all.
   */
  mentors: {
    grants: ['mentor-grants'] as const,
    comments: ['mentor-comments'] as const,
    views: ['mentor-views'] as const,
    traders: ['mentor', 'traders'] as const,
    trader: (traderId: string) => ['mentor', traderId] as const,
    trades: (traderId: string, offset: number) => ['mentor', traderId, 'trades', offset] as const,
    overview: (traderId: string) => ['mentor', traderId, 'overview'] as const,
    traderComments: (traderId: string) => ['mentor', traderId, 'comments'] as const,
    reflect: (traderId: string, period: string, offset: number, account: string) => ['mentor', traderId, 'reflect', period, offset, account] as const,
    journalDays: (traderId: string, account: string) => ['mentor', traderId, 'journal', account] as const,
    journalDay: (traderId: string, account: string, date: string) => ['mentor', traderId, 'journal', account, date] as const,
    prop: (traderId: string) => ['mentor', traderId, 'prop'] as const,
  },
  /** The trader's saved report views (the sidebar, the palette, the Reports page's Save view). */
  savedViews: { all: ['saved-views'] as const },
};
