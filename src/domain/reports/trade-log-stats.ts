import type { CalendarDay } from '../dates/calendar-day';
import { buildResultsByWeek, buildResultsByWeekday, combineStats, summarizeAggregate, type DailyAggregate } from '../stats';
import { aggregateRowsByDay, countStreaks, currentStreak } from './aggregate-rows';
import type { TradeSet } from './report-trade';

/**
 * The Trade Log's and the dashboard's statistics of a set of trades: the summary (counts, net, win rate, profit factor,
 * streaks, score), each week's and weekday's results and each trading day's sums. `listFrom` chooses which days are
 * listed one by one: all (undefined), none (null), or those from a day on, the days before it summed into `before`
 * (the dashboard's charts look back months, not years).
 */
export function computeTradeLogStats(set: TradeSet, listFrom?: CalendarDay | null) {
  const days = aggregateRowsByDay(set);
  const summary = summarizeAggregate(combineStats(days), { ...countStreaks(set), current: currentStreak(set) });
  return {
    summary,
    byWeek: buildResultsByWeek(days),
    byWeekday: buildResultsByWeekday(days),
    byDay: listFrom === undefined ? days : listFrom === null ? [] : days.filter((d) => d.date >= listFrom),
    byDayBefore: combineStats(typeof listFrom === 'string' ? days.filter((d) => d.date < listFrom) : ([] as DailyAggregate[])),
  };
}
