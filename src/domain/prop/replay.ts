import type { Cents } from '../cents';
import { isFuturesInstrument } from '../instruments';
import { marketDayOf, MARKET_TIME_ZONE, SESSION_OPEN_HOUR, type TradingDayRule } from '../market-time';
import { wallClockToInstant } from '../dates/clock';
import type { PropTrade } from './types';

/**
 * The shared replay every prop rule reads: an account's closed trades in the order their P&L was realized, each on
 * the trading day of its exit, with the balance and the day's running net after it.
 *
 * Rules about realized P&L cannot use the trading order (day of entry, then entry time): a trade entered at 10:14:05
 * and closed at 10:15:45 realized its loss after one entered later that closed at 10:15:20, and a trade entered
 * Thursday 16:02 and closed 18:06 New York realized its P&L in Friday's session, which CME Globex opens at 18:00.
 *
 * Realized order: the exit, else the entry, else the creation (a manual trade has no times); then the entry, the
 * creation and the id. A trade without an exit time realizes on the day it is filed under.
 */

export interface ReplayOptions {
  /** How trading days are counted: the exchange's (18:00 New York opens the next day) or the calendar's. */
  tradingDay: TradingDayRule;
  marketTimeZone?: string;
}

export interface ReplayStep {
  trade: PropTrade;
  /** Its place in the replay, from 0. */
  index: number;
  /** The trading day its P&L was realized on. */
  day: string;
  /** When it was realized: its exit, else its entry; null without times. */
  at: string | null;
  /** `at` in ms since 1970, else null. */
  atMs: number | null;
  balanceCents: Cents;
  /** The day's net after it. */
  dayNetCents: Cents;
}

export interface ReplayDay {
  day: string;
  /** Its steps: replay.steps[first] up to (not including) replay.steps[end]. */
  first: number;
  end: number;
  openCents: Cents;
  closeCents: Cents;
  netCents: Cents;
  /** The day's worst realized point: the lowest running net, 0 when it never went below its open. */
  lowNetCents: Cents;
  /** The day's lowest balance after a realized trade, or its open when none went lower. */
  lowBalanceCents: Cents;
  /** Whether the day has closed: every day before the trader's current trading day. */
  closed: boolean;
}

export interface Replay {
  startCents: Cents;
  today: string;
  steps: ReplayStep[];
  days: ReplayDay[];
  /** Where each day sits in `days`. */
  dayIndex: ReadonlyMap<string, number>;
}

const futuresBySymbol = new Map<string, boolean>();
function isFutures(symbol: string | null): boolean {
  // Without a symbol the trade is read as a future: the exchange's day is the journal's default.
  if (!symbol) return true;
  let known = futuresBySymbol.get(symbol);
  if (known === undefined) {
    known = isFuturesInstrument(symbol);
    if (futuresBySymbol.size >= 10_000) futuresBySymbol.clear();
    futuresBySymbol.set(symbol, known);
  }
  return known;
}

const msOf = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
};

/** Creation times repeat (an import writes its trades at one instant): each is read once. */
function creationReader() {
  const seen = new Map<string, number | null>();
  return (iso: string | null | undefined) => {
    if (!iso) return null;
    let ms = seen.get(iso);
    if (ms === undefined) seen.set(iso, (ms = msOf(iso)));
    return ms;
  };
}

/** The trading day of an instant by the trader's rule (futures only move to the next day at the evening reopen). */
export function tradingDayOfInstant(ms: number, symbol: string | null, options: ReplayOptions): string {
  return marketDayOf(ms, { rule: options.tradingDay, marketTimeZone: options.marketTimeZone ?? MARKET_TIME_ZONE, futures: isFutures(symbol) })
    .tradingDay;
}

const DAY_MS = 86_400_000;
const dayEnds = new Map<string, number>();

/**
 * When a trading day ends: 18:00 in the market zone on its date for futures by the exchange's rule (the reopen starts
 * the next one), else the next midnight there. Remembered per day: an account's trades share a few hundred days, and
 * the zone arithmetic of every exit was most of the replay's time (100,000 trades: ~150 ms of 300).
 */
function dayEndOf(day: string, futures: boolean, options: ReplayOptions): number {
  const exchange = options.tradingDay === 'exchange' && futures;
  const zone = options.marketTimeZone ?? MARKET_TIME_ZONE;
  const key = `${day}|${exchange ? 1 : 0}|${zone}`;
  let end = dayEnds.get(key);
  if (end === undefined) {
    const midnight = Date.parse(`${day}T00:00:00Z`);
    end = wallClockToInstant(exchange ? midnight + SESSION_OPEN_HOUR * 3_600_000 : midnight + DAY_MS, zone);
    if (dayEnds.size >= 50_000) dayEnds.clear();
    dayEnds.set(key, end);
  }
  return end;
}

