import { formatCalendarDay, formatDay, type CalendarDay } from './calendar-day';
import { FIRST_YEAR, LAST_YEAR, parseInstant } from './instant';

/**
 * The one clock: every conversion between an instant and a zone's wall clock goes through here (the server, the
 * importers, the reports, the prop rules and the web app alike), so two screens can never disagree about the same
 * moment. Callers pass the zone; nothing here reads the machine's clock or zone. Unknown zones throw a RangeError, so
 * validate a zone with `isValidTimeZone` when it is saved, not when it is used.
 *
 * The arithmetic is Intl's alone, memoised, because an import of 100,000 fills converts 200,000 times and the reports
 * read the hour of 100,000 trades: a Date subclass such as @date-fns/tz's TZDate costs ~25 µs a conversion (and a
 * replaced Date, a test's fake clock, silently loses its methods). A zone's offset changes at most once in a UTC day
 * and only on a quarter hour (every transition of the time-zone database since 1970 does), so a day that starts with
 * the offset the next day starts with has it throughout; only the day of a transition is looked up by the quarter
 * hour. The answers are kept per zone: a journal of six years asks Intl about two thousand times, once.
 */

const QUARTER_HOUR = 900_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** A day whose offset changes within it. */
const MIXED = Number.NaN;

interface ZoneOffsets {
  /** UTC day index -> the offset at the day's first instant. */
  starts: Map<number, number>;
  /** UTC day index -> the offset all day, or MIXED. */
  days: Map<number, number>;
  /** Quarter-hour index -> offset, for the mixed days. */
  quarters: Map<number, number>;
}

const offsetsByZone = new Map<string, ZoneOffsets>();
/** The zone asked last: an import or a report asks about one zone thousands of times in a row. */
let lastZone = '';
let lastOffsets: ZoneOffsets | undefined;
const formatters = new Map<string, Intl.DateTimeFormat>();

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone }).format(0);
    return true;
  } catch {
    return false;
  }
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      // Years before 1 come as '1 BC': with the era, year 0 is not read as year 1.
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Intl's offset at `at` (a whole quarter hour): the zone's wall clock, read back as if it were UTC, minus `at`. */
function computeOffset(at: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  let beforeChrist = false;
  for (const part of formatter(timeZone).formatToParts(at)) {
    if (part.type === 'era') beforeChrist = part.value === 'BC';
    else if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(beforeChrist ? 1 - parts['year']! : parts['year']!, parts['month']! - 1, parts['day']!);
  date.setUTCHours(parts['hour']!, parts['minute']!, parts['second']!);
  return date.getTime() - at;
}

function dayStartOffset(zone: ZoneOffsets, day: number, timeZone: string): number {
  let offset = zone.starts.get(day);
  if (offset === undefined) zone.starts.set(day, (offset = computeOffset(day * DAY, timeZone)));
  return offset;
}

/** Milliseconds to add to a UTC instant to get the wall clock of `timeZone` (local minus UTC). */
export function offsetAt(epochMs: number, timeZone: string): number {
  let zone = timeZone === lastZone ? lastOffsets : offsetsByZone.get(timeZone);
  if (!zone) offsetsByZone.set(timeZone, (zone = { starts: new Map(), days: new Map(), quarters: new Map() }));
  lastZone = timeZone;
  lastOffsets = zone;
  const day = Math.floor(epochMs / DAY);
  let whole = zone.days.get(day);
  if (whole === undefined) {
    // Neighbouring days share their boundary: a run of days costs Intl one look-up a day.
    const first = dayStartOffset(zone, day, timeZone);
    whole = first === dayStartOffset(zone, day + 1, timeZone) ? first : MIXED;
    zone.days.set(day, whole);
  }
  if (!Number.isNaN(whole)) return whole;
  const quarter = Math.floor(epochMs / QUARTER_HOUR);
  let offset = zone.quarters.get(quarter);
  if (offset === undefined) {
    offset = computeOffset(quarter * QUARTER_HOUR, timeZone);
    zone.quarters.set(quarter, offset);
  }
  return offset;
}

/**
 * The instant of a wall-clock time in `timeZone` (wall clock given as if it were UTC milliseconds). In the hour a
 * daylight-saving change skips, the time moves forward by the change (02:30 -> 03:30 daylight time, as @date-fns/tz
 * does); in the hour that repeats, the first occurrence (daylight time) is taken.
 */
export function wallClockToInstant(wallMs: number, timeZone: string): number {
  const before = offsetAt(wallMs - DAY, timeZone);
  const after = offsetAt(wallMs + DAY, timeZone);
  const early = wallMs - before;
  const earlyValid = offsetAt(early, timeZone) === before;
  if (before === after) return early;
  const late = wallMs - after;
  const lateValid = offsetAt(late, timeZone) === after;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (earlyValid) return early;
  if (lateValid) return late;
  return early;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 Sunday .. 6 Saturday. */
  weekday: number;
}

/** Wall-clock fields of an instant in `timeZone`. */
export function wallClockOf(epochMs: number, timeZone: string): WallClock {
  const local = new Date(epochMs + offsetAt(epochMs, timeZone));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    weekday: local.getUTCDay(),
  };
}

