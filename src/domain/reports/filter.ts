import { addDays, formatCalendarDay, formatShortDay, getStartOfWeekMonday, parseCalendarDay, type CalendarDay } from '../dates/calendar-day';
import { getTodayInZone } from '../dates/clock';
import { NEWS_MODES, NEWS_WINDOWS, type NewsMode, type NewsWindow } from './news';

export { NEWS_MODES, NEWS_WINDOWS, type NewsMode, type NewsWindow } from './news';

/**
 * The one filter model (STYLE "As the house grows"): which trades a report, the Trade Log or an AI tool
 * means. Parsed once with zod in src/contract/reports.ts, turned into SQL once in src/server/core/engine/repo.ts,
 * applied to trades in memory by `selectTrades` (report-trade.ts, the same rule in domain code), described in words
 * once (`describeReportFilter`). Its keys are the URL's parameter names, so a 400 names the parameter a trader can see.
 *
 * An empty list means "any". Lists within one key are OR-ed (NQ or ES); keys are AND-ed (NQ shorts).
 * New dimensions (R-multiples, playbooks, mistakes, MAE/MFE) are new keys: add them to REPORT_FILTER_KEYS, the schema,
 * the SQL and `selectTrades`, and every screen and tool takes them.
 */

export const DATE_PRESETS = ['today', 'this-week', 'this-month', 'last-30-days', 'last-90-days', 'this-year', 'all-time', 'custom'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const DATE_PRESET_LABELS: Readonly<Record<DatePreset, string>> = {
  today: 'Today',
  'this-week': 'This Week',
  'this-month': 'This Month',
  'last-30-days': 'Last 30 Days',
  'last-90-days': 'Last 90 Days',
  'this-year': 'This Year',
  'all-time': 'All Time',
  custom: 'Custom',
};

/** Hold-time buckets: the lower bound is included, the upper one is not. */
export const HOLD_BUCKETS = [
  { id: 'under-1m', label: '< 1 min', fromSeconds: 0, toSeconds: 60 },
  { id: '1-5m', label: '1-5 min', fromSeconds: 60, toSeconds: 300 },
  { id: '5-15m', label: '5-15 min', fromSeconds: 300, toSeconds: 900 },
  { id: '15-60m', label: '15-60 min', fromSeconds: 900, toSeconds: 3600 },
  { id: '1-4h', label: '1-4 h', fromSeconds: 3600, toSeconds: 14_400 },
  { id: 'over-4h', label: '> 4 h', fromSeconds: 14_400, toSeconds: null },
] as const;
export type HoldBucketId = (typeof HOLD_BUCKETS)[number]['id'];
export const HOLD_BUCKET_IDS = HOLD_BUCKETS.map((b) => b.id) as HoldBucketId[];

export const TAG_MODES = ['any', 'all', 'none'] as const;
export type TagMode = (typeof TAG_MODES)[number];
export const TAG_MODE_LABELS: Readonly<Record<TagMode, string>> = { any: 'any of', all: 'all of', none: 'none of' };

export const TRADE_RESULTS = ['Win', 'Loss', 'BE'] as const;

/** Has / has no planned risk, and with / without a tag the trader marks as a mistake. */
export const WITH_WITHOUT = ['with', 'without'] as const;
export type WithWithout = (typeof WITH_WITHOUT)[number];
export type TradeResult = (typeof TRADE_RESULTS)[number];

/** ISO weekdays, Monday = 1 ... Sunday = 7: a trading day's weekday. */
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const WEEKDAY_LABELS = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const WEEKDAY_SHORT = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** 'unassigned' stands for the trades without an account. */
export const UNASSIGNED = 'unassigned';

export interface ReportFilter {
  range: DatePreset;
  /** Only with range 'custom': inclusive trading days; null is open. */
  from: CalendarDay | null;
  to: CalendarDay | null;
  /** Account ids, or 'unassigned'. */
  account: string[];
  /** Instrument roots (the trade's symbol: NQ, MES). */
  symbol: string[];
  /** Contracts (NQZ5). */
  contract: string[];
  /** The trade's side column (Long, Short); splits it from the setup. */
  side: string[];
  /** The setup or type (the spec's trade_type). */
  setup: string[];
  /** Playbook ids. */
  playbook: string[];
  /** The session (the spec's period). */
  session: string[];
  tag: string[];
  tagMode: TagMode;
  result: TradeResult[];
  /** ISO weekday of the trading day, 1-7. */
  weekday: number[];
  /** Hour of entry in the trader's zone, 0-23. */
  hour: number[];
  hold: HoldBucketId[];
  /** Position size (quantity), inclusive; null is open. */
  sizeMin: number | null;
  sizeMax: number | null;
  /**
   * R-multiple range, inclusive, in R to two decimals; null is open. A bound leaves out trades without a
   * planned risk: they have no R.
   */
  rMin: number | null;
  rMax: number | null;
  /** Trades with or without a planned risk (their own, or a default that applies); null: either. */
  risk: WithWithout | null;
  /** Trades with or without a tag the trader marks as a mistake; null: either. */
  mistakes: WithWithout | null;
  /** Trades carrying any of these mistakes (tags compared as the Mistakes report does: 'fomo' is 'FOMO'). */
  mistake: string[];
  /**
   * 'grouped': a micro counts with its full-size contract as one market (NQ with MNQ, ES with MES, YM with MYM, RTY
   * with M2K...) in the instrument filter and the instrument breakdown; null keeps each instrument apart.
   */
  markets: MarketGrouping | null;
  /**
   * Minutes either side of a stored high-impact USD event: with 'near' only the trades entered that close to one, with
   * 'away' only those entered farther from every one; null: either. Trades without an entry time match neither.
   */
  news: NewsWindow | null;
  newsMode: NewsMode;
}

export const MARKET_GROUPINGS = ['grouped'] as const;
export type MarketGrouping = (typeof MARKET_GROUPINGS)[number];

/** The keys that travel in a URL, in the order a URL writes them. */
export const REPORT_FILTER_KEYS = [
  'range',
  'from',
  'to',
  'account',
  'symbol',
  'contract',
  'side',
  'setup',
  'playbook',
  'session',
  'tag',
  'tagMode',
  'result',
  'weekday',
  'hour',
  'hold',
  'sizeMin',
  'sizeMax',
  'rMin',
  'rMax',
  'risk',
  'mistakes',
  'mistake',
  'markets',
  'news',
  'newsMode',
] as const satisfies ReadonlyArray<keyof ReportFilter>;

/** Keys that take a list (repeated in a URL: ?symbol=NQ&symbol=ES). */
export const REPORT_FILTER_LIST_KEYS = [
  'account',
  'symbol',
  'contract',
  'side',
  'setup',
  'playbook',
  'session',
  'tag',
  'result',
  'weekday',
  'hour',
  'hold',
  'mistake',
] as const satisfies ReadonlyArray<keyof ReportFilter>;
export type ReportFilterListKey = (typeof REPORT_FILTER_LIST_KEYS)[number];

export const EMPTY_REPORT_FILTER: ReportFilter = Object.freeze({
  range: 'all-time',
  from: null,
  to: null,
  account: [],
  symbol: [],
  contract: [],
  side: [],
  setup: [],
  playbook: [],
  session: [],
  tag: [],
  tagMode: 'any',
  result: [],
  weekday: [],
  hour: [],
  hold: [],
  sizeMin: null,
  sizeMax: null,
  rMin: null,
  rMax: null,
  risk: null,
  mistakes: null,
  mistake: [],
  markets: null,
  news: null,
  newsMode: 'near',
}) as ReportFilter;

export function createReportFilter(patch: Partial<ReportFilter> = {}): ReportFilter {
  return { ...EMPTY_REPORT_FILTER, ...patch };
}

/** Inclusive trading-day bounds; null is open. */
export interface ResolvedRange {
  from: CalendarDay | null;
  to: CalendarDay | null;
}

/**
 * The days a preset covers, ending today in the trader's zone: This Week starts on Monday, Last 30
 * Days
 * is today and the 29 days before it. Trades dated after today are outside every preset but All Time and Custom.
 */
export function resolveReportRange(filter: Pick<ReportFilter, 'range' | 'from' | 'to'>, now: Date, timeZone: string): ResolvedRange {
  if (filter.range === 'custom') return { from: filter.from, to: filter.to };
  if (filter.range === 'all-time') return { from: null, to: null };
  const today = getTodayInZone(now, timeZone);
  const { year, month } = parseCalendarDay(today)!;
  switch (filter.range) {
    case 'today':
      return { from: today, to: today };
    case 'this-week':
      return { from: getStartOfWeekMonday(today), to: today };
    case 'this-month':
      return { from: formatCalendarDay(year, month, 1), to: today };
    case 'last-30-days':
      return { from: addDays(today, -29), to: today };
    case 'last-90-days':
      return { from: addDays(today, -89), to: today };
    case 'this-year':
      return { from: formatCalendarDay(year, 1, 1), to: today };
  }
}

/** Filters that look inside trades (anything but the days and the accounts): the per-day rollups cannot answer them. */
export function hasTradeLevelFilter(filter: ReportFilter): boolean {
  return (
    filter.symbol.length > 0 ||
    filter.contract.length > 0 ||
    filter.side.length > 0 ||
    filter.setup.length > 0 ||
    filter.playbook.length > 0 ||
    filter.session.length > 0 ||
    filter.tag.length > 0 ||
    filter.result.length > 0 ||
    filter.weekday.length > 0 ||
    filter.hour.length > 0 ||
    filter.hold.length > 0 ||
    filter.sizeMin !== null ||
    filter.sizeMax !== null ||
    hasRiskFilter(filter) ||
    hasMistakeFilter(filter) ||
    hasNewsFilter(filter)
  );
}

/** The filter reads each trade's planned risk. */
export function hasRiskFilter(filter: Pick<ReportFilter, 'rMin' | 'rMax' | 'risk'>): boolean {
  return filter.rMin !== null || filter.rMax !== null || filter.risk !== null;
}

/** The filter reads the trader's mistake tags. */
export function hasMistakeFilter(filter: Pick<ReportFilter, 'mistakes' | 'mistake'>): boolean {
  return filter.mistakes !== null || filter.mistake.length > 0;
}

/** The filter reads the stored high-impact events. */
export function hasNewsFilter(filter: Pick<ReportFilter, 'news'>): boolean {
  return filter.news !== null;
}

/** An R bound in hundredths of an R, a whole number: R-multiples compare exactly (pnl x 100 >= bound x risk). */
export const toHundredthsR = (r: number) => Math.round(r * 100);

/** How many keys narrow the trades (the range counts when it is not All Time): the filter bar's badge. */
export function countActiveFilters(filter: ReportFilter): number {
  let count = filter.range === 'all-time' ? 0 : 1;
  for (const key of REPORT_FILTER_LIST_KEYS) if (filter[key].length > 0) count++;
  if (filter.sizeMin !== null || filter.sizeMax !== null) count++;
  if (hasRiskFilter(filter)) count++;
  if (filter.mistakes !== null) count++;
  if (filter.news !== null) count++;
  return count;
}

export function getHoldBucket(seconds: number): HoldBucketId {
  for (const bucket of HOLD_BUCKETS) if (bucket.toSeconds === null || seconds < bucket.toSeconds) return bucket.id;
  return 'over-4h';
}

// ---------------------------------------------------------------------------------------------------------------
// The URL: the filter as search parameters and back. Defaults are left out, so a plain /reports stays plain.

/** Writes the filter's parameters into `params` (other parameters are kept). */
export function writeReportFilterParams(filter: ReportFilter, params: URLSearchParams = new URLSearchParams()): URLSearchParams {
  for (const key of REPORT_FILTER_KEYS) params.delete(key);
  if (filter.range !== 'all-time') params.set('range', filter.range);
  if (filter.range === 'custom') {
    if (filter.from) params.set('from', filter.from);
    if (filter.to) params.set('to', filter.to);
  }
  for (const key of REPORT_FILTER_LIST_KEYS) for (const value of filter[key]) params.append(key, String(value));
  if (filter.tag.length > 0 && filter.tagMode !== 'any') params.set('tagMode', filter.tagMode);
  if (filter.sizeMin !== null) params.set('sizeMin', String(filter.sizeMin));
  if (filter.sizeMax !== null) params.set('sizeMax', String(filter.sizeMax));
  if (filter.rMin !== null) params.set('rMin', String(filter.rMin));
  if (filter.rMax !== null) params.set('rMax', String(filter.rMax));
  if (filter.risk !== null) params.set('risk', filter.risk);
  if (filter.mistakes !== null) params.set('mistakes', filter.mistakes);
  if (filter.markets !== null) params.set('markets', filter.markets);
  if (filter.news !== null) params.set('news', String(filter.news));
  if (filter.news !== null && filter.newsMode !== 'near') params.set('newsMode', filter.newsMode);
  return params;
}

/**
 * The filter's parameters as the raw object the contract's schema parses: lists as arrays of strings, the rest as the
 * last value given. Nothing is checked here (the server's schema does that and names the field).
 */
export function readReportFilterParams(params: URLSearchParams): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  for (const key of REPORT_FILTER_KEYS) {
    const values = params.getAll(key);
    if (values.length === 0) continue;
    raw[key] = (REPORT_FILTER_LIST_KEYS as readonly string[]).includes(key) ? values : values[values.length - 1]!;
  }
  return raw;
}

