import type { Cents } from '../cents';
import { parseCalendarDay, type CalendarDay } from '../dates/calendar-day';
import { HOLD_BUCKETS, type ReportFilter, type ResolvedRange, type TagMode } from './filter';
import { holdMatches, toFilterClauses, type FilterClause } from './filter-clauses';
import { isNearEvent } from './news';
import { getHourOfInstant } from '../dates/clock';
import { marketOf } from '../instruments/figures';
import { resolvePlannedRisk, type RiskDefault } from '../risk/planned-risk';

/**
 * A trader's trades as every report reads them, kept column by column: a report scans 100,000 trades
 * several times, and a scan of typed arrays reads memory in order where a scan of 100,000 objects of 17 fields chases
 * a pointer per trade (measured on this machine: ~20x slower). Reports take their trades in the trading order (day,
 * entry, exit, creation, id), which the server reads them in; every order-dependent figure (streaks, equity by trade,
 * drawdown and its dates) relies on it.
 */

/** One trade as it goes in (and as the tests write one). */
export interface ReportTrade {
  id: string;
  /** The trading day, 'yyyy-MM-dd'. */
  tradeDate: CalendarDay;
  accountId: string | null;
  /** Instrument root (NQ). */
  symbol: string;
  contract: string | null;
  /** The side column (Long, Short); splits it from the setup. */
  side: string | null;
  /** The setup or type (the spec's trade_type). */
  setup: string;
  /** The trade's playbook id; absent or null: none. */
  playbookId?: string | null;
  /** How many of its playbook's rules the trade ticked. */
  rulesTicked?: number;
  /** The session (the spec's period). */
  session: string;
  tags: readonly string[];
  status: string;
  /** Net of commission. */
  pnlCents: Cents;
  /** Absolute. */
  commissionCents: Cents;
  entryMs: number | null;
  exitMs: number | null;
  quantity: number | null;
  /** The trade's own plan: prices as exact decimal text, its dollar risk in cents. Absent: no plan. */
  entryPrice?: string | null;
  stopPrice?: string | null;
  riskCents?: Cents | null;
}

/** A trade's result as the columns keep it. */
export const RESULT = { BE: 0, WIN: 1, LOSS: 2 } as const;
export const toResultCode = (status: string) => (status === 'Win' ? RESULT.WIN : status === 'Loss' ? RESULT.LOSS : RESULT.BE);
export const RESULT_NAMES = ['BE', 'Win', 'Loss'] as const;

/** A text column: one small code per trade, the texts once. Code 0 is "none" (null). */
export interface TextColumn {
  codes: Uint32Array;
  values: ReadonlyArray<string | null>;
}

export interface TradeColumns {
  size: number;
  id: readonly string[];
  /** The distinct trading days, ascending, and each one's ISO weekday (Monday 1). */
  days: readonly CalendarDay[];
  dayWeekday: Uint8Array;
  /** Per trade: its day's index in `days`. Trades are in trading order, so these ascend. */
  day: Uint32Array;
  /** The first trade of each day (and `size` at the end): a range of days is a range of trades. */
  dayStart: Uint32Array;
  result: Uint8Array;
  pnl: Float64Array;
  fee: Float64Array;
  /** Epoch milliseconds; NaN without. */
  entry: Float64Array;
  exit: Float64Array;
  /** Exit minus entry in whole seconds (rounded); NaN without both times or with an exit before the entry. */
  hold: Float64Array;
  /** NaN without. */
  quantity: Float64Array;
  /**
   * The planned risk in cents from the trade's own stop or dollar risk; NaN without a plan of its own, where
   * the trader's defaults apply (computeRiskColumn, r-multiples.ts).
   */
  ownRisk: Float64Array;
  account: TextColumn;
  symbol: TextColumn;
  contract: TextColumn;
  side: TextColumn;
  setup: TextColumn;
  playbook: TextColumn;
  /** Rules of its playbook the trade ticked (0 without a playbook). */
  ticked: Uint8Array;
  session: TextColumn;
  /** Tags: trade i's are tagCodes[tagStart[i] .. tagStart[i + 1]). */
  tagStart: Uint32Array;
  tagCodes: Uint32Array;
  tagValues: readonly string[];
  /** Entry hours in a zone, computed once per zone and kept with the columns. */
  hoursByZone: Map<string, Int8Array>;
  /**
   * Every trade's planned risk under the trader's risk defaults (r-multiples.ts, getRiskColumn), kept with the columns
   * for the last defaults asked, by their JSON: a merge of the engine's copy carries it over.
   */
  riskByDefaults: Map<string, { defaults: readonly RiskDefault[]; risk: Float64Array }>;
}

