import { parseCalendarDay } from './calendar-day';

/**
 * Instants a client sends (page cursors, a backup's times, an AI tool's arguments) are read here before any of them
 * reaches the database. JavaScript's Date.parse is too lenient for that: it takes '2026', '1', '2026-02-30' (as
 * March 2) and year 0, and writes year 0 and years past 9999 in forms PostgreSQL refuses, so each of them was a
 * database error (a 500) instead of a 400.
 */

/** ISO 8601 (T) or PostgreSQL's text form (space), seconds and fraction optional, zone required: Z, ±HH, ±HHMM or ±HH:MM. */
const INSTANT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)$/i;

/** Years both PostgreSQL and ISO 8601 write with four digits; year 0 is not one PostgreSQL reads. */
export const FIRST_YEAR = 1;
export const LAST_YEAR = 9999;

/**
 * Milliseconds since the epoch of an instant written with its zone, or null when it is not one: an impossible day or
 * time, an offset beyond ±15:59 (PostgreSQL's limit; real zones are within ±14:00), or a moment outside years
 * 1-9999 in UTC.
 */
export function parseInstant(input: unknown): number | null {
  if (typeof input !== 'string') return null;
  const match = INSTANT.exec(input.trim());
  if (!match) return null;
  const [, dayText, hh, mm, ss = '0', fraction = '', z, sign, offH = '0', offM = '0'] = match;
  const day = parseCalendarDay(dayText);
  if (!day || day.year < FIRST_YEAR) return null;
  const [hour, minute, second] = [Number(hh), Number(mm), Number(ss)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (Number(offH) > 15 || Number(offM) > 59) return null;
  const offsetMinutes = z ? 0 : (sign === '-' ? -1 : 1) * (Number(offH) * 60 + Number(offM));
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  date.setUTCFullYear(day.year, day.month - 1, day.day);
  date.setUTCHours(hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const ms = date.getTime() - offsetMinutes * 60_000;
  const year = new Date(ms).getUTCFullYear();
  return year >= FIRST_YEAR && year <= LAST_YEAR ? ms : null;
}

export const isInstant = (input: unknown): input is string => parseInstant(input) !== null;