/**
 * The trading day a trade's P&L was realized on: its exit's, never before the day it is filed under (a manual
 * trade keeps the day typed; an exit can only come after it). An exit before its filed day's end is that day's
 * without more arithmetic.
 */
export function realizedDayOf(trade: PropTrade, options: ReplayOptions, exitMs: number | null = msOf(trade.exitAt)): string {
  if (exitMs === null) return trade.day;
  const futures = isFutures(trade.symbol);
  if (exitMs < dayEndOf(trade.day, futures, options)) return trade.day;
  const day = tradingDayOfInstant(exitMs, trade.symbol, options);
  return day > trade.day ? day : trade.day;
}

/**
 * The trading day of instants read in time order (a position's fills): the day found last is kept while the instants
 * stay before its end.
 */
export function dayClock(options: ReplayOptions): (ms: number, symbol: string | null) => string {
  const last = new Map<boolean, { day: string; end: number; from: number }>();
  return (ms, symbol) => {
    const futures = isFutures(symbol);
    const known = last.get(futures);
    if (known && ms >= known.from && ms < known.end) return known.day;
    const day = tradingDayOfInstant(ms, symbol, options);
    last.set(futures, { day, end: dayEndOf(day, futures, options), from: ms });
    return day;
  };
}

interface Keyed {
  trade: PropTrade;
  position: number;
  day: string;
  realizedMs: number | null;
  entryMs: number | null;
  createdMs: number | null;
}

function compareKeyed(a: Keyed, b: Keyed): number {
  if (a.day !== b.day) return a.day < b.day ? -1 : 1;
  const both = (x: number | null, y: number | null) => (x === null || y === null ? 0 : x - y);
  const byTime = both(a.realizedMs, b.realizedMs) || both(a.entryMs, b.entryMs) || both(a.createdMs, b.createdMs);
  if (byTime !== 0) return byTime;
  // Ids break ties only between trades that carry their creation (stored trades); others keep the order given.
  if (a.createdMs !== null && b.createdMs !== null) {
    const idA = a.trade.id.toLowerCase();
    const idB = b.trade.id.toLowerCase();
    if (idA !== idB) return idA < idB ? -1 : 1;
  }
  return a.position - b.position;
}

/** The trades in realized order, each with the day and moment its P&L was realized. */
export function sortByRealizedOrder(
  trades: readonly PropTrade[],
  options: ReplayOptions,
): Array<{ trade: PropTrade; day: string; at: string | null; atMs: number | null }> {
  const createdOf = creationReader();
  const keyed: Keyed[] = trades.map((trade, position) => {
    const created = createdOf(trade.createdAt);
    const exit = msOf(trade.exitAt);
    const entry = msOf(trade.entryAt);
    return {
      trade,
      position,
      day: realizedDayOf(trade, options, exit),
      realizedMs: exit ?? entry ?? created,
      entryMs: entry ?? exit ?? created,
      createdMs: created,
    };
  });
  // Trades come in the trading order, mostly the realized one already: the sort has little to do.
  keyed.sort(compareKeyed);
  return keyed.map((k) => {
    const exit = k.trade.exitAt !== null ? k.realizedMs : null;
    return { trade: k.trade, day: k.day, at: k.trade.exitAt ?? k.trade.entryAt, atMs: exit ?? (k.trade.entryAt !== null ? k.entryMs : null) };
  });
}

/** The replay of an account from its starting balance: see the file's comment. */
export function buildReplay(input: { trades: readonly PropTrade[]; startingBalanceCents: Cents; today: string; options: ReplayOptions }): Replay {
  const { startingBalanceCents: start, today } = input;
  const steps: ReplayStep[] = [];
  const days: ReplayDay[] = [];
  const dayIndex = new Map<string, number>();
  let balance = start;
  let current: ReplayDay | null = null;
  for (const { trade, day, at, atMs } of sortByRealizedOrder(input.trades, input.options)) {
    if (current === null || current.day !== day) {
      if (current) current.end = steps.length;
      current = {
        day,
        first: steps.length,
        end: steps.length,
        openCents: balance,
        closeCents: balance,
        netCents: 0,
        lowNetCents: 0,
        lowBalanceCents: balance,
        closed: day !== today,
      };
      dayIndex.set(day, days.length);
      days.push(current);
    }
    balance += trade.netCents;
    current.netCents += trade.netCents;
    current.closeCents = balance;
    if (current.netCents < current.lowNetCents) current.lowNetCents = current.netCents;
    if (balance < current.lowBalanceCents) current.lowBalanceCents = balance;
    steps.push({ trade, index: steps.length, day, at, atMs, balanceCents: balance, dayNetCents: current.netCents });
  }
  if (current) current.end = steps.length;
  return { startCents: start, today, steps, days, dayIndex };
}
