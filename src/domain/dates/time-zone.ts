import { TZDate } from '@date-fns/tz';
import { formatCalendarDay, parseCalendarDay, type CalendarDay } from './calendar-day';
import { FIRST_YEAR, LAST_YEAR, parseInstant } from './instant';

/**
 * Instants become trading days only through the user's IANA zone (DESIGN: default America/New_York). Callers pass
 * `now` and `timeZone`; nothing here reads the clock. Unknown zones throw a RangeError, so validate a zone with
 * `isValidTimeZone` when it is saved, not when it is used.
 */

/** An ISO timestamp with an explicit offset or Z, e.g. 2026-03-09T14:35:00-04:00. */
const ZONED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
/** A wall-clock timestamp with no offset, e.g. '2026-03-09 09:35:00' from a broker export. */
const NAIVE_TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
/** The stored trade_date marker: the trading day at 12:00 UTC (spec part 2 §3, §9). */
const NOON_UTC_MARKER = /^(\d{4}-\d{2}-\d{2})T12:00(:00(\.0+)?)?(Z|\+00:?00)$/i;

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function toZoned(instant: Date | string, timeZone: string): TZDate | null {
  let ms: number;
  if (typeof instant === 'string') {
    // Strictly: Date.parse reads 2026-02-30 as March 2 and year 0, which no trading day is.
    ms = parseInstant(instant) ?? Number.NaN;
  } else {
    ms = instant.getTime();
  }
  if (!Number.isFinite(ms)) return null;
  return new TZDate(ms, timeZone);
}

/**
 * The calendar day an instant falls on in `timeZone`. Timestamps must carry an offset (a timestamp without one
 * would be read in the machine's zone by JavaScript); returns null for anything else.
 */
export function getTradingDayInZone(instant: Date | string, timeZone: string): CalendarDay | null {
  const zoned = toZoned(instant, timeZone);
  if (!zoned) return null;
  const year = zoned.getFullYear();
  // A day is written with four digits: an instant of year 1 in UTC can still be year 0 in the zone.
  if (year < FIRST_YEAR || year > LAST_YEAR) return null;
  return formatCalendarDay(year, zoned.getMonth() + 1, zoned.getDate());
}

/** Hour of day 0..23 of an instant in `timeZone`, for the session rule (spec part 1 §9). */
export function getHourInZone(instant: Date | string, timeZone: string): number | null {
  const zoned = toZoned(instant, timeZone);
  return zoned ? zoned.getHours() : null;
}

/** Today's calendar day for the user: pass the request's `now` and the user's zone. */
export function getTodayInZone(now: Date, timeZone: string): CalendarDay {
  const day = getTradingDayInZone(now, timeZone);
  if (!day) throw new RangeError('now is not a valid Date');
  return day;
}

/**
 * Spec part 2 §3, §9: trade_date is stored as the trading day at 12:00 UTC. Noon UTC is the same calendar day in
 * every zone from UTC-11 to UTC+11, which is why the day survives a round trip through any browser.
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
