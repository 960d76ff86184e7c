import type { Cents } from '../cents';
import { addDays, addMonths, formatCalendarDay, formatDay, type CalendarDay } from '../dates/calendar-day';
import { RAccumulator } from '../risk/r-summary';
import type { TradeAggregate } from '../stats/trade-aggregate';
import { GroupSums } from './aggregate-rows';
import {
  formatHour,
  formatSize,
  getHoldBucket,
  HOLD_BUCKETS,
  UNASSIGNED,
  WEEKDAY_LABELS,
  type MarketGrouping,
  type ReportFilter,
  type ResolvedRange,
} from './filter';
import { marketOf } from '../instruments/figures';
import { calculateAverageTrade, calculateExpectancy, calculateProfitFactorOrNull, calculateWinRateOrNull, toPercent } from './formulas';
import { getEntryHours, type TextColumn, type TradeSet } from './report-trade';

/** Breakdowns: the dimensions a trader groups trades by. */
export const BREAKDOWNS = [
  'instrument',
  'contract',
  'side',
  'setup',
  'session',
  'tag',
  'account',
  'weekday',
  'hour',
  'hold',
  'size',
  'month',
  'year',
] as const;
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
  /** P&L before commissions and fees: the net plus the fees, so that gross less fees is the net to the cent. */
  grossCents: Cents;
  /** Commissions and fees paid, a positive amount. */
  feesCents: Cents;
  grossProfitCents: Cents;
  grossLossCents: Cents;
  averageCents: Cents | null;
  /** Null when the group has no losing trade ('∞' when it won something, else '—'). */
  profitFactor: number | null;
  expectancyCents: Cents | null;
  /** The group's trades as a share of all trades in the filter (tags: a trade with two tags counts in both rows). */
  sharePercent: number | null;
  /** The group in R: of its trades with a planned risk, the others counted apart. */
  r: BreakdownR;
}

export interface BreakdownR {
  tradesWithRisk: number;
  tradesWithoutRisk: number;
  /** Sum of the trades' R; null when none has a planned risk. */
  totalR: number | null;
  /** The average R of a trade with a planned risk. */
  expectancyR: number | null;
}

export interface Breakdown {
  by: BreakdownBy;
  rows: BreakdownRow[];
  /** Trades in the filter. */
  total: number;
  /** Trades that lack the dimension (no entry time for the hour) and are in no row. */
  excluded: number;
  /** Trades in the filter without a planned risk: in the rows' counts, never in their R. */
  tradesWithoutRisk: number;
}