/** An R bound as written: '-1', '0.5', '+2.25' (two decimals at most, as R is shown). */
export const R_BOUND = /^[-+]?\d+(\.\d{1,2})?$/;
export const MAX_R_BOUND = 10_000;

const isIn = <T extends string | number>(list: readonly T[], value: unknown): value is T => (list as readonly unknown[]).includes(value);

/**
 * The browser's lenient reading of a URL: whatever cannot be read is left at its default (a hand-edited link still
 * opens
 * the page), never guessed. The server validates strictly and answers a 400 naming the parameter.
 */
export function parseReportFilterParams(params: URLSearchParams): ReportFilter {
  const raw = readReportFilterParams(params);
  const list = (key: ReportFilterListKey) => {
    const value = raw[key];
    return Array.isArray(value) ? [...new Set(value.filter((v) => v !== ''))] : [];
  };
  const ints = (key: 'weekday' | 'hour', min: number, max: number) =>
    list(key)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n >= min && n <= max)
      .sort((a, b) => a - b);
  const day = (value: unknown) => (typeof value === 'string' && parseCalendarDay(value) ? value : null);
  const size = (value: unknown) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    return Number.isFinite(n) && n >= 0 ? n : null;
  };
  const rBound = (value: unknown) => {
    const n = typeof value === 'string' && R_BOUND.test(value.trim()) ? Number(value) : Number.NaN;
    return Number.isFinite(n) && Math.abs(n) <= MAX_R_BOUND ? n + 0 : null;
  };
  const news = typeof raw.news === 'string' ? Number(raw.news) : Number.NaN;
  const from = day(raw.from);
  const to = day(raw.to);
  const range: DatePreset = isIn(DATE_PRESETS, raw.range) ? raw.range : from || to ? 'custom' : 'all-time';
  return {
    range,
    from: range === 'custom' ? from : null,
    to: range === 'custom' ? to : null,
    account: list('account').filter((a) => a !== 'all'),
    symbol: list('symbol'),
    contract: list('contract'),
    side: list('side'),
    setup: list('setup'),
    playbook: list('playbook'),
    session: list('session'),
    tag: list('tag'),
    tagMode: isIn(TAG_MODES, raw.tagMode) ? raw.tagMode : 'any',
    result: list('result').filter((r): r is TradeResult => isIn(TRADE_RESULTS, r)),
    weekday: ints('weekday', 1, 7),
    hour: ints('hour', 0, 23),
    hold: list('hold').filter((h): h is HoldBucketId => isIn(HOLD_BUCKET_IDS, h)),
    sizeMin: size(raw.sizeMin),
    sizeMax: size(raw.sizeMax),
    rMin: rBound(raw.rMin),
    rMax: rBound(raw.rMax),
    risk: isIn(WITH_WITHOUT, raw.risk) ? raw.risk : null,
    mistakes: isIn(WITH_WITHOUT, raw.mistakes) ? raw.mistakes : null,
    mistake: list('mistake'),
    markets: isIn(MARKET_GROUPINGS, raw.markets) ? raw.markets : null,
    news: isIn(NEWS_WINDOWS, news) ? news : null,
    // A mode without a window narrows nothing, and is kept at its default as the server keeps it.
    newsMode: isIn(NEWS_WINDOWS, news) && isIn(NEWS_MODES, raw.newsMode) ? raw.newsMode : 'near',
  };
}

