import { formatCalendarDay, formatDay, parseCalendarDay, type CalendarDay } from './calendar-day';
import { FIRST_YEAR, LAST_YEAR, parseInstant } from './instant';
import { wallClockOf } from './wall-clock';

/**
 * Instants become trading days only through the user's IANA zone (DESIGN: default America/New_York). Callers pass
 * `now` and `timeZone`; nothing here reads the clock. Unknown zones throw a RangeError, so validate a zone with
 * `isValidTimeZone` when it is saved, not when it is used. The arithmetic is Intl's alone (wall-clock.ts): no Date
 * subclass, whose methods a replaced Date (a test's fake clock) silently loses.
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

/**
 * Milliseconds since 1970 of an instant, or NaN for a timestamp without an offset or anything else. Strictly:
 * Date.parse reads 2026-02-30 as March 2 and year 0, which no trading day is.
 */
function toEpochMs(instant: Date | string): number {
  if (typeof instant !== 'string') return instant.getTime();
  return parseInstant(instant) ?? Number.NaN;
}

function toZoned(instant: Date | string, timeZone: string): ReturnType<typeof wallClockOf> | null {
  const ms = toEpochMs(instant);
  if (!Number.isFinite(ms)) return null;
  const zoned = wallClockOf(ms, timeZone);
  // A day is written with four digits: an instant of year 1 in UTC can still be year 0 in the zone.
  return zoned.year < FIRST_YEAR || zoned.year > LAST_YEAR ? null : zoned;
}

/**
 * The calendar day an instant falls on in `timeZone`. Timestamps must carry an offset (a timestamp without one
 * would be read in the machine's zone by JavaScript); returns null for anything else.
 */
export function getTradingDayInZone(instant: Date | string, timeZone: string): CalendarDay | null {
  const zoned = toZoned(instant, timeZone);
  if (!zoned) return null;
  return formatCalendarDay(zoned.year, zoned.month, zoned.day);
}

/** Hour of day 0..23 of an instant in `timeZone`, for the session rule (spec part 1 §9). */
export function getHourInZone(instant: Date | string, timeZone: string): number | null {
  const zoned = toZoned(instant, timeZone);
  return zoned ? zoned.hour : null;
}

const INSTANT_TOKENS = /EEEE|EEE|MMMM|MMM|MM|dd|d|yyyy|HH|h|mm|ss|a/g;
const two = (n: number) => String(n).padStart(2, '0');
/** date-fns's PPpp in English (spec part 2 §9 lists it): 'Mar 9, 2026, 2:05:09 PM'. */
const LONG_DATE_TIME = 'MMM d, yyyy, h:mm:ss a';

/**
 * An instant as the trader's clock shows it (issue 24, point 3: one clock), read in `timeZone` rather than the
 * machine's zone. `pattern` takes date-fns tokens: formatDay's (EEEE, EEE, MMMM, MMM, MM, dd, d, yyyy), HH (24-hour),
 * h and a (12-hour, AM/PM), mm, ss, and PPpp; anything else is kept as written. Null for anything not an instant.
 */
export function formatInZone(instant: Date | string, timeZone: string, pattern: string): string | null {
  const zoned = toZoned(instant, timeZone);
  if (!zoned) return null;
  const day = formatCalendarDay(zoned.year, zoned.month, zoned.day);
  return pattern.replaceAll('PPpp', LONG_DATE_TIME).replace(INSTANT_TOKENS, (token) => {
    switch (token) {
      case 'HH':
        return two(zoned.hour);
      case 'h':
        return String(zoned.hour % 12 === 0 ? 12 : zoned.hour % 12);
      case 'a':
        return zoned.hour < 12 ? 'AM' : 'PM';
      case 'mm':
        return two(zoned.minute);
      case 'ss':
        return two(zoned.second);
      default:
        return formatDay(day, token);
    }
  });
}

/** The zone's short name at that instant as a trader reads it beside a time: EST or EDT, GMT, GMT+9. */
export function getZoneAbbreviation(instant: Date | string, timeZone: string): string | null {
  const ms = toEpochMs(instant);
  if (!Number.isFinite(ms)) return null;
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(ms);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? null;
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
