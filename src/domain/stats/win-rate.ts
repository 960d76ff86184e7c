import { addDays, addMonths, type CalendarDay } from '../dates/calendar-day';
import { getTodayInZone } from '../dates/clock';

/**
 * Wins / (wins + losses) x 100, BE excluded, one decimal. 0 when there is no win and
 * no loss. Rounded half up on the exact ratio (1 of 8 is 12.5, 2 of 3 is 66.7).
 */
export function calculateWinRate(counts: { wins: number; losses: number }): number {
  const decided = counts.wins + counts.losses;
  if (decided === 0) return 0;
  return Math.round((counts.wins * 1000) / decided) / 10;
}

/**
 * The one way a win rate is written, on the dashboard and in the Trade Log alike ('39%' stood beside '39.0'):
 * one decimal as the spec computes it, '39.0%', '66.7%'; '—' when nothing was won or lost (0% would say every trade
 * lost).
 */
export function formatWinRate(winRate: number | null, decided: number): string {
  return winRate === null || decided === 0 ? '—' : `${winRate.toFixed(1)}%`;
}

export type WinRateBand = 'green' | 'yellow' | 'red';

/**
 * 60 or more green, 50 or more yellow, below red (dashboard). Reflections colour win rate green
 * at 50 or more and use their own two-colour rule.
 */
export function getWinRateBand(winRate: number): WinRateBand {
  if (winRate >= 60) return 'green';
  if (winRate >= 50) return 'yellow';
  return 'red';
}

export type WinRatePeriod = 'week' | 'month' | 'all';

/** Inclusive day bounds; null means unbounded. */
export interface DayRange {
  from: CalendarDay | null;
  to: CalendarDay | null;
}

/**
 * Week = last 7 days, Month = last month, both ending today in the user's zone.
 * - week: today and the 6 days before (7 calendar days);
 * - month: the day after the same date one month ago through today (2026-03-15 -> 2026-02-16..2026-03-15;
 *   2026-03-31 -> 2026-03-01..2026-03-31, the month end being clamped);
 * - all: unbounded.
 * Trades dated after today are outside Week and Month.
 */
export function getWinRatePeriodRange(period: WinRatePeriod, now: Date, timeZone: string): DayRange {
  if (period === 'all') return { from: null, to: null };
  const today = getTodayInZone(now, timeZone);
  if (period === 'week') return { from: addDays(today, -6), to: today };
  return { from: addDays(addMonths(today, -1), 1), to: today };
}

export function isDayInRange(day: CalendarDay, range: DayRange): boolean {
  return (range.from === null || day >= range.from) && (range.to === null || day <= range.to);
}

export function filterByDayRange<T extends { tradeDate: CalendarDay }>(trades: Iterable<T>, range: DayRange): T[] {
  const kept: T[] = [];
  for (const trade of trades) if (isDayInRange(trade.tradeDate, range)) kept.push(trade);
  return kept;
}
