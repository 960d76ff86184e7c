import { parseCalendarDay, type CalendarDay } from '../dates';
import { MARKET_TIME_ZONE, SESSION_OPEN_HOUR, type TradingDayRule } from '../market-time';
import { wallClockToInstant } from '../dates/clock';

const DAY_MS = 86_400_000;

/**
 * The first instant a connection's first sync reads from, for the trading day the trader chose: the moment that day
 * begins under their trading-day setting, as imports file trades (domain/market-time). By the exchange's day, CME's
 * session opens at 18:00 New York the evening before (Monday's on Friday evening, as the weekend has none); by the
 * calendar, at midnight New York.
 */
export function syncStartOf(day: CalendarDay, rule: TradingDayRule): Date {
  const parts = parseCalendarDay(day);
  if (!parts) throw new Error(`syncStartOf: not a day: ${day}`);
  const midnight = Date.UTC(parts.year, parts.month - 1, parts.day);
  if (rule === 'calendar') return new Date(wallClockToInstant(midnight, MARKET_TIME_ZONE));
  const weekday = new Date(midnight).getUTCDay();
  const back = weekday === 1 ? 3 : 1;
  return new Date(wallClockToInstant(midnight - back * DAY_MS + SESSION_OPEN_HOUR * 3_600_000, MARKET_TIME_ZONE));
}

/**
 * [from, to] cut into windows of at most `days` days, oldest first: each is one request for fills, and a sync's
 * progress counts them.
 */
export function fetchWindows(from: Date, to: Date, days = 7): Array<{ from: Date; to: Date }> {
  const windows: Array<{ from: Date; to: Date }> = [];
  const step = days * DAY_MS;
  for (let start = from.getTime(); start < to.getTime(); start += step) {
    windows.push({ from: new Date(start), to: new Date(Math.min(start + step, to.getTime())) });
  }
  return windows;
}
