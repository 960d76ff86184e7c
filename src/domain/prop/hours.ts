import { parseCalendarDay } from '../dates/calendar-day';
import { offsetAt, wallClockToInstant } from '../dates/clock';
import type { PropTrade, TradingHoursRule } from './types';

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MINUTE = 60_000;
const DAY = 86_400_000;

export function isWallClockTime(text: string): boolean {
  return HH_MM.test(text);
}

function minutesOf(text: string): number {
  const match = HH_MM.exec(text);
  if (!match) throw new RangeError(`Not a time (HH:mm): ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

export interface HoursViolation {
  trade: PropTrade;
  at: string | null;
  reason: 'after-cutoff' | 'closed-day';
  message: string;
}

/**
 * Trades made where the firm says no trading: open at any moment between the day's cut-off (`flatBy`) and the
 * session's reopening (`reopenAt`), in the rule's zone; or filed under a trading day the firm closes (a weekday or a
 * date). A trade without times is judged by its day alone.
 *
 * The zone arithmetic is the importers' memoised one (offsets cached per quarter hour), and each calendar day's
 * closed window is computed once: @date-fns/tz's TZDate per trade and day cost ~0.3 ms a trade, 30 s for 100,000.
 */
export function findHoursViolations(trades: readonly PropTrade[], rule: TradingHoursRule): HoursViolation[] {
  const violations: HoursViolation[] = [];
  const cutoff = rule.flatBy ? minutesOf(rule.flatBy) : null;
  const reopen = minutesOf(rule.reopenAt);
  const closedWeekdays = new Set(rule.noTradingWeekdays);
  const closedDates = new Set(rule.noTradingDates);
  // The closed window [from, to) of each calendar day in the rule's zone, by the day's wall-clock midnight.
  const windows = new Map<number, { from: number; to: number }>();
  const windowOf = (midnight: number) => {
    let window = windows.get(midnight);
    if (!window) {
      const from = wallClockToInstant(midnight + cutoff! * MINUTE, rule.timeZone);
      // A reopening before the cut-off (e.g. 16:10 -> 18:00 is after) is the same day; one before it, the next.
      const to = wallClockToInstant(midnight + (reopen > cutoff! ? 0 : DAY) + reopen * MINUTE, rule.timeZone);
      windows.set(midnight, (window = { from, to }));
    }
    return window;
  };
  for (const trade of trades) {
    const day = parseCalendarDay(trade.day);
    if (day) {
      const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
      if (closedWeekdays.has(weekday) || closedDates.has(trade.day)) {
        violations.push({ trade, at: trade.entryAt, reason: 'closed-day', message: `Traded on ${trade.day}, a day without trading` });
        continue;
      }
    }
    if (cutoff === null || !trade.entryAt) continue;
    const entry = Date.parse(trade.entryAt);
    const exit = trade.exitAt ? Date.parse(trade.exitAt) : entry;
    if (!Number.isFinite(entry) || !Number.isFinite(exit)) continue;
    // The closed windows of the days the trade spans, from the day before its entry (an evening window) on.
    const entryMidnight = Math.floor((entry + offsetAt(entry, rule.timeZone)) / DAY) * DAY;
    for (let offset = -1; offset <= 7; offset++) {
      const { from, to } = windowOf(entryMidnight + offset * DAY);
      if (from > exit) break;
      // Open at any moment in [from, to): entered before the window closes and still open after it began.
      if (entry < to && exit > from) {
        violations.push({
          trade,
          at: entry >= from ? trade.entryAt : new Date(from).toISOString(),
          reason: 'after-cutoff',
          message: `Open after the ${rule.flatBy} cut-off (${rule.timeZone})`,
        });
        break;
      }
    }
  }
  return violations;
}