/** Equal filters write the same URL. */
export function isSameReportFilter(a: ReportFilter, b: ReportFilter): boolean {
  return writeReportFilterParams(a).toString() === writeReportFilterParams(b).toString();
}

// ---------------------------------------------------------------------------------------------------------------
// In words: one description for the filter bar's summary, the AI's "Computed from ..." line and the CSV's header.

const formatDayWithYear = (day: CalendarDay) => `${formatShortDay(day)}, ${day.slice(0, 4)}`;

export function formatHour(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/** "14:00-16:00" for 14 and 15; runs of consecutive hours are joined. */
export function describeHours(hours: readonly number[]): string {
  const sorted = [...new Set(hours)].sort((a, b) => a - b);
  const runs: Array<[number, number]> = [];
  for (const hour of sorted) {
    const last = runs[runs.length - 1];
    if (last && hour === last[1] + 1) last[1] = hour;
    else runs.push([hour, hour]);
  }
  return runs.map(([a, b]) => `${formatHour(a)}-${b === 23 ? '24:00' : formatHour(b + 1)}`).join(', ');
}

export function formatSize(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(8)));
}

const formatRBound = (r: number) => `${r > 0 ? '+' : ''}${r}R`;

/** 'R-multiple +1R to +3R', 'R-multiple -1R or more', 'R-multiple up to 0R'. */
export function describeRRange(rMin: number | null, rMax: number | null): string {
  if (rMin !== null && rMax !== null)
    return rMin === rMax ? `R-multiple ${formatRBound(rMin)}` : `R-multiple ${formatRBound(rMin)} to ${formatRBound(rMax)}`;
  if (rMin !== null) return `R-multiple ${formatRBound(rMin)} or more`;
  return `R-multiple up to ${formatRBound(rMax ?? 0)}`;
}

