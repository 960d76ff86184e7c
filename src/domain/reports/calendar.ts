import type { Cents } from '../cents';
import { addDays, formatCalendarDay, getDaysInMonth, parseCalendarDay, type CalendarDay } from '../dates/calendar-day';
import { aggregateRowsByDay } from './aggregate-rows';
import { getIsoWeekday, type TradeSet } from './report-trade';

/** The year calendar (issue 26 point 5): every trading day's net P&L of one year, and the year's months. */
export interface CalendarDayFigure {
  tradeDate: CalendarDay;
  trades: number;
  netCents: Cents;
}

export interface YearCalendar {
  year: number;
  /** Years that have trades in the filter, newest first (the picker's choices). */
  years: number[];
  days: CalendarDayFigure[];
  months: Array<{ month: number; trades: number; netCents: Cents; tradingDays: number }>;
  netCents: Cents;
  trades: number;
}

/** `year` null picks the latest year with trades (or `fallbackYear` without any). */
export function computeYearCalendar(set: TradeSet, year: number | null, fallbackYear: number): YearCalendar {
  const byDay = aggregateRowsByDay(set);
  const years = [...new Set(byDay.map((d) => Number(d.date.slice(0, 4))))].sort((a, b) => b - a);
  const shown = year ?? years[0] ?? fallbackYear;
  const prefix = `${String(shown).padStart(4, '0')}-`;
  const days = byDay.filter((d) => d.date.startsWith(prefix)).map((d) => ({ tradeDate: d.date, trades: d.trades, netCents: d.pnlCents }));
  const months = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, trades: 0, netCents: 0, tradingDays: 0 }));
  for (const day of days) {
    const month = months[parseCalendarDay(day.tradeDate)!.month - 1]!;
    month.trades += day.trades;
    month.netCents += day.netCents;
    month.tradingDays++;
  }
  return {
    year: shown,
    years,
    days,
    months,
    netCents: days.reduce((sum, d) => sum + d.netCents, 0),
    trades: days.reduce((sum, d) => sum + d.trades, 0),
  };
}

/** The weeks of a month as rows of seven cells (Monday first), null outside the month: the calendar's grid. */
export function getMonthGrid(year: number, month: number): Array<Array<CalendarDay | null>> {
  const first = formatCalendarDay(year, month, 1);
  const lead = getIsoWeekday(first) - 1;
  const count = getDaysInMonth(year, month);
  const cells: Array<CalendarDay | null> = [...Array.from({ length: lead }, () => null), ...Array.from({ length: count }, (_, i) => addDays(first, i))];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<CalendarDay | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
