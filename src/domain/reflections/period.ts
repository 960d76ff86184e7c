import {
  addDays,
  addMonths,
  formatCalendarDay,
  getDaysInMonth,
  getStartOfWeekMonday,
  parseCalendarDay,
  type CalendarDay,
} from '../dates/calendar-day';

/**
 * The Reflect page walks back from today by day, week or month.
 * `today` is the trader's date in their own zone (getTodayInZone); the
 * offset counts periods back: 0 is the current one, and it never goes below 0.
 */
export type ReflectionPeriod = 'day' | 'week' | 'month';

export const REFLECTION_PERIODS: readonly ReflectionPeriod[] = ['day', 'week', 'month'];

export interface PeriodRange {
  /** Inclusive trading days, yyyy-MM-dd. */
  from: CalendarDay;
  to: CalendarDay;
}

export function getReflectionPeriodRange(period: ReflectionPeriod, offset: number, today: CalendarDay): PeriodRange {
  const back = clampOffset(offset);
  if (period === 'day') {
    const day = addDays(today, -back);
    return { from: day, to: day };
  }
  if (period === 'week') {
    const from = addDays(getStartOfWeekMonday(today), -7 * back);
    return { from, to: addDays(from, 6) };
  }
  const { year, month } = parseCalendarDay(addMonths(firstOfMonth(today), -back))!;
  return { from: formatCalendarDay(year, month, 1), to: formatCalendarDay(year, month, getDaysInMonth(year, month)) };
}

/** Today, Yesterday, 'N days ago'; This Week, Last Week, 'N weeks ago'; This Month, Last Month, 'N months ago'. */
export function getReflectionPeriodLabel(period: ReflectionPeriod, offset: number): string {
  const back = clampOffset(offset);
  const names = {
    day: ['Today', 'Yesterday', 'days'],
    week: ['This Week', 'Last Week', 'weeks'],
    month: ['This Month', 'Last Month', 'months'],
  } as const;
  const [current, previous, unit] = names[period];
  if (back === 0) return current;
  if (back === 1) return previous;
  return `${back} ${unit} ago`;
}

/** Previous increments the offset; next decrements it but never below 0; a tab resets it to 0. */
export function stepReflectionOffset(offset: number, direction: 'previous' | 'next'): number {
  return direction === 'previous' ? clampOffset(offset) + 1 : Math.max(0, clampOffset(offset) - 1);
}

function clampOffset(offset: number): number {
  return Number.isFinite(offset) && offset > 0 ? Math.floor(offset) : 0;
}

function firstOfMonth(day: CalendarDay): CalendarDay {
  const { year, month } = parseCalendarDay(day)!;
  return formatCalendarDay(year, month, 1);
}