export interface BreakdownContext {
  timeZone: string;
  /** Names of the trader's accounts by id. */
  accountName?: (id: string) => string | undefined;
  /**
   * Every trade's planned risk in cents, NaN without (r-multiples.ts's getRiskColumn, with the trader's defaults); the
   * trades' own plans when left out.
   */
  risk?: Float64Array;
  /** 'grouped': the instrument breakdown counts a micro with its full-size contract as one market (the filter's `markets`). */
  markets?: MarketGrouping | null;
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

/**
 * Sessions as the trading day runs, from the evening open: Asia and London overnight, then New York's morning, lunch,
 * afternoon and the hours after the close. Matched without regard to case; a session of another name follows these.
 */
export const SESSION_CLOCK_ORDER: readonly string[] = [
  'overnight',
  'asia',
  'tokyo',
  'sydney',
  'london',
  'europe',
  'pre-market',
  'premarket',
  'am',
  'new york',
  'ny',
  'new york am',
  'ny am',
  'lunch',
  'pm',
  'new york pm',
  'ny pm',
  'after hours',
];

/** A session's place in the trading day; Infinity for a name not in the clock's list. */
export function sessionClockRank(session: string): number {
  const at = SESSION_CLOCK_ORDER.indexOf(session.trim().toLowerCase());
  return at < 0 ? Number.POSITIVE_INFINITY : at;
}

/**
 * The hour breakdown's rows for a chart: every hour of the span the trades cover, the hours between without trades as
 * rows of zero (a chart that dropped them would put 09:00 beside 14:00 as if they were neighbours). The span is the
 * shortest run of the clock that holds every hour with trades, so a night session's 20:00 to 02:00 reads as one
 * evening into the morning rather than a day with a hole; a tie keeps midnight to midnight.
 */
export function fillHourSpan(
  rows: readonly BreakdownRow[],
): Array<{ key: string; label: string; trades: number; netCents: Cents; totalR: number | null }> {
  const byHour = new Map(rows.map((r) => [Number(r.key), r]));
  const hours = [...byHour.keys()].sort((a, b) => a - b);
  if (hours.length === 0) return [];
  // The widest gap between hours with trades is left out; past midnight (the last hour back to the first) at first.
  let start = hours[0]!;
  let widest = hours[0]! + 24 - hours[hours.length - 1]!;
  for (let k = 1; k < hours.length; k++) {
    const gap = hours[k]! - hours[k - 1]!;
    if (gap > widest) {
      widest = gap;
      start = hours[k]!;
    }
  }
  const out: Array<{ key: string; label: string; trades: number; netCents: Cents; totalR: number | null }> = [];
  for (let step = 0; step <= 24 - widest; step++) {
    const h = (start + step) % 24;
    const row = byHour.get(h);
    const key = String(h);
    out.push(
      row
        ? { key, label: row.label, trades: row.trades, netCents: row.netCents, totalR: row.r.totalR }
        : { key, label: labelBreakdownKey('hour', key), trades: 0, netCents: 0, totalR: 0 },
    );
  }
  return out;
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

/** A group's figures from its sums (and its fees): the same formulas as the Overview's. */
export function toBreakdownFigures(aggregate: TradeAggregate, total: number, feesCents: Cents = 0): Omit<BreakdownRow, 'key' | 'label' | 'r'> {
  return {
    trades: aggregate.trades,
    wins: aggregate.wins,
    losses: aggregate.losses,
    breakEvens: aggregate.breakEvens,
    winRate: calculateWinRateOrNull(aggregate),
    netCents: aggregate.pnlCents,
    grossCents: aggregate.pnlCents + feesCents,
    feesCents,
    grossProfitCents: aggregate.grossProfitCents,
    grossLossCents: aggregate.grossLossCents,
    averageCents: calculateAverageTrade(aggregate),
    profitFactor: calculateProfitFactorOrNull(aggregate),
    expectancyCents: calculateExpectancy(aggregate),
    sharePercent: toPercent(aggregate.trades, total),
  };
}

/**
 * Each row's group for a dimension: `group(i)` is the group of row i (-1 when it lacks the dimension), `keys[g]` the
 * group's key as the filter writes it. Tags are many per trade and go through `tagGroups` instead.
 */
function groupsOf(
  set: TradeSet,
  by: Exclude<BreakdownBy, 'tag'>,
  timeZone: string,
  markets: MarketGrouping | null = null,
): { keys: string[]; group: (i: number) => number } {
  const c = set.columns;
  const byCode = (column: TextColumn, missingEmpty = false) => ({
    keys: column.values.map((v) => v ?? ''),
    group: (i: number) => {
      const code = column.codes[i]!;
      return code === 0 || (missingEmpty && column.values[code] === '') ? -1 : code;
    },
  });
  switch (by) {
    case 'instrument': {
      if (markets !== 'grouped') return byCode(c.symbol);
      // One group per market: each symbol's code goes to its market's group (MNQ's and NQ's trades are NQ's).
      const keys: string[] = [''];
      const index = new Map<string, number>();
      const toGroup = Int32Array.from(c.symbol.values, (value) => {
        if (value === null) return -1;
        const market = marketOf(value);
        let g = index.get(market);
        if (g === undefined) {
          g = keys.length;
          keys.push(market);
          index.set(market, g);
        }
        return g;
      });
      return { keys, group: (i) => toGroup[c.symbol.codes[i]!]! };
    }
    case 'contract':
      return byCode(c.contract, true);
    case 'side':
      return byCode(c.side, true);
    case 'setup':
      return byCode(c.setup, true);
    case 'session':
      return byCode(c.session);
    case 'account':
      return { keys: c.account.values.map((v) => v ?? UNASSIGNED), group: (i) => c.account.codes[i]! };
    case 'weekday':
      return { keys: ['0', '1', '2', '3', '4', '5', '6', '7'], group: (i) => c.dayWeekday[c.day[i]!]! };
    case 'hour': {
      const hours = getEntryHours(c, timeZone);
      return { keys: Array.from({ length: 24 }, (_, h) => String(h)), group: (i) => hours[i]! };
    }
    case 'hold': {
      const index = new Map<string, number>(HOLD_BUCKETS.map((b, k) => [b.id, k]));
      return {
        keys: HOLD_BUCKETS.map((b) => b.id),
        group: (i) => {
          const seconds = c.hold[i]!;
          return Number.isNaN(seconds) ? -1 : index.get(getHoldBucket(seconds))!;
        },
      };
    }
    case 'size': {
      const keys: string[] = [];
      const index = new Map<number, number>();
      return {
        keys,
        group: (i) => {
          const q = c.quantity[i]!;
          if (Number.isNaN(q)) return -1;
          let g = index.get(q);
          if (g === undefined) {
            g = keys.length;
            keys.push(formatSize(q));
            index.set(q, g);
          }
          return g;
        },
      };
    }
    case 'month':
    case 'year': {
      const length = by === 'month' ? 7 : 4;
      const keys: string[] = [];
      const index = new Map<string, number>();
      const dayGroup = c.days.map((d) => {
        const key = d.slice(0, length);
        let g = index.get(key);
        if (g === undefined) {
          g = keys.length;
          keys.push(key);
          index.set(key, g);
        }
        return g;
      });
      return { keys, group: (i) => dayGroup[c.day[i]!]! };
    }
  }
}

/** One dimension's groups of trades, each row with the Overview's formulas; trades lacking the dimension are counted apart. */
export function computeBreakdown(set: TradeSet, by: BreakdownBy, context: BreakdownContext): Breakdown {
  const c = set.columns;
  const risk = context.risk ?? c.ownRisk;
  // R is summed exactly (src/domain/risk/r-summary.ts), per group, as the Overview's and Reflect's R.
  const inR: RAccumulator[] = [];
  const addR = (group: number, i: number) => {
    const acc = (inR[group] ??= new RAccumulator());
    const cents = risk[i]!;
    acc.addCents(c.pnl[i]!, cents > 0 ? cents : null, c.result[i]!);
  };
  let excluded = 0;
  let tradesWithoutRisk = 0;
  for (const i of set.rows) if (!(risk[i]! > 0)) tradesWithoutRisk++;
  let keys: readonly string[];
  let sums: GroupSums;
  if (by === 'tag') {
    keys = c.tagValues;
    sums = new GroupSums(keys.length);
    for (const i of set.rows) {
      const from = c.tagStart[i]!;
      const to = c.tagStart[i + 1]!;
      if (from === to) excluded++;
      for (let k = from; k < to; k++) {
        sums.add(c.tagCodes[k]!, c.result[i]!, c.pnl[i]!, c.fee[i]!);
        addR(c.tagCodes[k]!, i);
      }
    }
  } else {
    const groups = groupsOf(set, by, context.timeZone, context.markets ?? null);
    const assigned = new Int32Array(set.rows.length);
    let count = 0;
    for (let k = 0; k < set.rows.length; k++) {
      const g = groups.group(set.rows[k]!);
      assigned[k] = g;
      if (g < 0) excluded++;
      else count = Math.max(count, g + 1);
    }
    keys = groups.keys;
    sums = new GroupSums(Math.max(count, keys.length));
    for (let k = 0; k < set.rows.length; k++) {
      const g = assigned[k]!;
      if (g < 0) continue;
      sums.add(g, c.result[set.rows[k]!]!, c.pnl[set.rows[k]!]!, c.fee[set.rows[k]!]!);
      addR(g, set.rows[k]!);
    }
  }
  const total = set.rows.length;
  const rows: BreakdownRow[] = [];
  for (let g = 0; g < sums.groups; g++) {
    if (sums.trades[g] === 0) continue;
    const key = keys[g]!;
    const r = inR[g]!.summary();
    rows.push({
      key,
      label: labelBreakdownKey(by, key, context.accountName),
      ...toBreakdownFigures(sums.aggregate(g), total, sums.fees[g]!),
      r: { tradesWithRisk: r.tradesWithRisk, tradesWithoutRisk: r.tradesWithoutRisk, totalR: r.totalR, expectancyR: r.expectancyR },
    });
  }
  sortBreakdownRows(by, rows);
  return { by, rows, total, excluded, tradesWithoutRisk };
}

/**
 * A breakdown's order, in place: ordered dimensions in their own order, sessions as the trading day runs, the others
 * by trades (most first), then name.
 */
export function sortBreakdownRows<T extends { key: string; label: string; trades: number }>(by: BreakdownBy, rows: T[]): T[] {
  if (ORDINAL.has(by)) {
    return rows.sort((a, b) => {
      const x = sortKeyOf(by, a.key);
      const y = sortKeyOf(by, b.key);
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  if (by === 'session')
    return rows.sort((a, b) => sessionClockRank(a.key) - sessionClockRank(b.key) || b.trades - a.trades || a.label.localeCompare(b.label));
  return rows.sort((a, b) => b.trades - a.trades || a.label.localeCompare(b.label));
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