/** A report's trades: columns and the rows (indexes) of the trades it covers, in trading order. */
export interface TradeSet {
  columns: TradeColumns;
  rows: Uint32Array;
}

/** ISO weekday (Monday 1 ... Sunday 7) of a calendar day. */
export function getIsoWeekday(day: CalendarDay): number {
  const parts = parseCalendarDay(day);
  if (!parts) throw new RangeError(`Not a calendar day (yyyy-MM-dd): ${day}`);
  const sunday0 = new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay();
  return sunday0 === 0 ? 7 : sunday0;
}

/** Whole seconds from entry to exit (rounded half up); null without both or with an exit before the entry. */
export function getHoldSeconds(entryMs: number | null, exitMs: number | null): number | null {
  if (entryMs === null || exitMs === null || exitMs < entryMs) return null;
  return Math.round((exitMs - entryMs) / 1000);
}

function textColumn(size: number): { codes: Uint32Array; values: Array<string | null>; code: (value: string | null) => number } {
  const index = new Map<string, number>();
  const values: Array<string | null> = [null];
  return {
    codes: new Uint32Array(size),
    values,
    code(value) {
      if (value === null) return 0;
      let code = index.get(value);
      if (code === undefined) {
        code = values.length;
        values.push(value);
        index.set(value, code);
      }
      return code;
    },
  };
}

/** A trade's planned risk from its own stop or dollar risk, in cents; NaN without one that can be priced. */
function readOwnRiskCents(t: ReportTrade): number {
  const stopPrice = t.stopPrice ?? null;
  const riskCents = t.riskCents ?? null;
  if (stopPrice === null && riskCents === null) return Number.NaN;
  const planned = resolvePlannedRisk({
    accountId: t.accountId,
    symbol: t.symbol,
    contract: t.contract,
    side: null,
    entryPrice: t.entryPrice ?? null,
    quantity: t.quantity === null ? null : String(t.quantity),
    stopPrice,
    riskCents,
  });
  return planned ? planned.cents : Number.NaN;
}

