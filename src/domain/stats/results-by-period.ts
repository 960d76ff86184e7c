import {
  addDays,
  formatShortDay,
  getStartOfWeekMonday,
  getWeekdayIndex,
  type CalendarDay,
} from '../dates/calendar-day';
import { combineStats, type DailyAggregate, type TradeAggregate } from './trade-aggregate';
import { calculateWinRate } from './win-rate';

export interface WeekResult extends TradeAggregate {
  /** Monday of the week (spec part 2 §9: weeks start on Monday). */
  weekStart: CalendarDay;
  weekEnd: CalendarDay;
  /** 'Mar 9' — the Monday, for the chart axis. */
  label: string;
  winRate: number;
}

/**
 * Results by Week (spec part 2 "Statistics and charts"): Monday-to-Sunday buckets, oldest first, only weeks that
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
  return [...weeks.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([weekStart, bucket]) => {
      const total = combineStats(bucket);
      return {
        weekStart,
        weekEnd: addDays(weekStart, 6),
        label: formatShortDay(weekStart),
        ...total,
        winRate: calculateWinRate(total),
      };
    });
}

export const CHART_WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const;
export type ChartWeekday = (typeof CHART_WEEKDAYS)[number];

export interface WeekdayResult extends TradeAggregate {
  day: ChartWeekday;
  winRate: number;
}

/**
 * Results by Day of Week (spec part 2 §9: Monday to Friday): always five entries in that order, zeros for days
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
