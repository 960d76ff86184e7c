import type { CalendarDay } from '../dates/calendar-day';
import { marketOf } from '../instruments/figures';
import {
  hasMistakeFilter,
  hasNewsFilter,
  hasRiskFilter,
  HOLD_BUCKETS,
  toHundredthsR,
  UNASSIGNED,
  type ReportFilter,
  type ResolvedRange,
  type TagMode,
  type TradeResult,
} from './filter';

/**
 * The filter model as clauses: the one definition of which trades a filter means. The engine applies them to its
 * columns (selectTrades, report-trade.ts); where SQL must stay (the Trade Log's pages at any depth) the server writes
 * each clause in SQL (core/engine/repo.ts), clause by clause. A key of the filter is a clause here or nowhere, and
 * both sides switch over every kind, so a new kind fails to compile until both apply it. A differential test runs
 * random trades and filters through both and requires the same trades.
 *
 * An empty list of a key is no clause (anything goes); values within a clause are OR-ed; clauses are AND-ed.
 */

/** A trade's text fields a clause compares exactly (a trade without the field matches none of them). */
export type TextField = 'symbol' | 'contract' | 'side' | 'setup' | 'playbook' | 'session';

export type FilterClause =
  /** Trading days, inclusive; null is open. */
  | { kind: 'days'; from: CalendarDay | null; to: CalendarDay | null }
  /** The trade's account among `ids`, or (with `unassigned`) no account. */
  | { kind: 'account'; ids: readonly string[]; unassigned: boolean }
  | { kind: 'text'; field: TextField; values: readonly string[] }
  /** The trade's symbol of one of these markets (instruments/marketOf: MNQ is NQ's market). */
  | { kind: 'market'; markets: readonly string[] }
  | { kind: 'result'; values: readonly TradeResult[] }
  /** ISO weekday (Monday 1) of the trading day. */
  | { kind: 'weekday'; values: readonly number[] }
  /** Hour of the entry on the trader's clock; a trade without an entry time matches none. */
  | { kind: 'entry-hour'; values: readonly number[] }
  /** Whole seconds from entry to exit in one of the ranges [from, to) (to null: open); trades without both times, or with an exit before the entry, match none. */
  | { kind: 'hold'; ranges: ReadonlyArray<{ from: number; to: number | null }> }
  /** Quantity within the bounds, inclusive; a trade without a quantity matches none. */
  | { kind: 'size'; min: number | null; max: number | null }
  | { kind: 'tags'; values: readonly string[]; mode: TagMode }
  /**
   * The planned risk (its own plan, else the trader's defaults): with one or without (`want`), and the R-multiple within
   * bounds in hundredths of an R, compared exactly in whole numbers (pnl x 10,000 >= bound x risk in cents); a bound
   * leaves out trades without a planned risk.
   */
  | { kind: 'planned-risk'; want: boolean | null; min: number | null; max: number | null }
  /** Tags the trader marks as mistakes: with or without any (`mode`), and any of the `named` ones (compared in lower case). */
  | { kind: 'mistakes'; mode: 'with' | 'without' | null; named: readonly string[] }
  /**
   * The entry within `windowMs` (both ends included) of a stored high-impact USD event (`near`), or farther than that
   * from every one (not `near`); a trade without an entry time matches neither.
   */
  | { kind: 'news'; windowMs: number; near: boolean };

export type FilterClauseKind = FilterClause['kind'];

const TEXT_KEYS = ['symbol', 'contract', 'side', 'setup', 'playbook', 'session'] as const satisfies readonly TextField[];

/** The clauses of a filter over a resolved range of days. */
export function toFilterClauses(filter: ReportFilter, range: ResolvedRange): FilterClause[] {
  const clauses: FilterClause[] = [];
  if (range.from !== null || range.to !== null) clauses.push({ kind: 'days', from: range.from, to: range.to });
  if (filter.account.length > 0) {
    clauses.push({ kind: 'account', ids: filter.account.filter((a) => a !== UNASSIGNED), unassigned: filter.account.includes(UNASSIGNED) });
  }
  for (const field of TEXT_KEYS) {
    if (filter[field].length === 0) continue;
    // Grouped, an instrument is its market: NQ takes MNQ's trades too, and MNQ NQ's.
    if (field === 'symbol' && filter.markets === 'grouped') clauses.push({ kind: 'market', markets: [...new Set(filter.symbol.map(marketOf))] });
    else clauses.push({ kind: 'text', field, values: filter[field] });
  }
  if (filter.result.length > 0) clauses.push({ kind: 'result', values: filter.result });
  if (filter.weekday.length > 0) clauses.push({ kind: 'weekday', values: filter.weekday });
  if (filter.hour.length > 0) clauses.push({ kind: 'entry-hour', values: filter.hour });
  if (filter.hold.length > 0) {
    clauses.push({
      kind: 'hold',
      ranges: HOLD_BUCKETS.filter((b) => filter.hold.includes(b.id)).map((b) => ({ from: b.fromSeconds, to: b.toSeconds })),
    });
  }
  if (filter.sizeMin !== null || filter.sizeMax !== null) clauses.push({ kind: 'size', min: filter.sizeMin, max: filter.sizeMax });
  if (filter.tag.length > 0) clauses.push({ kind: 'tags', values: filter.tag, mode: filter.tagMode });
  if (hasRiskFilter(filter)) {
    const min = filter.rMin === null ? null : toHundredthsR(filter.rMin);
    const max = filter.rMax === null ? null : toHundredthsR(filter.rMax);
    const want = filter.risk === 'without' ? false : filter.risk === 'with' || min !== null || max !== null ? true : null;
    clauses.push({ kind: 'planned-risk', want, min, max });
  }
  if (hasMistakeFilter(filter)) clauses.push({ kind: 'mistakes', mode: filter.mistakes, named: filter.mistake });
  if (hasNewsFilter(filter)) clauses.push({ kind: 'news', windowMs: filter.news! * 60_000, near: filter.newsMode === 'near' });
  return clauses;
}

/** Whether whole seconds of hold fall in one of the clause's ranges. */
export function holdMatches(ranges: ReadonlyArray<{ from: number; to: number | null }>, seconds: number): boolean {
  for (const range of ranges) if (seconds >= range.from && (range.to === null || seconds < range.to)) return true;
  return false;
}