/** The columns of trades given in trading order (sorted by day at least: a day's trades must be together). */
export function buildTradeColumns(trades: readonly ReportTrade[]): TradeColumns {
  const size = trades.length;
  const days: CalendarDay[] = [];
  const day = new Uint32Array(size);
  const starts: number[] = [];
  const result = new Uint8Array(size);
  const pnl = new Float64Array(size);
  const fee = new Float64Array(size);
  const entry = new Float64Array(size);
  const exit = new Float64Array(size);
  const hold = new Float64Array(size);
  const quantity = new Float64Array(size);
  const ownRisk = new Float64Array(size);
  const ticked = new Uint8Array(size);
  const dims = {
    account: textColumn(size),
    symbol: textColumn(size),
    contract: textColumn(size),
    side: textColumn(size),
    setup: textColumn(size),
    playbook: textColumn(size),
    session: textColumn(size),
  };
  const tagIndex = new Map<string, number>();
  const tagValues: string[] = [];
  const tagStart = new Uint32Array(size + 1);
  const tagCodes: number[] = [];
  const id: string[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const t = trades[i]!;
    if (days.length === 0 || days[days.length - 1] !== t.tradeDate) {
      if (days.length > 0 && t.tradeDate < days[days.length - 1]!) throw new RangeError('buildTradeColumns: trades must be in trading order');
      days.push(t.tradeDate);
      starts.push(i);
    }
    day[i] = days.length - 1;
    id[i] = t.id;
    result[i] = toResultCode(t.status);
    pnl[i] = t.pnlCents;
    fee[i] = t.commissionCents;
    entry[i] = t.entryMs ?? Number.NaN;
    exit[i] = t.exitMs ?? Number.NaN;
    hold[i] = getHoldSeconds(t.entryMs, t.exitMs) ?? Number.NaN;
    quantity[i] = t.quantity ?? Number.NaN;
    ownRisk[i] = readOwnRiskCents(t);
    dims.account.codes[i] = dims.account.code(t.accountId);
    dims.symbol.codes[i] = dims.symbol.code(t.symbol);
    dims.contract.codes[i] = dims.contract.code(t.contract);
    dims.side.codes[i] = dims.side.code(t.side);
    dims.setup.codes[i] = dims.setup.code(t.setup);
    dims.playbook.codes[i] = dims.playbook.code(t.playbookId ?? null);
    ticked[i] = Math.min(t.rulesTicked ?? 0, 255);
    dims.session.codes[i] = dims.session.code(t.session);
    tagStart[i] = tagCodes.length;
    for (const tag of t.tags) {
      let code = tagIndex.get(tag);
      if (code === undefined) {
        code = tagValues.length;
        tagValues.push(tag);
        tagIndex.set(tag, code);
      }
      tagCodes.push(code);
    }
  }
  tagStart[size] = tagCodes.length;
  starts.push(size);
  const column = (d: { codes: Uint32Array; values: Array<string | null> }): TextColumn => ({ codes: d.codes, values: d.values });
  return {
    size,
    id,
    days,
    dayWeekday: Uint8Array.from(days, getIsoWeekday),
    day,
    dayStart: Uint32Array.from(starts),
    result,
    pnl,
    fee,
    entry,
    exit,
    hold,
    quantity,
    ownRisk,
    account: column(dims.account),
    symbol: column(dims.symbol),
    contract: column(dims.contract),
    side: column(dims.side),
    setup: column(dims.setup),
    playbook: column(dims.playbook),
    ticked,
    session: column(dims.session),
    tagStart,
    tagCodes: Uint32Array.from(tagCodes),
    tagValues,
    hoursByZone: new Map(),
    riskByDefaults: new Map(),
  };
}

/** Every trade of the columns. */
export function allTrades(columns: TradeColumns): TradeSet {
  return { columns, rows: Uint32Array.from({ length: columns.size }, (_, i) => i) };
}

/** Trades (in trading order) as a set of their own: the tests' and the tools' way in. */
export function createTradeSet(trades: readonly ReportTrade[]): TradeSet {
  return allTrades(buildTradeColumns(trades));
}

/** Hour of entry in the trader's zone (hour buckets are the trader's clock), -1 without an entry time. */
export function getEntryHours(columns: TradeColumns, timeZone: string): Int8Array {
  let hours = columns.hoursByZone.get(timeZone);
  if (!hours) {
    hours = new Int8Array(columns.size);
    for (let i = 0; i < columns.size; i++) {
      const ms = columns.entry[i]!;
      hours[i] = Number.isNaN(ms) ? -1 : getHourOfInstant(ms, timeZone);
    }
    columns.hoursByZone.set(timeZone, hours);
  }
  return hours;
}

/** The trading day of row i. */
export const dayOf = (columns: TradeColumns, i: number): CalendarDay => columns.days[columns.day[i]!]!;

