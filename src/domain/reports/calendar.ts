import type { Cents } from '../cents';
import { addDays, formatCalendarDay, getDaysInMonth, parseCalendarDay, type CalendarDay } from '../dates/calendar-day';
import { RAccumulator } from '../risk/r-summary';
import { aggregateRowsByDay } from './aggregate-rows';
import { getIsoWeekday, type TradeSet } from './report-trade';

/**
 * The year calendar: every trading day's net P&L of one year, and the year's months; each also in
 * R, of its trades with a planned risk.
 */
export interface CalendarR {
  tradesWithRisk: number;
  tradesWithoutRisk: number;
  /** Sum of the trades' R (each month's and the year's from the trades, not from rounded days); null without a planned risk. */
  totalR: number | null;
}

export interface CalendarDayFigure {
  tradeDate: CalendarDay;
  trades: number;
  netCents: Cents;
  r: CalendarR;
}

export interface YearCalendar {
  year: number;
  /** Years that have trades in the filter, newest first (the picker's choices). */
  years: number[];
  days: CalendarDayFigure[];
  months: Array<{ month: number; trades: number; netCents: Cents; tradingDays: number; r: CalendarR }>;
  netCents: Cents;
  trades: number;
  r: CalendarR;
}

const toCalendarR = (acc: RAccumulator): CalendarR => {
  const { tradesWithRisk, tradesWithoutRisk, totalR } = acc.totals();
  return { tradesWithRisk, tradesWithoutRisk, totalR };
};

/**
 * `year` null picks the latest year with trades (or `fallbackYear` without any). `risk`: every trade's planned risk in
 * cents, NaN without (r-multiples.ts's getRiskColumn); the trades' own plans when left out.
 */
export function computeYearCalendar(
  set: TradeSet,
  year: number | null,
  fallbackYear: number,
  risk: Float64Array = set.columns.ownRisk,
): YearCalendar {
  const byDay = aggregateRowsByDay(set);
  const years = [...new Set(byDay.map((d) => Number(d.date.slice(0, 4))))].sort((a, b) => b - a);
  const shown = year ?? years[0] ?? fallbackYear;
  const prefix = `${String(shown).padStart(4, '0')}-`;
  // R, summed exactly (src/domain/risk/r-summary.ts) per day, month and year from the year's trades.
  const c = set.columns;
  const dayR = new Map<number, RAccumulator>();
  const monthR = Array.from({ length: 12 }, () => new RAccumulator());
  const yearR = new RAccumulator();
  const inYear = c.days.map((d) => d.startsWith(prefix));
  for (const i of set.rows) {
    const code = c.day[i]!;
    if (!inYear[code]) continue;
    const cents = risk[i]!;
    const add = (acc: RAccumulator) => acc.addCents(c.pnl[i]!, cents > 0 ? cents : null, c.result[i]!);
    let acc = dayR.get(code);
    if (!acc) dayR.set(code, (acc = new RAccumulator()));
    add(acc);
    add(monthR[Number(c.days[code]!.slice(5, 7)) - 1]!);
    add(yearR);
  }
  const dayCode = new Map(c.days.map((d, code) => [d, code]));
  const days = byDay
    .filter((d) => d.date.startsWith(prefix))
    .map((d) => ({ tradeDate: d.date, trades: d.trades, netCents: d.pnlCents, r: toCalendarR(dayR.get(dayCode.get(d.date)!)!) }));
  const months = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, trades: 0, netCents: 0, tradingDays: 0, r: toCalendarR(monthR[i]!) }));
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
    r: toCalendarR(yearR),
  };
}

/**
 * The months of `year` (1 to 12) the filter's range touches: a range of March 10 to May 2 shows March, April and May;
 * an open end reaches the year's edge.
 */
export function getMonthsInRange(year: number, range: { from: CalendarDay | null; to: CalendarDay | null }): number[] {
  const months: number[] = [];
  for (let month = 1; month <= 12; month++) {
    const first = formatCalendarDay(year, month, 1);
    const last = formatCalendarDay(year, month, getDaysInMonth(year, month));
    if ((range.from === null || last >= range.from) && (range.to === null || first <= range.to)) months.push(month);
  }
  return months;
}

/** The weeks of a month as rows of seven cells (Monday first), null outside the month: the calendar's grid. */
export function getMonthGrid(year: number, month: number): Array<Array<CalendarDay | null>> {
  const first = formatCalendarDay(year, month, 1);
  const lead = getIsoWeekday(first) - 1;
  const count = getDaysInMonth(year, month);
  const cells: Array<CalendarDay | null> = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: count }, (_, i) => addDays(first, i)),
  ];
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<CalendarDay | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}
