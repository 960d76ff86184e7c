/**
 * A trading day is a plain calendar date, 'yyyy-MM-dd', with no time and no zone. All arithmetic here runs on
 * UTC midnights so the result never depends on the machine's time zone (a browser in Tokyo and a server in UTC
 * must agree on which weekday 2026-03-09 is).
 */
export type CalendarDay = string;

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type DayName = (typeof DAY_NAMES)[number];

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const MONTH_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

export interface DayParts {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
}

/** 'yyyy-MM-dd' into its parts; null for anything else, including impossible dates such as 2026-02-30. */
export function parseCalendarDay(input: unknown): DayParts | null {
  if (typeof input !== 'string') return null;
  const match = DAY_PATTERN.exec(input);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > getDaysInMonth(year, month)) return null;
  return { year, month, day };
}

export function isCalendarDay(input: unknown): input is CalendarDay {
  return parseCalendarDay(input) !== null;
}

export function formatCalendarDay(year: number, month: number, day: number): CalendarDay {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function getDaysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function requireDay(day: CalendarDay): DayParts {
  const parts = parseCalendarDay(day);
  if (!parts) throw new RangeError(`Not a calendar day (yyyy-MM-dd): ${String(day)}`);
  return parts;
}

function toUtcMs(day: CalendarDay): number {
  const { year, month, day: d } = requireDay(day);
  return Date.UTC(year, month - 1, d);
}

function fromUtcMs(ms: number): CalendarDay {
  const date = new Date(ms);
  return formatCalendarDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

export function addDays(day: CalendarDay, amount: number): CalendarDay {
  return fromUtcMs(toUtcMs(day) + amount * MS_PER_DAY);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function differenceInDays(to: CalendarDay, from: CalendarDay): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / MS_PER_DAY);
}

/** Same day of month `amount` months later (or earlier), clamped to the month's end: 2026-03-31 - 1 month = 2026-02-28. */
export function addMonths(day: CalendarDay, amount: number): CalendarDay {
  const { year, month, day: d } = requireDay(day);
  const index = year * 12 + (month - 1) + amount;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return formatCalendarDay(targetYear, targetMonth, Math.min(d, getDaysInMonth(targetYear, targetMonth)));
}

/** 0 = Sunday .. 6 = Saturday. */
export function getWeekdayIndex(day: CalendarDay): number {
  return new Date(toUtcMs(day)).getUTCDay();
}

/** The Day column is derived from the date, 'Monday'..'Sunday'. */
export function getDayName(day: CalendarDay): DayName {
  return DAY_NAMES[getWeekdayIndex(day)] as DayName;
}

/** Weeks start on Monday (trade log charts, reflections). */
export function getStartOfWeekMonday(day: CalendarDay): CalendarDay {
  return addDays(day, -((getWeekdayIndex(day) + 6) % 7));
}

/** The PnL calendar's weeks start on Sunday. */
export function getStartOfWeekSunday(day: CalendarDay): CalendarDay {
  return addDays(day, -getWeekdayIndex(day));
}

/**
 * US week-of-year, matching the Sunday-start calendar rows: weeks run Sunday to Saturday and week 1 is the week
 * that contains 1 January (date-fns `getWeek` with weekStartsOn 0, firstWeekContainsDate 1). The row holding
 * 27 Dec 2026 .. 2 Jan 2027 is therefore week 1 (of 2027).
 */
export function getWeekOfYear(day: CalendarDay): number {
  const weekStart = getStartOfWeekSunday(day);
  const weekEnd = addDays(weekStart, 6);
  const endParts = requireDay(weekEnd);
  const startYear = requireDay(weekStart).year;
  // A week that contains 1 January belongs to the new year.
  const year = endParts.year !== startYear ? endParts.year : startYear;
  const firstWeekStart = getStartOfWeekSunday(formatCalendarDay(year, 1, 1));
  return Math.floor(differenceInDays(weekStart, firstWeekStart) / 7) + 1;
}

/** ISO 8601 week number (Monday start; week 1 holds the year's first Thursday). */
export function getIsoWeek(day: CalendarDay): number {
  const thursday = addDays(getStartOfWeekMonday(day), 3);
  const year = requireDay(thursday).year;
  return Math.floor(differenceInDays(thursday, formatCalendarDay(year, 1, 1)) / 7) + 1;
}

/** 'Mar 9' — short label used for week buckets ('Week of Mar 9'). */
export function formatShortDay(day: CalendarDay): string {
  const { month, day: d } = requireDay(day);
  return `${MONTH_SHORT[month - 1]} ${d}`;
}

/** 'Week of Mar 9, 2026' for the Monday-start week containing `day`. */
export function formatWeekOfLabel(day: CalendarDay): string {
  const start = getStartOfWeekMonday(day);
  return `Week of ${formatShortDay(start)}, ${requireDay(start).year}`;
}

const DAY_TOKENS = /EEEE|EEE|MMMM|MMM|MM|dd|d|yyyy/g;

/**
 * A day in words, in English, from a pattern of date-fns tokens: EEEE (Monday), EEE (Mon), MMMM (March), MMM (Mar),
 * MM (03), dd (09), d (9), yyyy (2026); anything else is kept as written. The screens' day labels, without loading a
 * date library before the first screen.
 */
export function formatDay(day: CalendarDay, pattern: string): string {
  const { year, month, day: d } = requireDay(day);
  const weekday = DAY_NAMES[getWeekdayIndex(day)]!;
  return pattern.replace(DAY_TOKENS, (token) => {
    switch (token) {
      case 'EEEE':
        return weekday;
      case 'EEE':
        return weekday.slice(0, 3);
      case 'MMMM':
        return MONTH_NAMES[month - 1]!;
      case 'MMM':
        return MONTH_SHORT[month - 1]!;
      case 'MM':
        return String(month).padStart(2, '0');
      case 'dd':
        return String(d).padStart(2, '0');
      case 'd':
        return String(d);
      default:
        return String(year).padStart(4, '0');
    }
  });
}

/**
 * The Trade Log's date ('MMM d'): 'Mar 9' in the trader's current year, 'Mar 9, 2025' for a day of
 * another year, so a long history never reads as this year's. `today` is today's day in the trader's zone.
 */
export function formatTradeLogDay(day: CalendarDay, today: CalendarDay): string {
  const year = requireDay(day).year;
  const thisYear = parseCalendarDay(today)?.year;
  return year === thisYear ? formatDay(day, 'MMM d') : formatDay(day, 'MMM d, yyyy');
}