/** "Last 90 Days: Aug 28, 2026 to Nov 25, 2026", "All Time", "Nov 3, 2026". */
export function describeReportRange(filter: Pick<ReportFilter, 'range'>, range: ResolvedRange): string {
  const span =
    range.from && range.to
      ? range.from === range.to
        ? formatDayWithYear(range.from)
        : `${formatDayWithYear(range.from)} to ${formatDayWithYear(range.to)}`
      : range.from
        ? `from ${formatDayWithYear(range.from)}`
        : range.to
          ? `until ${formatDayWithYear(range.to)}`
          : '';
  if (filter.range === 'custom') return span || 'All Time';
  if (filter.range === 'all-time') return 'All Time';
  return span ? `${DATE_PRESET_LABELS[filter.range]}: ${span}` : DATE_PRESET_LABELS[filter.range];
}

/**
 * Each narrowing key as a phrase ('instrument NQ or ES', 'side Short', 'tags none of FOMO'), in the URL's order.
 * Accounts are named through `accountName` (an id the trader no longer has reads 'an unknown account').
 */
export function describeReportFilterParts(filter: ReportFilter, accountName: (id: string) => string | undefined): string[] {
  const or = (values: readonly string[]) => values.join(' or ');
  const parts: string[] = [];
  if (filter.account.length > 0) {
    parts.push(`account ${or(filter.account.map((id) => (id === UNASSIGNED ? 'Unassigned' : (accountName(id) ?? 'an unknown account'))))}`);
  }
  if (filter.symbol.length > 0) parts.push(`${filter.markets === 'grouped' ? 'market' : 'instrument'} ${or(filter.symbol)}`);
  if (filter.contract.length > 0) parts.push(`contract ${or(filter.contract)}`);
  if (filter.side.length > 0) parts.push(`side ${or(filter.side)}`);
  if (filter.setup.length > 0) parts.push(`setup ${or(filter.setup.map((s) => s || '(none)'))}`);
  // Playbooks are named through the same lookup as accounts (both are the trader's ids).
  if (filter.playbook.length > 0) parts.push(`playbook ${or(filter.playbook.map((id) => accountName(id) ?? 'an unknown playbook'))}`);
  if (filter.session.length > 0) parts.push(`session ${or(filter.session)}`);
  if (filter.tag.length > 0) parts.push(`tags ${TAG_MODE_LABELS[filter.tagMode]} ${filter.tag.join(', ')}`);
  if (filter.result.length > 0) parts.push(`result ${or(filter.result)}`);
  if (filter.weekday.length > 0) parts.push(`day ${or(filter.weekday.map((d) => WEEKDAY_LABELS[d] ?? String(d)))}`);
  if (filter.hour.length > 0) parts.push(`entry ${describeHours(filter.hour)}`);
  if (filter.hold.length > 0) parts.push(`hold ${or(filter.hold.map((h) => HOLD_BUCKETS.find((b) => b.id === h)?.label ?? h))}`);
  if (filter.sizeMin !== null && filter.sizeMax !== null) {
    parts.push(
      filter.sizeMin === filter.sizeMax ? `size ${formatSize(filter.sizeMin)}` : `size ${formatSize(filter.sizeMin)}-${formatSize(filter.sizeMax)}`,
    );
  } else if (filter.sizeMin !== null) parts.push(`size ${formatSize(filter.sizeMin)} or more`);
  else if (filter.sizeMax !== null) parts.push(`size up to ${formatSize(filter.sizeMax)}`);
  if (filter.risk === 'with' && filter.rMin === null && filter.rMax === null) parts.push('with a planned risk');
  if (filter.risk === 'without') parts.push('without a planned risk');
  if (filter.rMin !== null || filter.rMax !== null) parts.push(describeRRange(filter.rMin, filter.rMax));
  if (filter.mistakes === 'with') parts.push('with a mistake');
  if (filter.mistakes === 'without') parts.push('without a mistake');
  if (filter.mistake.length > 0) parts.push(`mistake ${or(filter.mistake)}`);
  if (filter.markets === 'grouped') parts.push('micros counted with their full-size contract');
  if (filter.news !== null) parts.push(describeNews(filter.news, filter.newsMode));
  return parts;
}

