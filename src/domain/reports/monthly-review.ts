import type { Cents } from '../cents';
import { addMonths, formatCalendarDay, getDaysInMonth, type CalendarDay } from '../dates/calendar-day';
import { aggregateRowsByDay } from './aggregate-rows';
import { computeBreakdown, type BreakdownRow } from './breakdown';
import { computeYearCalendar, type CalendarDayFigure } from './calendar';
import { computeDayStreaks, type DayStreaks } from './depth';
import { computeEquity, type EquityPoint } from './equity';
import type { MarketGrouping } from './filter';
import { computeMistakes, type MistakeRow } from './mistakes';
import { computeOverview, type ReportOverview } from './overview';
import type { TradeSet } from './report-trade';

/**
 * The monthly review: one calendar month of a filter's trades on one printable page. It computes nothing of its own:
 * each part is the figure another report gives for the same trades (the Overview's figures, the Calendar's days, the
 * Equity curve by day, the Breakdowns' rows, the Depth report's streaks of days, the Mistakes report's rows), so the
 * page and those reports cannot disagree for the same month and filter.
 */

/** A month as the review's address writes it: 2026-11. */
export const REVIEW_MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The rows shown at each end of a ranking (the best three and the worst three). */
export const REVIEW_RANK_ROWS = 3;

/** The first and the last trading day of a month ('2026-02' is 2026-02-01 to 2026-02-28). */
export function monthDays(month: string): { from: CalendarDay; to: CalendarDay } {
  const match = REVIEW_MONTH.exec(month);
  if (!match) throw new RangeError(`Not a month (yyyy-MM): ${month}`);
  const year = Number(match[1]);
  const m = Number(match[2]);
  return { from: formatCalendarDay(year, m, 1), to: formatCalendarDay(year, m, getDaysInMonth(year, m)) };
}

/** The month `amount` months after (or before) `month`. */
export const shiftMonth = (month: string, amount: number): string => addMonths(monthDays(month).from, amount).slice(0, 7);

/**
 * The month a trader reviews when they open the page: in the first three days of a month they are closing the one
 * before (its last days may still be being journaled), so that one; later in the month, the month under way.
 */
export function defaultReviewMonth(today: CalendarDay): string {
  const month = today.slice(0, 7);
  return Number(today.slice(8, 10)) <= 3 ? shiftMonth(month, -1) : month;
}

/** The best rows that made money and the worst that lost it, each at most `count`; a flat row is in neither. */
export function rankByNet<T extends { netCents: Cents; label: string }>(rows: readonly T[], count = REVIEW_RANK_ROWS): { top: T[]; bottom: T[] } {
  const byLabel = (a: T, b: T) => a.label.localeCompare(b.label);
  return {
    top: rows
      .filter((row) => row.netCents > 0)
      .sort((a, b) => b.netCents - a.netCents || byLabel(a, b))
      .slice(0, count),
    bottom: rows
      .filter((row) => row.netCents < 0)
      .sort((a, b) => a.netCents - b.netCents || byLabel(a, b))
      .slice(0, count),
  };
}

/** A playbook's line in the review: its name and the figures its own report gives over the month's trades. */
export interface ReviewPlaybookRow {
  key: string;
  label: string;
  trades: number;
  winRate: number | null;
  netCents: Cents;
}

export interface MonthlyReview {
  month: string;
  overview: ReportOverview;
  /** The month's trading days with their net P&L (the Calendar report's days). */
  days: CalendarDayFigure[];
  /** Net P&L added up day by day over the month (the Equity report's curve by day). */
  equity: EquityPoint[];
  instruments: { top: BreakdownRow[]; bottom: BreakdownRow[] };
  setups: { top: BreakdownRow[]; bottom: BreakdownRow[] };
  playbooks: { top: ReviewPlaybookRow[]; bottom: ReviewPlaybookRow[] };
  /** Streaks of winning and losing days within the month (the Depth report's). */
  streaks: DayStreaks;
  /** The mistakes the month's trades carry (those with none are left out), and how many trades carry one. */
  mistakes: { rows: MistakeRow[]; tradesWithMistakes: number };
}

export interface MonthlyReviewContext {
  month: string;
  timeZone: string;
  accountName: (id: string) => string | undefined;
  risk: Float64Array;
  markets: MarketGrouping | null;
  openingBalanceCents: Cents | null;
  mistakeTags: readonly string[];
  playbooks: readonly ReviewPlaybookRow[];
}

/** The review of `set`, a filter's trades already narrowed to the month's days. */
export function computeMonthlyReview(set: TradeSet, context: MonthlyReviewContext): MonthlyReview {
  const { month, timeZone, accountName, risk, markets } = context;
  const year = Number(month.slice(0, 4));
  const breakdown = (by: 'instrument' | 'setup') => rankByNet(computeBreakdown(set, by, { timeZone, accountName, risk, markets }).rows);
  const mistakes = computeMistakes(set, context.mistakeTags, risk);
  return {
    month,
    overview: computeOverview(set, { openingBalanceCents: context.openingBalanceCents }),
    days: computeYearCalendar(set, year, year, risk).days.filter((day) => day.tradeDate.startsWith(`${month}-`)),
    equity: computeEquity(set).byDay,
    instruments: breakdown('instrument'),
    setups: breakdown('setup'),
    playbooks: rankByNet(context.playbooks.filter((row) => row.trades > 0)),
    streaks: computeDayStreaks(aggregateRowsByDay(set)),
    mistakes: { rows: mistakes.mistakes.filter((row) => row.trades > 0), tradesWithMistakes: mistakes.tradesWithMistakes },
  };
}