/** The hour 0-23 on the clock of `timeZone` at `epochMs`, without building the wall clock (the reports ask per trade). */
export function getHourOfInstant(epochMs: number, timeZone: string): number {
  const local = epochMs + offsetAt(epochMs, timeZone);
  return ((Math.floor(local / HOUR) % 24) + 24) % 24;
}

/** The minute of the day 0-1439 on the clock of `timeZone` at `epochMs`, without building the wall clock. */
export function getMinuteOfDay(epochMs: number, timeZone: string): number {
  const local = epochMs + offsetAt(epochMs, timeZone);
  return ((Math.floor(local / 60_000) % 1440) + 1440) % 1440;
}

/** An instant as the callers hold it: a Date, epoch milliseconds, or an ISO timestamp with an offset or Z. */
export type InstantInput = Date | string | number;

/**
 * Milliseconds since 1970 of an instant, or NaN for a timestamp without an offset or anything else. Strictly:
 * Date.parse reads 2026-02-30 as March 2 and year 0, which no trading day is.
 */
function toEpochMs(instant: InstantInput): number {
  if (typeof instant === 'number') return instant;
  if (typeof instant !== 'string') return instant.getTime();
  return parseInstant(instant) ?? Number.NaN;
}

function toZoned(instant: InstantInput, timeZone: string): WallClock | null {
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
export function getTradingDayInZone(instant: InstantInput, timeZone: string): CalendarDay | null {
  const zoned = toZoned(instant, timeZone);
  if (!zoned) return null;
  return formatCalendarDay(zoned.year, zoned.month, zoned.day);
}

/** Hour of day 0..23 of an instant in `timeZone` (the session rule reads it). */
export function getHourInZone(instant: InstantInput, timeZone: string): number | null {
  const zoned = toZoned(instant, timeZone);
  return zoned ? zoned.hour : null;
}

/** Today's calendar day for the user: pass the request's `now` and the user's zone. */
export function getTodayInZone(now: Date, timeZone: string): CalendarDay {
  const day = getTradingDayInZone(now, timeZone);
  if (!day) throw new RangeError('now is not a valid Date');
  return day;
}

const INSTANT_TOKENS = /EEEE|EEE|MMMM|MMM|MM|dd|d|yyyy|HH|h|mm|ss|a/g;
const two = (n: number) => String(n).padStart(2, '0');
/** date-fns's PPpp in English, the spec's long date and time: 'Mar 9, 2026, 2:05:09 PM'. */
const LONG_DATE_TIME = 'MMM d, yyyy, h:mm:ss a';

/**
 * An instant as the trader's clock shows it, read in `timeZone` rather than the machine's zone. `pattern` takes
 * date-fns tokens: formatDay's (EEEE, EEE, MMMM, MMM, MM, dd, d, yyyy), HH (24-hour), h and a (12-hour, AM/PM), mm,
 * ss, and PPpp; anything else is kept as written. Null for anything not an instant.
 */
export function formatInZone(instant: InstantInput, timeZone: string, pattern: string): string | null {
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

const nameFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The zone's short name at that instant as a trader reads it beside a time: EST or EDT, GMT, GMT+9. The one rule for
 * zone names: always from the instant the time shows (a June time in New York is EDT, a January one EST), never from
 * today.
 */
export function getZoneAbbreviation(instant: InstantInput, timeZone: string): string | null {
  const ms = toEpochMs(instant);
  if (!Number.isFinite(ms)) return null;
  let names = nameFormatters.get(timeZone);
  if (!names) nameFormatters.set(timeZone, (names = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })));
  return names.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? null;
}

/**
 * The zone's offset from UTC at that instant, as 'GMT-05:00' ('GMT+00:00' for UTC itself, 'GMT+05:45' for Nepal): how
 * a list of zones names each one, by the same offsets every conversion here uses. Null for anything not an instant.
 */
export function getZoneOffsetName(instant: InstantInput, timeZone: string): string | null {
  const ms = toEpochMs(instant);
  if (!Number.isFinite(ms)) return null;
  const offset = offsetAt(ms, timeZone);
  const seconds = Math.round(Math.abs(offset) / 1000);
  const hhmm = `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}`;
  return `GMT${offset < 0 ? '-' : '+'}${hhmm}${seconds % 60 === 0 ? '' : `:${two(seconds % 60)}`}`;
}

/** yyyy-MM-dd HH:mm:ss on the trader's clock: how the fills editor shows and reads a time. */
export function toWallClockText(epochMs: number, timeZone: string): string {
  const p = wallClockOf(epochMs, timeZone);
  return `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

/** The instant of a yyyy-MM-dd HH:mm[:ss] typed on the trader's clock; null when it is not one. */
export function fromWallClockText(text: string, timeZone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return wallClockToInstant(wall, timeZone);
}
