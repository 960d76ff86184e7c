import type { Cents } from '../cents';
import { addDays, addMonths, formatCalendarDay, formatDay, type CalendarDay } from '../dates/calendar-day';
import { aggregateTrades, type TradeAggregate } from '../stats/trade-aggregate';
import {
  formatHour,
  formatSize,
  getHoldBucket,
  HOLD_BUCKETS,
  UNASSIGNED,
  WEEKDAY_LABELS,
  type ReportFilter,
  type ResolvedRange,
} from './filter';
import { calculateAverageTrade, calculateExpectancy, calculateProfitFactorOrNull, calculateWinRateOrNull, toPercent } from './formulas';
import { getEntryHour, type ReportTrade } from './report-trade';

/** Breakdowns (issue 26 point 4): the dimensions a trader groups trades by. */
export const BREAKDOWNS = ['instrument', 'contract', 'side', 'setup', 'session', 'tag', 'account', 'weekday', 'hour', 'hold', 'size', 'month', 'year'] as const;
export type BreakdownBy = (typeof BREAKDOWNS)[number];

export const BREAKDOWN_LABELS: Readonly<Record<BreakdownBy, string>> = {
  instrument: 'Instrument',
  contract: 'Contract',
  side: 'Side',
  setup: 'Setup / type',
  session: 'Session',
  tag: 'Tag',
  account: 'Account',
  weekday: 'Day of week',
  hour: 'Hour of entry',
  hold: 'Hold time',
  size: 'Position size',
  month: 'Month',
  year: 'Year',
};

/** What a trade left out of a breakdown lacks, in words: "14 trades without an entry time". */
export const BREAKDOWN_MISSING: Readonly<Record<BreakdownBy, string | null>> = {
  instrument: null,
  contract: 'without a contract',
  side: 'without a side',
  setup: 'without a setup',
  session: null,
  tag: 'without tags',
  account: null,
  weekday: null,
  hour: 'without an entry time',
  hold: 'without entry and exit times',
  size: 'without a position size',
  month: null,
  year: null,
};

/** Ordered dimensions list in their own order (Monday first, 09:00 before 10:00); the others by trades, then name. */
const ORDINAL: ReadonlySet<BreakdownBy> = new Set(['weekday', 'hour', 'hold', 'size', 'month', 'year']);

export interface BreakdownRow {
  /** The group's value as the filter writes it (an account id, an hour '14', a bucket id, a month '2026-03'). */
  key: string;
  label: string;
  trades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  winRate: number | null;
  netCents: Cents;
  grossProfitCents: Cents;
  grossLossCents: Cents;
  averageCents: Cents | null;
  /** Null when the group has no losing trade ('∞' when it won something, else '—'). */
  profitFactor: number | null;
  expectancyCents: Cents | null;
  /** The group's trades as a share of all trades in the filter (tags: a trade with two tags counts in both rows). */
  sharePercent: number | null;
}

export interface Breakdown {
  by: BreakdownBy;
  rows: BreakdownRow[];
  /** Trades in the filter. */
  total: number;
  /** Trades that lack the dimension (no entry time for the hour) and are in no row. */
  excluded: number;
}

export interface BreakdownContext {
  timeZone: string;
  /** Names of the trader's accounts by id. */
  accountName?: (id: string) => string | undefined;
}

/** The group keys of a trade for a dimension: none when it lacks it, several for tags. */
function keysOf(trade: ReportTrade, by: BreakdownBy, timeZone: string): readonly string[] {
  switch (by) {
    case 'instrument':
      return [trade.symbol];
    case 'contract':
      return trade.contract ? [trade.contract] : [];
    case 'side':
      return trade.side ? [trade.side] : [];
    case 'setup':
      return trade.setup ? [trade.setup] : [];
    case 'session':
      return [trade.session];
    case 'tag':
      return trade.tags;
    case 'account':
      return [trade.accountId ?? UNASSIGNED];
    case 'weekday':
      return [String(trade.weekday)];
    case 'hour': {
      const hour = getEntryHour(trade, timeZone);
      return hour === null ? [] : [String(hour)];
    }
    case 'hold':
      return trade.holdSeconds === null ? [] : [getHoldBucket(trade.holdSeconds)];
    case 'size':
      return trade.quantity === null ? [] : [formatSize(trade.quantity)];
    case 'month':
      return [trade.tradeDate.slice(0, 7)];
    case 'year':
      return [trade.tradeDate.slice(0, 4)];
  }
}

