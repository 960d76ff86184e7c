import { TZDate } from '@date-fns/tz';
import { parseCalendarDay } from '../dates/calendar-day';
import type { PropTrade, TradingHoursRule } from './types';

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isWallClockTime(text: string): boolean {
  return HH_MM.test(text);
}

function minutesOf(text: string): number {
  const match = HH_MM.exec(text);
  if (!match) throw new RangeError(`Not a time (HH:mm): ${text}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** The instant of a wall-clock time on a calendar day in a zone. */
function instantOf(year: number, month: number, day: number, minutes: number, timeZone: string): number {
  return new TZDate(year, month - 1, day, Math.floor(minutes / 60), minutes % 60, timeZone).getTime();
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
 */
export function findHoursViolations(trades: readonly PropTrade[], rule: TradingHoursRule): HoursViolation[] {
  const violations: HoursViolation[] = [];
  const cutoff = rule.flatBy ? minutesOf(rule.flatBy) : null;
  const reopen = minutesOf(rule.reopenAt);
  for (const trade of trades) {
    const day = parseCalendarDay(trade.day);
    if (day) {
      const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
      if (rule.noTradingWeekdays.includes(weekday) || rule.noTradingDates.includes(trade.day)) {
        violations.push({ trade, at: trade.entryAt, reason: 'closed-day', message: `Traded on ${trade.day}, a day without trading` });
        continue;
      }
    }
    if (cutoff === null || !trade.entryAt) continue;
    const entry = Date.parse(trade.entryAt);
    const exit = trade.exitAt ? Date.parse(trade.exitAt) : entry;
    if (!Number.isFinite(entry) || !Number.isFinite(exit)) continue;
    // The closed windows of the days the trade spans, from the day before its entry (an evening window) on.
    const start = new TZDate(entry, rule.timeZone);
    let broke = false;
    for (let offset = -1; offset <= 7 && !broke; offset++) {
      const d = new TZDate(start.getFullYear(), start.getMonth(), start.getDate() + offset, 12, 0, rule.timeZone);
      const y = d.getFullYear();
      const m = d.getMonth() + 1;
      const dd = d.getDate();
      const from = instantOf(y, m, dd, cutoff, rule.timeZone);
      // A reopening before the cut-off (e.g. 16:10 -> 18:00 is after) is on the next day.
      const to = reopen > cutoff ? instantOf(y, m, dd, reopen, rule.timeZone) : instantOf(y, m, dd + 1, reopen, rule.timeZone);
      if (from > exit) break;
      // Open at any moment in [from, to): entered before the window closes and still open after it began.
      if (entry < to && exit > from) {
        const at = entry >= from ? trade.entryAt : new Date(from).toISOString();
        violations.push({
          trade,
          at,
          reason: 'after-cutoff',
          message: `Open after the ${rule.flatBy} cut-off (${rule.timeZone})`,
        });
        broke = true;
      }
    }
  }
  return violations;
}
