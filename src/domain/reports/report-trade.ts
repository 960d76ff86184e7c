import type { Cents } from '../cents';
import { parseCalendarDay, type CalendarDay } from '../dates/calendar-day';
import { getHoldBucket, hasMistakeFilter, hasRiskFilter, HOLD_BUCKETS, toHundredthsR, UNASSIGNED, type ReportFilter, type ResolvedRange } from './filter';
import { getHourOfInstant } from '../dates/clock';
import { resolvePlannedRisk, type RiskDefault } from '../risk/planned-risk';

/**
 * A trader's trades as every report reads them (issue 26), kept column by column: a report scans 100,000 trades
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
  /** The side column (Long, Short); issue 27 splits it from the setup. */
  side: string | null;
  /** The setup or type (the spec's trade_type). */
  setup: string;
  /** The trade's playbook id (issue 27, point 4); absent or null: none. */
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
  /** The trade's own plan (issue 27): prices as exact decimal text, its dollar risk in cents. Absent: no plan. */
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
   * The planned risk in cents from the trade's own stop or dollar risk (issue 27); NaN without a plan of its own, where
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
   * for the last defaults asked, by their JSON: a merge carries it over (merge-columns.ts).
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

/** Hour of entry in the trader's zone (issue 26: hour buckets are the trader's clock), -1 without an entry time. */
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

/** A lookup of the codes a list allows (null when the list is empty: anything goes). */
function allowed(column: TextColumn, list: readonly string[]): Uint8Array | null {
  if (list.length === 0) return null;
  const ok = new Uint8Array(column.values.length);
  column.values.forEach((value, code) => {
    if (value !== null && list.includes(value)) ok[code] = 1;
  });
  return ok;
}

/**
 * The filter's trades (issue 26, the filter model's rule in domain code; the reports repo says the same in SQL and the
 * API tests hold the two to the same trades). An empty list allows anything; lists are OR-ed, keys AND-ed. The range is
 * inclusive at both ends; a trade without a time, a size or a side is left out by a filter on it.
 */
export function selectTrades(columns: TradeColumns, filter: ReportFilter, range: ResolvedRange, timeZone: string, traderData: TraderFilterData = {}): TradeSet {
  const c = columns;
  const byRisk = hasRiskFilter(filter) ? readRiskTest(filter, traderData.risk) : null;
  const byMistake = hasMistakeFilter(filter) ? readMistakeTest(c, filter, traderData.mistakeTags) : null;
  const firstDay = range.from === null ? 0 : firstDayAtOrAfter(c.days, range.from);
  // The first day after the range's last (not the day after it as text: after 9999-12-31 comes 10000-01-01).
  const endDay = range.to === null ? c.days.length : firstDayAtOrAfter(c.days, range.to, true);
  const start = c.dayStart[firstDay] ?? c.size;
  const end = c.dayStart[Math.max(firstDay, endDay)] ?? c.size;

  const accounts = filter.account.length === 0 ? null : allowedAccounts(c.account, filter.account);
  const symbols = allowed(c.symbol, filter.symbol);
  const contracts = allowed(c.contract, filter.contract);
  const sides = allowed(c.side, filter.side);
  const setups = allowed(c.setup, filter.setup);
  const playbooks = allowed(c.playbook, filter.playbook);
  const sessions = allowed(c.session, filter.session);
  const results = filter.result.length === 0 ? null : Uint8Array.from([0, 1, 2], (code) => (filter.result.includes(RESULT_NAMES[code]! as never) ? 1 : 0));
  const weekdays = filter.weekday.length === 0 ? null : Uint8Array.from({ length: 8 }, (_, d) => (filter.weekday.includes(d) ? 1 : 0));
  const hours = filter.hour.length === 0 ? null : Uint8Array.from({ length: 24 }, (_, h) => (filter.hour.includes(h) ? 1 : 0));
  const entryHours = hours ? getEntryHours(c, timeZone) : null;
  const holds = filter.hold.length === 0 ? null : new Set(filter.hold);
  const tagWanted = filter.tag.length === 0 ? null : filter.tag.map((tag) => c.tagValues.indexOf(tag));
  const sizeMin = filter.sizeMin;
  const sizeMax = filter.sizeMax;

  const rows = new Uint32Array(end - start);
  let n = 0;
  for (let i = start; i < end; i++) {
    if (accounts && !accounts[c.account.codes[i]!]) continue;
    if (symbols && !symbols[c.symbol.codes[i]!]) continue;
    if (contracts && !contracts[c.contract.codes[i]!]) continue;
    if (sides && !sides[c.side.codes[i]!]) continue;
    if (setups && !setups[c.setup.codes[i]!]) continue;
    if (playbooks && !playbooks[c.playbook.codes[i]!]) continue;
    if (sessions && !sessions[c.session.codes[i]!]) continue;
    if (results && !results[c.result[i]!]) continue;
    if (weekdays && !weekdays[c.dayWeekday[c.day[i]!]!]) continue;
    if (entryHours && hours) {
      const hour = entryHours[i]!;
      if (hour < 0 || !hours[hour]) continue;
    }
    if (holds) {
      const seconds = c.hold[i]!;
      if (Number.isNaN(seconds) || !holds.has(getHoldBucket(seconds))) continue;
    }
    if (sizeMin !== null || sizeMax !== null) {
      const q = c.quantity[i]!;
      if (Number.isNaN(q) || (sizeMin !== null && q < sizeMin) || (sizeMax !== null && q > sizeMax)) continue;
    }
    if (tagWanted && !matchesTags(c, i, tagWanted, filter.tagMode)) continue;
    if (byRisk && !byRisk(c.pnl[i]!, i)) continue;
    if (byMistake && !byMistake(i)) continue;
    rows[n++] = i;
  }
  return { columns: c, rows: rows.subarray(0, n) };
}

