import { parseCalendarDay, type CalendarDay } from './calendar-day';
import { getTradingDayInZone } from './clock';

/** A trade's stored date and the day of any date-ish input, through the clock (clock.ts) when it is an instant. */

/** An ISO timestamp with an explicit offset or Z, e.g. 2026-03-09T14:35:00-04:00. */
const ZONED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
/** A wall-clock timestamp with no offset, e.g. '2026-03-09 09:35:00' from a broker export. */
const NAIVE_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
/** The stored trade_date marker: the trading day at 12:00 UTC. */
const NOON_UTC_MARKER = /^(\d{4}-\d{2}-\d{2})T12:00(:00(\.0+)?)?(Z|\+00:?00)$/i;

/**
 * trade_date is stored as the trading day at 12:00 UTC. Noon UTC is the same calendar day in every zone from UTC-11 to
 * UTC+11, which is why the day survives a round trip through any browser.
 */
export function toTradeDateTimestamp(day: CalendarDay): string {
  if (!parseCalendarDay(day)) throw new RangeError(`Not a calendar day (yyyy-MM-dd): ${String(day)}`);
  return `${day}T12:00:00.000Z`;
}

/**
 * The trading day of any date-ish input:
 * - 'yyyy-MM-dd' is already a day;
 * - the stored 12:00 UTC marker gives its date part (never shifted by zone);
 * - a timestamp with an offset is converted to a day in `timeZone`;
 * - a wall-clock timestamp without an offset keeps its own date part;
 * - a Date is an instant, converted in `timeZone`.
 * Anything else is null.
 */
export function resolveTradeDay(input: unknown, timeZone: string): CalendarDay | null {
  if (input instanceof Date) return getTradingDayInZone(input, timeZone);
  if (typeof input !== 'string') return null;
  const text = input.trim();
  if (parseCalendarDay(text)) return text;
  const marker = NOON_UTC_MARKER.exec(text);
  if (marker) return parseCalendarDay(marker[1]) ? (marker[1] as CalendarDay) : null;
  if (ZONED_TIMESTAMP.test(text)) return getTradingDayInZone(text, timeZone);
  const naive = NAIVE_TIMESTAMP.exec(text);
  if (naive) return parseCalendarDay(naive[1]) ? (naive[1] as CalendarDay) : null;
  return null;
}

/** The day of a stored trade_date (12:00 UTC marker, or any timestamp read in UTC). */
export function getDayFromTradeDate(tradeDate: string): CalendarDay | null {
  return resolveTradeDay(tradeDate, 'UTC');
}
