import type { Cents } from '../cents';
import {
  addDays,
  formatCalendarDay,
  getDaysInMonth,
  getStartOfWeekSunday,
  getWeekOfYear,
  getWeekdayIndex,
  parseCalendarDay,
  type CalendarDay,
} from '../dates/calendar-day';
import { calculateWinRate } from '../stats/win-rate';

/**
 * One day's summary (pnl, trades, winRate). A `DailyAggregate` from
 * stats fits as is. Entries without a valid date or with a null pnl are ignored; several entries
 * for one date are added up.
 */
export interface CalendarDayInput {
  date?: string | null;
  pnlCents: Cents | null | undefined;
  trades?: number;
  wins?: number;
  losses?: number;
  breakEvens?: number;
}

export type CalendarTint = 'green' | 'red' | 'grey';

export interface PnlCalendarCell {
  date: CalendarDay;
  dayOfMonth: number;
  inMonth: boolean;
  /** null when the day has no entry, or lies outside the month. */
  pnlCents: Cents | null;
  trades: number;
  /** wins / (wins + losses), one decimal; null without an entry, or with break-evens only (no rate to show: '—'). */
  winRate: number | null;
  /** green above 0, red below 0, grey at exactly 0, null without an entry. */
  tint: CalendarTint | null;
}

export interface PnlCalendarWeek {
  /** The row's Sunday. */
  weekStart: CalendarDay;
  /** 1-based row in this month's grid. */
  weekOfMonth: number;
  /**
   * US week-of-year of the row (Sunday start, week 1 holds 1 January; `getWeekOfYear`). It matches the rows exactly,
   * which an ISO (Monday-start) number cannot: the row's Sunday would carry the previous ISO week.
   */
  weekOfYear: number;
  cells: PnlCalendarCell[];
  /** Sums over the row's days that fall in the month. */
  pnlCents: Cents;
  trades: number;
  /** Days of the month in this row with an entry. */
  tradingDays: number;
}

export interface PnlCalendarSummary {
  pnlCents: Cents;
  trades: number;
  wins: number;
  losses: number;
  breakEvens: number;
  winRate: number;
  tradingDays: number;
  greenDays: number;
  redDays: number;
  flatDays: number;
}

export interface PnlCalendar {
  year: number;
  month: number;
  weeks: PnlCalendarWeek[];
  summary: PnlCalendarSummary;
}

interface DayTotals {
  pnlCents: Cents;
  trades: number;
  wins: number;
  losses: number;
  breakEvens: number;
}

export function getCalendarTint(pnlCents: Cents): CalendarTint {
  if (pnlCents > 0) return 'green';
  if (pnlCents < 0) return 'red';
  return 'grey';
}

/**
 * Number of rows for a Sunday-start month grid.
 *
 * The spec says 5 or 6 rows, "the sixth row appears only if at least 4 of its days fall in the
 * month". Taken literally the sixth row would never appear: it starts 35 days after the first row's Sunday, so it
 * holds at most (6 leading days + 31) - 35 = 2 days of the month, and those days (e.g. Aug 30-31 2026) would vanish
 * from the calendar. We keep what the rule protects (no mostly-empty sixth row, at least 5 rows) without losing a
 * trading day: 5 rows, and a sixth exactly when the month does not fit in five.
 */
export function getCalendarRowCount(year: number, month: number): number {
  const leading = getWeekdayIndex(formatCalendarDay(year, month, 1));
  return Math.max(5, Math.ceil((leading + getDaysInMonth(year, month)) / 7));
}

/** Month view, weeks start on Sunday (headers Su..Sa). */
export function buildPnlCalendar(args: { year: number; month: number; days: Iterable<CalendarDayInput> }): PnlCalendar {
  const { year, month } = args;
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`Not a calendar month: ${year}-${month}`);
  }

  const totals = new Map<CalendarDay, DayTotals>();
  for (const entry of args.days) {
    if (entry.pnlCents === null || entry.pnlCents === undefined || !Number.isFinite(entry.pnlCents)) continue;
    const parts = parseCalendarDay(entry.date);
    if (!parts || parts.year !== year || parts.month !== month) continue;
    const date = entry.date as CalendarDay;
    const day = totals.get(date) ?? { pnlCents: 0, trades: 0, wins: 0, losses: 0, breakEvens: 0 };
    day.pnlCents += entry.pnlCents;
    day.trades += entry.trades ?? 0;
    day.wins += entry.wins ?? 0;
    day.losses += entry.losses ?? 0;
    day.breakEvens += entry.breakEvens ?? 0;
    totals.set(date, day);
  }

  const summary: PnlCalendarSummary = {
    pnlCents: 0,
    trades: 0,
    wins: 0,
    losses: 0,
    breakEvens: 0,
    winRate: 0,
    tradingDays: 0,
    greenDays: 0,
    redDays: 0,
    flatDays: 0,
  };
  const weeks: PnlCalendarWeek[] = [];
  const gridStart = getStartOfWeekSunday(formatCalendarDay(year, month, 1));
  const rows = getCalendarRowCount(year, month);

  for (let row = 0; row < rows; row += 1) {
    const weekStart = addDays(gridStart, row * 7);
    const week: PnlCalendarWeek = {
      weekStart,
      weekOfMonth: row + 1,
      weekOfYear: getWeekOfYear(weekStart),
      cells: [],
      pnlCents: 0,
      trades: 0,
      tradingDays: 0,
    };
    for (let column = 0; column < 7; column += 1) {
      const date = addDays(weekStart, column);
      const parts = parseCalendarDay(date) as { year: number; month: number; day: number };
      const inMonth = parts.year === year && parts.month === month;
      const day = inMonth ? totals.get(date) : undefined;
      week.cells.push({
        date,
        dayOfMonth: parts.day,
        inMonth,
        pnlCents: day ? day.pnlCents : null,
        trades: day ? day.trades : 0,
        winRate: day && day.wins + day.losses > 0 ? calculateWinRate(day) : null,
        tint: day ? getCalendarTint(day.pnlCents) : null,
      });
      if (!day) continue;
      week.pnlCents += day.pnlCents;
      week.trades += day.trades;
      week.tradingDays += 1;
      summary.pnlCents += day.pnlCents;
      summary.trades += day.trades;
      summary.wins += day.wins;
      summary.losses += day.losses;
      summary.breakEvens += day.breakEvens;
      summary.tradingDays += 1;
      if (day.pnlCents > 0) summary.greenDays += 1;
      else if (day.pnlCents < 0) summary.redDays += 1;
      else summary.flatDays += 1;
    }
    weeks.push(week);
  }
  summary.winRate = calculateWinRate(summary);
  return { year, month, weeks, summary };
}

/** Previous (-1) or next (+1) month for the calendar's controls. */
export function shiftCalendarMonth(year: number, month: number, delta: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1 };
}