/** What the R and mistake filters read beyond the trades (issue 27): needed only when the filter has those keys. */
export interface TraderFilterData {
  /** Every trade's planned risk in cents, NaN without (computeRiskColumn, r-multiples.ts). */
  risk?: Float64Array;
  /** The tags the trader marks as mistakes. */
  mistakeTags?: readonly string[];
}

/** Tags compare as the Mistakes report compares them: 'FOMO' and 'fomo' are one. */
export const toMistakeKey = (tag: string) => tag.trim().toLowerCase();

/**
 * The R filter's test of a trade. R is compared exactly, in whole numbers: pnl x 100 >= bound x risk for a bound in
 * hundredths of an R (pnl and risk in cents), as the SQL compares it, so a trade on the bound is never in one and not
 * the other.
 */
function readRiskTest(filter: ReportFilter, risk: Float64Array | undefined): (pnl: number, i: number) => boolean {
  if (!risk) throw new Error('selectTrades: an R filter needs every trade\'s planned risk');
  const min = filter.rMin === null ? null : toHundredthsR(filter.rMin);
  const max = filter.rMax === null ? null : toHundredthsR(filter.rMax);
  const wantRisk = filter.risk === 'without' ? false : filter.risk === 'with' || min !== null || max !== null ? true : null;
  return (pnl, i) => {
    const cents = risk[i]!;
    const has = cents > 0;
    if (wantRisk !== null && has !== wantRisk) return false;
    if (!has) return true;
    if (min !== null && pnl * 100 < min * cents) return false;
    if (max !== null && pnl * 100 > max * cents) return false;
    return true;
  };
}

/** The mistake filter's test of a trade: its tags against the trader's mistakes, or the mistakes named. */
function readMistakeTest(c: TradeColumns, filter: ReportFilter, mistakeTags: readonly string[] | undefined): (i: number) => boolean {
  if (!mistakeTags) throw new Error('selectTrades: a mistake filter needs the trader\'s mistake tags');
  const marked = new Set(mistakeTags.map(toMistakeKey));
  const named = new Set(filter.mistake.map(toMistakeKey));
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
    if (filter.mistakes === 'with' && !anyMistake) return false;
    if (filter.mistakes === 'without' && anyMistake) return false;
    if (named.size > 0 && !anyNamed) return false;
    return true;
  };
}

function allowedAccounts(column: TextColumn, list: readonly string[]): Uint8Array {
  const ok = new Uint8Array(column.values.length);
  column.values.forEach((value, code) => {
    if (list.includes(value ?? UNASSIGNED)) ok[code] = 1;
  });
  return ok;
}

/** `wanted` holds tag codes, -1 for a tag no trade has. */
function matchesTags(c: TradeColumns, i: number, wanted: readonly number[], mode: ReportFilter['tagMode']): boolean {
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