export function labelBreakdownKey(by: BreakdownBy, key: string, accountName?: (id: string) => string | undefined): string {
  switch (by) {
    case 'account':
      return key === UNASSIGNED ? 'Unassigned' : (accountName?.(key) ?? 'Unknown account');
    case 'weekday':
      return WEEKDAY_LABELS[Number(key)] ?? key;
    case 'hour':
      return `${formatHour(Number(key))}-${Number(key) === 23 ? '24:00' : formatHour(Number(key) + 1)}`;
    case 'hold':
      return HOLD_BUCKETS.find((b) => b.id === key)?.label ?? key;
    case 'month':
      return formatDay(`${key}-01`, 'MMM yyyy');
    default:
      return key;
  }
}

function sortKeyOf(by: BreakdownBy, key: string): number | string {
  switch (by) {
    case 'weekday':
    case 'hour':
    case 'size':
    case 'year':
      return Number(key);
    case 'hold':
      return HOLD_BUCKETS.findIndex((b) => b.id === key);
    default:
      return key;
  }
}

/** A group's figures from its sums: the same formulas as the Overview's. */
export function toBreakdownFigures(aggregate: TradeAggregate, total: number): Omit<BreakdownRow, 'key' | 'label'> {
  return {
    trades: aggregate.trades,
    wins: aggregate.wins,
    losses: aggregate.losses,
    breakEvens: aggregate.breakEvens,
    winRate: calculateWinRateOrNull(aggregate),
    netCents: aggregate.pnlCents,
    grossProfitCents: aggregate.grossProfitCents,
    grossLossCents: aggregate.grossLossCents,
    averageCents: calculateAverageTrade(aggregate),
    profitFactor: calculateProfitFactorOrNull(aggregate),
    expectancyCents: calculateExpectancy(aggregate),
    sharePercent: toPercent(aggregate.trades, total),
  };
}

/** One dimension's groups of trades, each row with the Overview's formulas; trades lacking the dimension are counted apart. */
export function computeBreakdown(trades: readonly ReportTrade[], by: BreakdownBy, context: BreakdownContext): Breakdown {
  const groups = new Map<string, ReportTrade[]>();
  let excluded = 0;
  for (const trade of trades) {
    const keys = keysOf(trade, by, context.timeZone);
    if (keys.length === 0) excluded++;
    for (const key of keys) {
      const group = groups.get(key);
      if (group) group.push(trade);
      else groups.set(key, [trade]);
    }
  }
  const total = trades.length;
  const rows: BreakdownRow[] = [...groups].map(([key, group]) => ({
    key,
    label: labelBreakdownKey(by, key, context.accountName),
    ...toBreakdownFigures(aggregateTrades(group), total),
  }));
  if (ORDINAL.has(by)) {
    rows.sort((a, b) => {
      const x = sortKeyOf(by, a.key);
      const y = sortKeyOf(by, b.key);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  } else {
    rows.sort((a, b) => b.trades - a.trades || a.label.localeCompare(b.label));
  }
  return { by, rows, total, excluded };
}

const lastDayOfMonth = (month: string) => addDays(addMonths(`${month}-01`, 1), -1);

/**
 * The filter of one row (a drill-down into the Trade Log): the current filter with the row's value in place of that
 * dimension's. A month or year keeps within the filter's own days.
 */
export function getBreakdownRowFilter(filter: ReportFilter, range: ResolvedRange, by: BreakdownBy, key: string): ReportFilter {
  const next: ReportFilter = { ...filter };
  switch (by) {
    case 'instrument':
      return { ...next, symbol: [key] };
    case 'contract':
      return { ...next, contract: [key] };
    case 'side':
      return { ...next, side: [key] };
    case 'setup':
      return { ...next, setup: [key] };
    case 'session':
      return { ...next, session: [key] };
    case 'tag':
      return { ...next, tag: [key], tagMode: 'any' };
    case 'account':
      return { ...next, account: [key] };
    case 'weekday':
      return { ...next, weekday: [Number(key)] };
    case 'hour':
      return { ...next, hour: [Number(key)] };
    case 'hold':
      return { ...next, hold: [key as ReportFilter['hold'][number]] };
    case 'size':
      return { ...next, sizeMin: Number(key), sizeMax: Number(key) };
    case 'month':
    case 'year': {
      const start: CalendarDay = by === 'month' ? `${key}-01` : formatCalendarDay(Number(key), 1, 1);
      const end: CalendarDay = by === 'month' ? lastDayOfMonth(key) : formatCalendarDay(Number(key), 12, 31);
      const from = range.from && range.from > start ? range.from : start;
      const to = range.to && range.to < end ? range.to : end;
      return { ...next, range: 'custom', from, to };
    }
  }
}