/** 'within 15 min of high-impact USD news', 'more than 15 min from high-impact USD news'. */
export function describeNews(minutes: number, mode: NewsMode): string {
  return mode === 'away' ? `more than ${minutes} min from high-impact USD news` : `within ${minutes} min of high-impact USD news`;
}

/** The whole filter in one line: "Last 90 Days: Aug 28, 2026 to Nov 25, 2026; instrument NQ; side Short". */
export function describeReportFilter(filter: ReportFilter, range: ResolvedRange, accountName: (id: string) => string | undefined): string {
  return [describeReportRange(filter, range), ...describeReportFilterParts(filter, accountName)].join('; ');
}

/**
 * What a figure was computed from, for the AI's answers and the CSV's first line: "Computed from 412 trades, Jun 2,
 * 2026
 * to Jun 30, 2026 (instrument NQ; side Short)". The days are the first and last trading days that had a trade.
 */
export function describeReportBasis(
  basis: { trades: number; firstDay: CalendarDay | null; lastDay: CalendarDay | null },
  filter: ReportFilter,
  range: ResolvedRange,
  accountName: (id: string) => string | undefined,
): string {
  const span =
    basis.firstDay && basis.lastDay
      ? basis.firstDay === basis.lastDay
        ? `, ${formatDayWithYear(basis.firstDay)}`
        : `, ${formatDayWithYear(basis.firstDay)} to ${formatDayWithYear(basis.lastDay)}`
      : '';
  const parts = describeReportFilterParts(filter, accountName);
  const days = filter.range === 'all-time' ? [] : [describeReportRange(filter, range)];
  const filters = [...days, ...parts];
  return `Computed from ${basis.trades} trade${basis.trades === 1 ? '' : 's'}${span}${filters.length ? ` (${filters.join('; ')})` : ''}`;
}