/** First index of `days` at or after `day` (binary search; days ascend). */
/** The index of the first of the ascending days that is `day` or later (`after`: later than `day`). */
function firstDayAtOrAfter(days: readonly CalendarDay[], day: CalendarDay, after = false): number {
  let low = 0;
  let high = days.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (days[mid]! < day || (after && days[mid] === day)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The filter's trades: its clauses (filter-clauses.ts, the one definition the SQL of the Trade Log's pages follows too)
 * applied to the columns. An empty list allows anything; lists are OR-ed, keys AND-ed. The range is inclusive at both
 * ends; a trade without a time, a size or a side is left out by a filter on it.
 */
export function selectTrades(
  columns: TradeColumns,
  filter: ReportFilter,
  range: ResolvedRange,
  timeZone: string,
  traderData: TraderFilterData = {},
): TradeSet {
  const c = columns;
  let start = 0;
  let end = c.size;
  const tests: Array<(i: number) => boolean> = [];
  for (const clause of toFilterClauses(filter, range)) {
    if (clause.kind === 'days') {
      const firstDay = clause.from === null ? 0 : firstDayAtOrAfter(c.days, clause.from);
      // The first day after the range's last (not the day after it as text: after 9999-12-31 comes 10000-01-01).
      const endDay = clause.to === null ? c.days.length : firstDayAtOrAfter(c.days, clause.to, true);
      start = c.dayStart[firstDay] ?? c.size;
      end = c.dayStart[Math.max(firstDay, endDay)] ?? c.size;
    } else {
      tests.push(clauseTest(c, clause, timeZone, traderData));
    }
  }
  const rows = new Uint32Array(Math.max(0, end - start));
  let n = 0;
  if (tests.length === 0) {
    for (let i = start; i < end; i++) rows[n++] = i;
  } else {
    next: for (let i = start; i < end; i++) {
      for (const test of tests) if (!test(i)) continue next;
      rows[n++] = i;
    }
  }
  return { columns: c, rows: rows.subarray(0, n) };
}

/** A clause (but the days, which bound the rows) as a test of a row of the columns. */
function clauseTest(
  c: TradeColumns,
  clause: Exclude<FilterClause, { kind: 'days' }>,
  timeZone: string,
  traderData: TraderFilterData,
): (i: number) => boolean {
  switch (clause.kind) {
    case 'account': {
      const ok = Uint8Array.from(c.account.values, (id) => ((id === null ? clause.unassigned : clause.ids.includes(id)) ? 1 : 0));
      return (i) => ok[c.account.codes[i]!] === 1;
    }
    case 'text': {
      const column = c[clause.field];
      const ok = Uint8Array.from(column.values, (value) => (value !== null && clause.values.includes(value) ? 1 : 0));
      return (i) => ok[column.codes[i]!] === 1;
    }
    case 'market': {
      const column = c.symbol;
      const ok = Uint8Array.from(column.values, (value) => (value !== null && clause.markets.includes(marketOf(value)) ? 1 : 0));
      return (i) => ok[column.codes[i]!] === 1;
    }
    case 'result': {
      const ok = Uint8Array.from([0, 1, 2], (code) => (clause.values.includes(RESULT_NAMES[code]! as never) ? 1 : 0));
      return (i) => ok[c.result[i]!] === 1;
    }
    case 'weekday': {
      const ok = Uint8Array.from({ length: 8 }, (_, d) => (clause.values.includes(d) ? 1 : 0));
      return (i) => ok[c.dayWeekday[c.day[i]!]!] === 1;
    }
    case 'entry-hour': {
      const ok = Uint8Array.from({ length: 24 }, (_, h) => (clause.values.includes(h) ? 1 : 0));
      const hours = getEntryHours(c, timeZone);
      return (i) => {
        const hour = hours[i]!;
        return hour >= 0 && ok[hour] === 1;
      };
    }
    case 'hold':
      return (i) => {
        const seconds = c.hold[i]!;
        return !Number.isNaN(seconds) && holdMatches(clause.ranges, seconds);
      };
    case 'size':
      return (i) => {
        const q = c.quantity[i]!;
        return !Number.isNaN(q) && (clause.min === null || q >= clause.min) && (clause.max === null || q <= clause.max);
      };
    case 'tags': {
      const wanted = clause.values.map((tag) => c.tagValues.indexOf(tag));
      return (i) => matchesTags(c, i, wanted, clause.mode);
    }
    case 'planned-risk':
      return readRiskTest(c, clause, traderData.risk);
    case 'mistakes':
      return readMistakeTest(c, clause, traderData.mistakeTags);
    case 'news': {
      const events = traderData.newsEvents;
      if (!events) throw new Error('selectTrades: a news filter needs the stored events');
      const { windowMs, near } = clause;
      return (i) => {
        const entry = c.entry[i]!;
        return !Number.isNaN(entry) && isNearEvent(events, entry, windowMs) === near;
      };
    }
  }
}

/** What the R and mistake filters read beyond the trades: needed only when the filter has those keys. */
export interface TraderFilterData {
  /** Every trade's planned risk in cents, NaN without (computeRiskColumn, r-multiples.ts). */
  risk?: Float64Array;
  /** The tags the trader marks as mistakes. */
  mistakeTags?: readonly string[];
  /** The stored high-impact USD events' instants in milliseconds, sorted ascending (sortEventInstants). */
  newsEvents?: ArrayLike<number>;
}

/** Tags compare as the Mistakes report compares them: 'FOMO' and 'fomo' are one. */
export const toMistakeKey = (tag: string) => tag.trim().toLowerCase();

/**
 * The R filter's test of a trade. R is compared exactly, in whole numbers: pnl x 100 >= bound x risk for a bound in
 * hundredths of an R (pnl and risk in cents), as the SQL compares it, so a trade on the bound is never in one and not
 * the other.
 */
function readRiskTest(
  c: TradeColumns,
  clause: Extract<FilterClause, { kind: 'planned-risk' }>,
  risk: Float64Array | undefined,
): (i: number) => boolean {
  if (!risk) throw new Error("selectTrades: an R filter needs every trade's planned risk");
  const { want, min, max } = clause;
  return (i) => {
    const cents = risk[i]!;
    const has = cents > 0;
    if (want !== null && has !== want) return false;
    // A trade without a planned risk has no R: a bound leaves it out, as SQL's null comparison does.
    if (!has) return min === null && max === null;
    const pnl = c.pnl[i]!;
    if (min !== null && pnl * 100 < min * cents) return false;
    if (max !== null && pnl * 100 > max * cents) return false;
    return true;
  };
}

/** The mistake filter's test of a trade: its tags against the trader's mistakes, or the mistakes named. */
function readMistakeTest(
  c: TradeColumns,
  clause: Extract<FilterClause, { kind: 'mistakes' }>,
  mistakeTags: readonly string[] | undefined,
): (i: number) => boolean {
  if (!mistakeTags) throw new Error("selectTrades: a mistake filter needs the trader's mistake tags");
  const marked = new Set(mistakeTags.map(toMistakeKey));
  const named = new Set(clause.named.map(toMistakeKey));
  // Per tag code, once: is it a mistake, is it one of those named.
  const isMarked = Uint8Array.from(c.tagValues, (tag) => (marked.has(toMistakeKey(tag)) ? 1 : 0));
  const isNamed = Uint8Array.from(c.tagValues, (tag) => (named.has(toMistakeKey(tag)) ? 1 : 0));
  return (i) => {
    let anyMistake = false;
    let anyNamed = false;
    for (let k = c.tagStart[i]!; k < c.tagStart[i + 1]!; k++) {
      if (isMarked[c.tagCodes[k]!]) anyMistake = true;
      if (isNamed[c.tagCodes[k]!]) anyNamed = true;
    }
    if (clause.mode === 'with' && !anyMistake) return false;
    if (clause.mode === 'without' && anyMistake) return false;
    if (named.size > 0 && !anyNamed) return false;
    return true;
  };
}

/** `wanted` holds tag codes, -1 for a tag no trade has. */
function matchesTags(c: TradeColumns, i: number, wanted: readonly number[], mode: TagMode): boolean {
  const from = c.tagStart[i]!;
  const to = c.tagStart[i + 1]!;
  const has = (code: number) => {
    if (code < 0) return false;
    for (let k = from; k < to; k++) if (c.tagCodes[k] === code) return true;
    return false;
  };
  if (mode === 'any') return wanted.some(has);
  if (mode === 'all') return wanted.every(has);
  return !wanted.some(has);
}

/** Every hold bucket's label by id (the breakdown's and the filter's words). */
export const HOLD_LABELS: Readonly<Record<string, string>> = Object.fromEntries(HOLD_BUCKETS.map((b) => [b.id, b.label]));
