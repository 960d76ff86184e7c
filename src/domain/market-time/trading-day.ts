import { offsetAt, wallClockOf } from '../dates/clock';
import { MARKET_TIME_ZONE } from './market-zone';
import { sessionOf, type Session } from './sessions';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export interface MarketDay {
  /** yyyy-MM-dd */
  tradingDay: string;
  dayOfWeek: string;
  /** The trading day at 12:00 UTC, as trade dates are stored. */
  tradeDate: string;
  session: Session;
}

/**
 * Which day a trade belongs to. 'exchange': the exchange's trading day, as brokers' statements and prop firms' daily
 * loss limits count it: CME Globex opens the next day's session at 18:00 New York time (Sunday evening opens Monday's,
 * and the Friday-evening hour after the close belongs to Monday as well), so an entry at or after 18:00 is filed under
 * the next weekday. 'calendar': the calendar day of the entry in the market zone. The rule only moves futures: stocks
 * and spot crypto have no evening session, so they keep the calendar day.
 */
export type TradingDayRule = 'exchange' | 'calendar';
export const TRADING_DAY_RULES: readonly TradingDayRule[] = ['exchange', 'calendar'];
export const DEFAULT_TRADING_DAY_RULE: TradingDayRule = 'exchange';

/** New York hour at which CME Globex opens the next trading day's session. */
export const SESSION_OPEN_HOUR = 18;

export interface MarketDayOptions {
  marketTimeZone?: string;
  rule?: TradingDayRule;
  /** Whether the instrument is a futures contract (only futures follow the exchange's trading day and sessions). */
  futures?: boolean;
}

/**
 * Trading day, day of week, trade date and session of an instant. The session is that of the wall-clock time in the
 * market zone (`sessionOf`); the day follows `rule` (calendar by default here: callers that file trades pass the
 * trader's rule).
 */
export function marketDayOf(epochMs: number, options: MarketDayOptions = {}): MarketDay {
  const { marketTimeZone = MARKET_TIME_ZONE, rule = 'calendar', futures = true } = options;
  // Day and session are the same for every instant of one wall-clock half hour (every session starts on the hour or
  // the half hour): an import of 36,000 trades asks for a few thousand distinct half hours.
  const variant = `${marketTimeZone}|${rule}|${futures ? 1 : 0}`;
  let cache = dayCache.get(variant);
  if (!cache) dayCache.set(variant, (cache = new Map()));
  const slot = Math.floor((epochMs + offsetAt(epochMs, marketTimeZone)) / HALF_HOUR_MS);
  const known = cache.get(slot);
  if (known) return known;
  const day = computeMarketDay(epochMs, marketTimeZone, rule, futures);
  if (cache.size >= 100_000) cache.clear();
  cache.set(slot, day);
  return day;
}

const HALF_HOUR_MS = 1_800_000;
const DAY_MS = 86_400_000;
const dayCache = new Map<string, Map<number, MarketDay>>();

function computeMarketDay(epochMs: number, marketTimeZone: string, rule: TradingDayRule, futures: boolean): MarketDay {
  const local = wallClockOf(epochMs, marketTimeZone);
  let noon = Date.UTC(local.year, local.month - 1, local.day, 12);
  if (rule === 'exchange' && futures && local.hour >= SESSION_OPEN_HOUR) {
    noon += DAY_MS;
    const weekday = new Date(noon).getUTCDay();
    if (weekday === 6) noon += 2 * DAY_MS;
    else if (weekday === 0) noon += DAY_MS;
  }
  const date = new Date(noon);
  const tradingDay = `${String(date.getUTCFullYear()).padStart(4, '0')}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return { tradingDay, dayOfWeek: WEEKDAYS[date.getUTCDay()]!, tradeDate: date.toISOString(), session: sessionOf(local.hour, local.minute, futures) };
}

/** For trades that carry a day but no time (generic P&L): day of week and trade date of a yyyy-MM-dd day. */
export function dayFromString(tradingDay: string): Omit<MarketDay, 'session'> | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(tradingDay);
  if (!match) return null;
  const noon = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12);
  const date = new Date(noon);
  return { tradingDay, dayOfWeek: WEEKDAYS[date.getUTCDay()]!, tradeDate: date.toISOString() };
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
