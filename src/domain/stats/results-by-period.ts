import { addDays, formatShortDay, getStartOfWeekMonday, getWeekdayIndex, type CalendarDay } from '../dates/calendar-day';
import { combineStats, type DailyAggregate, type TradeAggregate } from './trade-aggregate';
import { calculateWinRate } from './win-rate';

export interface WeekResult extends TradeAggregate {
  /** Monday of the week (weeks start on Monday). */
  weekStart: CalendarDay;
  weekEnd: CalendarDay;
  /** 'Mar 9', the Monday, for the chart axis; "Dec 29 '25" when the weeks listed span two years. */
  label: string;
  winRate: number;
}

/**
 * Results by Week: Monday-to-Sunday buckets, oldest first, only weeks that
 * have trades. A Sunday trade belongs to the week that began the Monday before.
 */
export function buildResultsByWeek(days: Iterable<DailyAggregate>): WeekResult[] {
  const weeks = new Map<CalendarDay, DailyAggregate[]>();
  for (const day of days) {
    const start = getStartOfWeekMonday(day.date);
    const bucket = weeks.get(start);
    if (bucket) bucket.push(day);
    else weeks.set(start, [day]);
  }
  const sorted = [...weeks.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const labels = labelWeeks(sorted.map(([weekStart]) => weekStart));
  return sorted.map(([weekStart, bucket], index) => {
    const total = combineStats(bucket);
    return {
      weekStart,
      weekEnd: addDays(weekStart, 6),
      label: labels[index]!,
      ...total,
      winRate: calculateWinRate(total),
    };
  });
}

/**
 * Axis labels for the Mondays of a chart's weeks: 'Mar 9' while they all fall in one year, and each with its year
 * ("Dec 29 '25", "Jan 5 '26") once they span two, so that a January week does not read as the December before it
 *. A chart that shows only some weeks labels those it shows.
 */
export function labelWeeks(weekStarts: readonly CalendarDay[]): string[] {
  const years = new Set(weekStarts.map((day) => day.slice(0, 4)));
  return weekStarts.map((day) => (years.size > 1 ? `${formatShortDay(day)} '${day.slice(2, 4)}` : formatShortDay(day)));
}

export const CHART_WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const;
export type ChartWeekday = (typeof CHART_WEEKDAYS)[number];

export interface WeekdayResult extends TradeAggregate {
  day: ChartWeekday;
  winRate: number;
}

/**
 * Results by Day of Week (Monday to Friday): always five entries in that order, zeros for days
 * without trades. Weekend trades (crypto) are not in this chart; they still count everywhere else.
 */
export function buildResultsByWeekday(days: Iterable<DailyAggregate>): WeekdayResult[] {
  const buckets: DailyAggregate[][] = CHART_WEEKDAYS.map(() => []);
  for (const day of days) {
    const index = getWeekdayIndex(day.date) - 1; // Monday = 0
    buckets[index]?.push(day);
  }
  return CHART_WEEKDAYS.map((name, index) => {
    const total = combineStats(buckets[index] ?? []);
    return { day: name, ...total, winRate: calculateWinRate(total) };
  });
}
