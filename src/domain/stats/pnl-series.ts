import { parseMoneyInput } from '../trades/money-input';
import type { Cents } from '../cents';
import { addDays, differenceInDays, type CalendarDay } from '../dates/calendar-day';
import { getTodayInZone } from '../dates/clock';

export interface DailyPnlPoint {
  date: CalendarDay;
  pnlCents: Cents;
  /** Running total from the first day of the series. */
  cumulativeCents: Cents;
}

/** The last `count` days ending today in the user's zone, inclusive (sparkline 30, balance 90/30/7). */
export function getLastDaysRange(count: number, now: Date, timeZone: string): { from: CalendarDay; to: CalendarDay } {
  const to = getTodayInZone(now, timeZone);
  return { from: addDays(to, -(count - 1)), to };
}

function sumByDate(days: Iterable<{ date: CalendarDay; pnlCents: Cents }>): Map<CalendarDay, Cents> {
  const byDate = new Map<CalendarDay, Cents>();
  for (const day of days) byDate.set(day.date, (byDate.get(day.date) ?? 0) + day.pnlCents);
  return byDate;
}

/**
 * One point per calendar day from `from` to `to`, days without trades at 0 (a journal never invents numbers,
 * DESIGN). Used by the monthly PnL sparkline (last 30 days).
 */
export function buildDailyPnlSeries(args: {
  days: Iterable<{ date: CalendarDay; pnlCents: Cents }>;
  from: CalendarDay;
  to: CalendarDay;
}): DailyPnlPoint[] {
  const byDate = sumByDate(args.days);
  const points: DailyPnlPoint[] = [];
  let cumulative = 0;
  const length = differenceInDays(args.to, args.from) + 1;
  for (let i = 0; i < length; i += 1) {
    const date = addDays(args.from, i);
    const pnlCents = byDate.get(date) ?? 0;
    cumulative += pnlCents;
    points.push({ date, pnlCents, cumulativeCents: cumulative });
  }
  return points;
}

/**
 * A range of days stretched to the latest day with trades when that comes after its end: a futures evening session
 * belongs to the exchange's next trading day, which begins at 18:00 New York while the trader's own day has not ended
 *, and a series ending on the trader's today would leave those trades out until midnight.
 */
export function extendToLatestDay(
  range: { from: CalendarDay; to: CalendarDay },
  days: Iterable<{ date: CalendarDay }>,
): { from: CalendarDay; to: CalendarDay } {
  let to = range.to;
  for (const day of days) if (day.date > to) to = day.date;
  return { from: range.from, to };
}

/**
 * The month's PnL on the header: every trading day of today's month, those dated after today
 * included (the evening session's, see extendToLatestDay), none of the next month's.
 */
export function sumMonthPnl(days: Iterable<{ date: CalendarDay; pnlCents: Cents }>, today: CalendarDay): Cents {
  const month = today.slice(0, 8);
  let sum = 0;
  for (const day of days) if (day.date.startsWith(month)) sum += day.pnlCents;
  return sum;
}

/** Default starting balance 10000 (USD). */
export const DEFAULT_STARTING_BALANCE_CENTS: Cents = 1_000_000;

/** The starting balance is numeric, falling back to 0. */
export function parseStartingBalance(input: unknown): Cents {
  return parseMoneyInput(input);
}

export type BalanceRange = '7d' | '30d' | '90d';
export const BALANCE_RANGE_DAYS: Readonly<Record<BalanceRange, number>> = { '7d': 7, '30d': 30, '90d': 90 };

export interface BalancePoint {
  date: CalendarDay;
  /** Starting balance plus all net pnl up to and including this day (trades before the range count too). */
  balanceCents: Cents;
}

/** Account balance chart (ranges 90, 30 or 7 days, default 90d). */
export function buildBalanceSeries(args: {
  startingBalanceCents: Cents;
  days: Iterable<{ date: CalendarDay; pnlCents: Cents }>;
  range: { from: CalendarDay; to: CalendarDay };
}): BalancePoint[] {
  const days = [...args.days];
  let before = 0;
  for (const day of days) if (day.date < args.range.from) before += day.pnlCents;
  const opening = args.startingBalanceCents + before;
  // A balance holds every trade: one dated after the range's last day extends it.
  return buildDailyPnlSeries({ days, ...extendToLatestDay(args.range, days) }).map((point) => ({
    date: point.date,
    balanceCents: opening + point.cumulativeCents,
  }));
}
